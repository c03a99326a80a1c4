import { ORDER_JOB } from '../app/orders/jobs.js';
import type { Deps } from '../app/deps.js';
import type { JobRow } from '../store/jobs-repo.js';
import { getOrder } from '../store/orders-repo.js';
import { processGoodsOrder } from './goods-delivery.js';
import { processNftOrder } from './nft-purchase.js';
import type { JobHandler } from './scheduler.js';

/** The `order.process` job (ref = order id): one step of an order, by its type. */
export function orderJobHandlers(deps: Deps): Record<string, JobHandler> {
  return {
    [ORDER_JOB]: (job: JobRow) => {
      const order = getOrder(deps.db, job.ref);
      return order?.type === 'nft' ? processNftOrder(deps, job, order) : processGoodsOrder(deps, job, order);
    },
  };
}
