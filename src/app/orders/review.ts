import { fail } from '../../domain/errors.js';
import { orderView } from '../../domain/order-view.js';
import { offsetIso } from '../../domain/time-format.js';
import { audit } from '../../store/audit-repo.js';
import { deleteJob } from '../../store/jobs-repo.js';
import { entriesOfOrder } from '../../store/ledger-repo.js';
import { getOrder, ordersInReview, type OrderRow } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import { entryView } from '../ledger.js';
import { unitOfWork } from '../unit-of-work.js';
import { ORDER_JOB } from './jobs.js';
import { applyTransition, transitionOr409 } from './transition.js';

/** Operator views and actions on orders: manual review and support's cancellation. */

function requireOrder(deps: Deps, orderId: string): OrderRow {
  const o = getOrder(deps.db, orderId);
  if (!o) fail('not_found', 'Order not found.');
  return o;
}

export function operatorOrderView(deps: Deps, o: OrderRow) {
  return {
    ...orderView(o),
    partner_id: o.partnerId,
    review: o.reviewStage === null ? null : { stage: o.reviewStage, since: offsetIso(o.reviewSince ?? o.updatedAt) },
    ledger: entriesOfOrder(deps.db, o.orderId).map(entryView),
  };
}

export function getOperatorOrder(deps: Deps, orderId: string) {
  return operatorOrderView(deps, requireOrder(deps, orderId));
}

export function listReviews(deps: Deps) {
  return { items: ordersInReview(deps.db).map((o) => operatorOrderView(deps, o)) };
}

/** Ends a manual review: `delivered` completes the order, `refunded` refunds it (partner-api.md States). */
export function resolveReview(deps: Deps, orderId: string, outcome: unknown, actor: string) {
  if (outcome !== 'delivered' && outcome !== 'refunded') fail('validation_error', 'outcome must be "delivered" or "refunded".');
  const order = requireOrder(deps, orderId);
  if (order.reviewStage === null) fail('not_in_review');
  const updated = unitOfWork(deps, (tx, after) => {
    const fresh = getOrder(tx, orderId)!;
    const now = deps.clock.now();
    const res = transitionOr409(() => {
      if (outcome === 'delivered') {
        const delivery = fresh.type === 'nft' ? { ...(fresh.delivery ?? {}), completed_at: offsetIso(now) } : undefined;
        return applyTransition(tx, deps, after, fresh, 'review_delivered', delivery ? { delivery } : {});
      }
      const failure = fresh.type === 'nft' ? { failureStage: fresh.reviewStage === 'purchase' ? 'purchase' : 'transfer', failureReason: 'manual_refund' } : {};
      return applyTransition(tx, deps, after, fresh, 'review_refunded', failure);
    }, 'not_in_review');
    audit(tx, now, actor, 'order.resolve', orderId, { outcome });
    return res;
  });
  return operatorOrderView(deps, updated);
}

/** Support cancels a waiting (deferred) Premium order: canceled, refunded, premium_canceled. */
export function cancelDeferred(deps: Deps, orderId: string, note: unknown, actor: string) {
  const order = requireOrder(deps, orderId);
  if (order.type !== 'premium' || order.status !== 'processing' || order.stage !== 'deferred') fail('not_cancelable');
  const updated = unitOfWork(deps, (tx, after) => {
    const fresh = getOrder(tx, orderId)!;
    if (fresh.stage !== 'deferred') fail('not_cancelable');
    const res = transitionOr409(() => applyTransition(tx, deps, after, fresh, 'support_cancel'), 'not_cancelable');
    deleteJob(tx, ORDER_JOB, orderId);
    audit(tx, deps.clock.now(), actor, 'order.cancel', orderId, { note: typeof note === 'string' ? note : null });
    return res;
  });
  return operatorOrderView(deps, updated);
}
