import { fail, failUpstreamUnavailable } from '../../domain/errors.js';
import { orderView } from '../../domain/order-view.js';
import { offsetIso } from '../../domain/time-format.js';
import { audit } from '../../store/audit-repo.js';
import { deleteJob, getJob } from '../../store/jobs-repo.js';
import { entriesOfOrder } from '../../store/ledger-repo.js';
import { getOrder, ordersInReview, type OrderRow } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import { entryView } from '../ledger.js';
import { unitOfWork } from '../unit-of-work.js';
import { ORDER_JOB } from './jobs.js';
import { applyTransition, transitionOr409 } from './transition.js';
import { nftDelivery } from './nft-delivery.js';
import { purchaseReceipt } from './gift-purchase.js';
import { UpstreamUnavailable } from '../../suppliers/types.js';

/** Operator views and actions on orders: manual review and support's cancellation. */

function requireOrder(deps: Pick<Deps, 'db'>, orderId: string): OrderRow {
  const o = getOrder(deps.db, orderId);
  if (!o) fail('not_found', 'Order not found.');
  return o;
}

export function operatorOrderView(deps: Pick<Deps, 'db'>, o: OrderRow) {
  return {
    ...orderView(o),
    partner_id: o.partnerId,
    review: o.reviewStage === null ? null : { stage: o.reviewStage, since: offsetIso(o.reviewSince ?? o.updatedAt) },
    ledger: entriesOfOrder(deps.db, o.orderId).map(entryView),
  };
}

export function getOperatorOrder(deps: Pick<Deps, 'db'>, orderId: string) {
  return operatorOrderView(deps, requireOrder(deps, orderId));
}

export function listReviews(deps: Pick<Deps, 'db'>) {
  return { items: ordersInReview(deps.db).map((o) => operatorOrderView(deps, o)) };
}

const TRANSFER_HASH = /^[A-Za-z0-9+/_=-]{16,128}$/;

/** What resolveReview uses of the service. */
export type ResolveReviewDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'wake'>;

/**
 * Ends a manual review: `delivered` completes the order, `refunded` refunds it (partner-api.md States).
 * An NFT order completes only with its whole delivery block: the transfer comes from the gift market's own
 * record, else from `transfer_hash` in the body; with neither it is 409 transfer_hash_required rather than
 * a completed order without its transfer. Stars have no delivery block (the contract gives one to NFT only).
 */
export async function resolveReview(deps: ResolveReviewDeps, orderId: string, body: Record<string, unknown>, actor: string) {
  const { outcome, transfer_hash: given } = body;
  if (outcome !== 'delivered' && outcome !== 'refunded') fail('validation_error', 'outcome must be "delivered" or "refunded".');
  if (given !== undefined && (typeof given !== 'string' || !TRANSFER_HASH.test(given)))
    fail('validation_error', 'transfer_hash must be the transfer hash as a string (16 to 128 letters, digits, +/_=-).');
  const order = requireOrder(deps, orderId);
  if (order.reviewStage === null) fail('not_in_review');
  if (given !== undefined && (outcome !== 'delivered' || order.type !== 'nft')) fail('validation_error', 'transfer_hash applies only to an NFT order resolved as delivered.');
  const transferHash = outcome === 'delivered' && order.type === 'nft' ? await transferOfReview(deps, orderId, given as string | undefined) : null;
  const updated = unitOfWork(deps, (tx, after) => {
    const fresh = getOrder(tx, orderId)!;
    const now = deps.clock.now();
    const res = transitionOr409(() => {
      if (outcome === 'delivered') {
        const patch = transferHash === null ? {} : { delivery: nftDelivery(deps, fresh, transferHash, now) };
        return applyTransition(tx, deps, after, fresh, 'review_delivered', patch);
      }
      const failure = fresh.type === 'nft' ? { failureStage: fresh.reviewStage === 'purchase' ? 'purchase' : 'transfer', failureReason: 'manual_refund' } : {};
      return applyTransition(tx, deps, after, fresh, 'review_refunded', failure);
    }, 'not_in_review');
    audit(tx, now, actor, 'order.resolve', orderId, { outcome, ...(transferHash ? { transfer_hash: transferHash, transfer_hash_from: given === undefined ? 'supplier' : 'operator' } : {}) });
    return res;
  });
  return operatorOrderView(deps, updated);
}

/** The transfer of a stuck gift: the market's record first, else the operator's hash; they must agree. */
async function transferOfReview(deps: Pick<Deps, 'db' | 'suppliers'>, orderId: string, given: string | undefined): Promise<string> {
  let record: { transferHash: string } | null = null;
  try {
    record = await deps.suppliers.gifts.transferOf(orderId, purchaseReceipt(deps, orderId));
  } catch (e) {
    if (!(e instanceof UpstreamUnavailable)) throw e;
    if (given === undefined)
      failUpstreamUnavailable('The gift market does not answer, so its transfer record cannot be read. Retry, or send transfer_hash.', e.retryAfterSec);
  }
  if (record && given !== undefined && record.transferHash !== given)
    fail('transfer_hash_mismatch', undefined, { supplier_transfer_hash: record.transferHash });
  const hash = record?.transferHash ?? given;
  if (hash === undefined) fail('transfer_hash_required');
  return hash;
}

/** What cancelPremium uses of the service. */
export type CancelPremiumDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'wake' | 'supplierCalls'>;

/**
 * Support cancels an unfinished Premium order (operator-api.md: before its first delivery attempt or
 * between daily retries): canceled, refunded, premium_canceled. A supplier call for the order that is under
 * way is waited for (SupplierCalls.waitMs at most) and its outcome decides: delivered meanwhile is 409
 * not_cancelable; still waiting is canceled. The check and the cancellation then run without a pause, and
 * the order's job is deleted in the same transaction, so no later call can deliver a refunded order.
 */
export async function cancelPremium(deps: CancelPremiumDeps, orderId: string, note: unknown, actor: string) {
  const order = requireOrder(deps, orderId);
  if (order.type !== 'premium') fail('not_cancelable', 'Only an unfinished Premium order can be canceled.', { reason: 'not_premium' });
  while (deps.supplierCalls.busy(orderId)) {
    if (!(await deps.supplierCalls.idle(orderId)))
      fail('not_cancelable', 'A delivery attempt for this order is still under way at the supplier. Retry the cancellation in a few seconds.', { reason: 'delivery_in_progress' });
  }
  const updated = unitOfWork(deps, (tx, after) => {
    const fresh = getOrder(tx, orderId)!;
    if (fresh.status !== 'processing') {
      const reason = fresh.status === 'completed' ? 'delivered' : 'finished';
      fail('not_cancelable', reason === 'delivered' ? 'The order was delivered: it can no longer be canceled.' : `The order is ${fresh.status}: it can no longer be canceled.`, { reason });
    }
    // a payment that may have left is settled by the supplier first (delivered, or proven unpaid)
    const goods = deps.suppliers.goods;
    // A supplier that keeps no record of payments here: an order whose step is due may be one whose call
    // reached the supplier and whose answer died with a killed process (the job stays due until the
    // outcome's commit). The step asks the supplier again first (idempotent by order); a waiting order's
    // step is in the future (before its first attempt, between daily retries) and is canceled at once.
    const due = !goods.paymentInFlight && (getJob(tx, ORDER_JOB, orderId)?.runAt ?? Infinity) <= deps.clock.now();
    if (due)
      fail('not_cancelable', 'A delivery attempt for this order is due: its outcome is asked of the supplier first. Retry the cancellation in a few seconds.', { reason: 'delivery_in_progress' });
    if (goods.paymentInFlight?.(orderId))
      fail('not_cancelable', 'A payment for this order has been sent and is not settled yet. Retry the cancellation once it is.', { reason: 'delivery_in_progress' });
    const res = transitionOr409(() => applyTransition(tx, deps, after, fresh, 'support_cancel'), 'not_cancelable');
    deleteJob(tx, ORDER_JOB, orderId);
    audit(tx, deps.clock.now(), actor, 'order.cancel', orderId, { note: typeof note === 'string' ? note : null });
    return res;
  });
  return operatorOrderView(deps, updated);
}
