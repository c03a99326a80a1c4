import { orderNumber, seqOfNumber } from '../../domain/order-number.js';
import { getOrder, getOrderBySeq } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';

/** The short number people see for an order in chat (src/domain/order-number.ts); the id itself when unknown. */
export function numberOfOrder(deps: Pick<Deps, 'db'>, orderId: string): string {
  const o = getOrder(deps.db, orderId);
  return o ? orderNumber(o.seq) : orderId;
}

/** The order id behind what a person typed: a short number ("PA-100005", "100005"), else the text as an API id. */
export function orderIdOfTyped(deps: Pick<Deps, 'db'>, typed: string): string {
  const text = typed.trim();
  const seq = seqOfNumber(text);
  return (seq !== null ? getOrderBySeq(deps.db, seq)?.orderId : undefined) ?? text;
}
