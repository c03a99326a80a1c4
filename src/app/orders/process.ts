import { getOrder } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import type { Job, JobOutcome } from '../job-queue.js';
import { processGoodsOrder } from './process-goods.js';
import { processNftOrder } from './process-nft.js';

/** What processOrder uses of the service. */
export type ProcessOrderDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake' | 'supplierCalls'>;

/** The `order.process` job (ref = order id): one step of an order, by its type. */
export function processOrder(deps: ProcessOrderDeps, job: Job): Promise<void | JobOutcome> {
  const order = getOrder(deps.db, job.ref);
  return order?.type === 'nft' ? processNftOrder(deps, job, order) : processGoodsOrder(deps, job, order);
}
