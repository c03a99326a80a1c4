import { offsetIso } from '../../domain/time-format.js';
import type { OrderRow } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';

/**
 * The `delivery` block of a delivered gift (partner-api.md Order): its links, the transfer and the time.
 * One builder for the purchase job and for an operator's resolution, so both give the same block.
 */
export function nftDelivery(deps: Pick<Deps, 'suppliers'>, order: OrderRow, transferHash: string, now: number) {
  return { ...deps.suppliers.gifts.links(String(order.giftId), transferHash), transfer_hash: transferHash, completed_at: offsetIso(now) };
}
