import { numberOfOrder } from '../src/app/orders/numbers.js';
import type { Deps } from '../src/app/deps.js';
import { orderInfo, type OrderInfo } from './views/model.js';

/** An order (partner-api.md "Order") as messages show it, with its short number. */
export function infoOf(deps: Pick<Deps, 'db'>, o: Record<string, unknown>): OrderInfo {
  return orderInfo(o, numberOfOrder(deps, String(o.order_id)));
}

export { numberOfOrder };
