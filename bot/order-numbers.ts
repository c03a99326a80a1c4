import { numberOfOrder } from '../src/app/orders/numbers.js';
import { inReview, orderReceipt } from '../src/app/orders/receipt.js';
import type { Deps } from '../src/app/deps.js';
import { orderInfo, type OrderInfo, type ReceiptInfo } from './views/model.js';

/** An order (partner-api.md "Order") as messages show it, with its short number and whether support is checking it. */
export function infoOf(deps: Pick<Deps, 'db'>, o: Record<string, unknown>): OrderInfo {
  const id = String(o.order_id);
  return orderInfo(o, numberOfOrder(deps, id), inReview(deps, id));
}

/** An order of the partner as its receipt shows it (`checked`: it went through a manual check by support). */
export function receiptOf(deps: Pick<Deps, 'db'>, partnerId: number, orderId: string, checked: boolean): ReceiptInfo {
  const r = orderReceipt(deps, partnerId, orderId);
  return { ...orderInfo(r.order, r.number, r.inReview), balanceAfter: r.balanceAfter, balanceAfterRefund: r.balanceAfterRefund, checked };
}

export { numberOfOrder };
