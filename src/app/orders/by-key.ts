import { orderView } from '../../domain/order-view.js';
import { getIdem, getOrder } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';

/**
 * The partner's order created under an idempotency key, if one was (the bot's answer to a second tap on a
 * confirmation that was already used). Keys are scoped per partner, as in POST /orders.
 */
export function ownOrderByIdempotencyKey(deps: Pick<Deps, 'db'>, partnerId: number, key: string): Record<string, unknown> | null {
  const idem = getIdem(deps.db, partnerId, key);
  if (!idem?.orderId) return null;
  const o = getOrder(deps.db, idem.orderId);
  return o && o.partnerId === partnerId ? orderView(o) : null;
}
