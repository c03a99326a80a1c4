import { offsetIso } from '../../domain/time-format.js';
import { getOrder } from '../../store/orders-repo.js';
import { eventsOfOrder } from '../../store/app-repo.js';
import { NFT_STAGES } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import { listOwnDeliveries } from '../webhooks/delivery-log.js';
import { getOwnOrder } from './query.js';

/**
 * An order's page in the Mini App: the partner's order view plus its timeline (creation, the NFT stages
 * with the one in progress, the events the order produced, completion), its refund state and, for owners,
 * its webhook deliveries as the partner API's delivery log shows them.
 */
export function orderDetail(deps: Pick<Deps, 'db'>, partnerId: number, orderId: string, withDeliveries: boolean) {
  const order = getOwnOrder(deps, partnerId, orderId);
  const row = getOrder(deps.db, orderId)!;
  const evs = eventsOfOrder(deps.db, orderId);
  const timeline: { kind: string; name: string; at: string | null; state: 'done' | 'current' | 'pending' | 'failed' }[] = [
    { kind: 'created', name: 'created', at: offsetIso(row.createdAt), state: 'done' },
  ];
  if (row.type === 'nft') {
    const finished = row.status !== 'processing';
    const reached = NFT_STAGES.indexOf(row.stage as (typeof NFT_STAGES)[number]);
    const failedAt = row.failureStage ? NFT_STAGES.indexOf(row.failureStage as (typeof NFT_STAGES)[number]) : -1;
    NFT_STAGES.forEach((stage, i) => {
      let state: 'done' | 'current' | 'pending' | 'failed';
      if (failedAt >= 0) state = i < failedAt ? 'done' : i === failedAt ? 'failed' : 'pending';
      else if (row.status === 'completed') state = 'done';
      else if (reached < 0) state = finished ? 'done' : 'pending';
      else state = i < reached ? 'done' : i === reached ? (row.reviewStage ? 'failed' : 'current') : 'pending';
      timeline.push({ kind: 'stage', name: stage, at: null, state });
    });
  }
  for (const e of evs) timeline.push({ kind: 'event', name: e.event, at: offsetIso(e.createdAt), state: 'done' });
  return {
    order,
    timeline,
    refund: { refunded: row.refunded, in_review: row.reviewStage !== null },
    // the partner API's delivery log (GET /webhook-deliveries?order_id=…): each delivery with its attempts
    ...(withDeliveries ? { deliveries: listOwnDeliveries(deps, partnerId, { order_id: orderId, limit: 200 }).items } : {}),
  };
}
