import type { Conn, Tx } from '../../store/db.js';
import { completeJob, scheduleJob } from '../../store/jobs-repo.js';
import { getOrder, updateOrder, type OrderRow } from '../../store/orders-repo.js';
import { NFT_STAGES, UpstreamUnavailable, type NftStage, type StageOutcome } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import type { Job, JobOutcome } from '../job-queue.js';
import { unitOfWorkGrouped, type AfterCommit } from '../unit-of-work.js';
import { checkPrice, purchaseAbandoned, purchaseInFlight, purchaseReceipt, purchaseToReview, runPurchase } from './gift-purchase.js';
import { nftKind } from './kinds/nft.js';
import { nftDelivery } from './nft-delivery.js';
import { applyTransition } from './transition.js';

/** Failures the operators must act on (the market's wallet or queue): an alert besides the refund. */
const OPERATOR_ALERT_REASONS = new Set(['insufficient_funds', 'hub_rejected', 'queue_rejected']);

function failOrder(tx: Tx, deps: Pick<Deps, 'clock' | 'ids' | 'bus' | 'wake'>, after: AfterCommit, order: OrderRow, stage: NftStage, reason: string): void {
  applyTransition(tx, deps, after, order, 'delivery_failed', { failureStage: stage, failureReason: reason });
  if (OPERATOR_ALERT_REASONS.has(reason))
    after(() => deps.bus.emit('alert', { kind: 'order_failure', orderId: order.orderId, partnerId: order.partnerId, reason }));
}

type NftDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake'>;

/** What processNftOrder uses of the service. */
export type ProcessNftOrderDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake' | 'supplierCalls'>;

/**
 * One stage of an NFT order (the `order.process` job): create … transfer, one per run. The stage reached
 * is kept on the order, so a restart resumes where processing stopped; the market treats a repeated stage
 * as the same request. The price check (pricing) and the purchase itself are the application's
 * (gift-purchase.ts): the cap (the listing price the order fixed) is enforced there against the market's
 * payment form before every paid call, whatever the market; at creation by kinds/nft.ts.
 *
 * Like the goods processor (process-goods.ts): the run (call and commit) is tracked in `supplierCalls`,
 * and every outcome is committed as a background unit of the group commit; an unreachable market only
 * moves the job (until the hour is up).
 */
export function processNftOrder(deps: ProcessNftOrderDeps, job: Job, order: OrderRow | undefined): Promise<void | JobOutcome> {
  return deps.supplierCalls.track(job.ref, runNftStage(deps, job, order));
}

async function runNftStage(deps: NftDeps, job: Job, order: OrderRow | undefined): Promise<void | JobOutcome> {
  if (!order || order.status !== 'processing' || order.reviewStage !== null) {
    completeJob(deps.db, job.jobId);
    return;
  }
  const stage = (NFT_STAGES.includes(order.stage as NftStage) ? order.stage : 'create') as NftStage;
  // The kind's give-up time, checked on every run whatever the market answers (partner-api.md: the stages
  // `purchase` and `transfer` fail only with a manual refund). Past it, a stage before any payment ends at
  // once, without asking the market again, so nothing is bought after the hour; a transfer, or a purchase
  // whose money may have gone (gift-purchase.ts purchaseInFlight), asks once more for a definite outcome
  // (never paying again) and goes to manual review without one.
  const giveUpAt = order.createdAt + nftKind.giveUpMs;
  const late = deps.clock.now() >= giveUpAt;
  if (late && !moneyMayHaveGone(deps.db, stage, order.orderId)) return giveUp(deps, job, order.orderId, stage, 'the give-up time passed');
  let outcome: NftStep;
  const purchase = {
    orderId: order.orderId,
    gift: String(order.giftId),
    username: order.account,
    fixedPriceMilli: priceMilliOf(order),
    createdAt: order.createdAt,
    stageSince: order.updatedAt,
    receipt: purchaseReceipt(deps, order.orderId) ?? undefined,
  };
  try {
    outcome = await nftStep(deps, stage, purchase, !late);
  } catch (e) {
    if (!(e instanceof UpstreamUnavailable)) throw e;
    const now = deps.clock.now();
    // The market stalls: wait in the queue, but not past the give-up time.
    if (now >= giveUpAt) return giveUp(deps, job, order.orderId, stage, `the market stopped answering: ${e.message}`);
    scheduleJob(deps.db, job.kind, job.ref, Math.min(now + e.retryAfterSec * 1000, giveUpAt), now);
    return 'rescheduled';
  }
  // A wait or the next stage moves the job on purpose, maybe to this very instant: the scheduler is told so.
  return unitOfWorkGrouped(deps, (tx, after): void | JobOutcome => {
    const fresh = getOrder(tx, order.orderId)!;
    const now = deps.clock.now();
    switch (outcome.kind) {
      case 'wait':
        // a market that keeps asking to wait meets the give-up time like one that stalls
        if (now >= giveUpAt) {
          giveUpIn(tx, deps, after, fresh, stage, now, 'the market still asked to wait');
          completeJob(tx, job.jobId);
          return;
        }
        scheduleJob(tx, job.kind, job.ref, Math.min(Math.max(outcome.retryAt, now), giveUpAt), now);
        return 'rescheduled';
      case 'fail':
        failOrder(tx, deps, after, fresh, outcome.stage ?? stage, outcome.reason);
        completeJob(tx, job.jobId);
        return;
      case 'stuck':
        applyTransition(tx, deps, after, fresh, 'stuck', { reviewStage: 'transfer', stage: 'transfer' });
        completeJob(tx, job.jobId);
        return;
      case 'review':
        // the purchase may have been paid without a definite answer: an operator decides, never a refund here
        applyTransition(tx, deps, after, fresh, 'stuck', { reviewStage: 'purchase', stage: 'purchase' });
        completeJob(tx, job.jobId);
        return;
      case 'done': {
        const next = NFT_STAGES[NFT_STAGES.indexOf(stage) + 1];
        if (next) {
          // the next stage starts at once, unless the give-up time has come (its own rule then applies)
          updateOrder(tx, fresh.orderId, { stage: next, updatedAt: now });
          scheduleJob(tx, job.kind, job.ref, now, now);
          after(() => deps.wake());
          return 'rescheduled';
        }
        const delivery = nftDelivery(deps, fresh, outcome.transferHash ?? '', now);
        applyTransition(tx, deps, after, fresh, 'delivered', { delivery });
        completeJob(tx, job.jobId);
      }
    }
  }, { background: true });
}

/** Whether money may have left for the order at this stage: a transfer, or a purchase in flight. */
function moneyMayHaveGone(conn: Conn, stage: NftStage, orderId: string): boolean {
  return stage === 'transfer' || (stage === 'purchase' && purchaseInFlight(conn, orderId));
}

/** Ends an order at its give-up time (see giveUpIn), in its own unit of work. */
async function giveUp(deps: NftDeps, job: Job, orderId: string, stage: NftStage, why: string): Promise<void> {
  await unitOfWorkGrouped(deps, (tx, after) => {
    giveUpIn(tx, deps, after, getOrder(tx, orderId)!, stage, deps.clock.now(), why);
    completeJob(tx, job.jobId);
  }, { background: true });
}

/**
 * The give-up rule of a gift order, by stage: a transfer, or a purchase whose money may have gone, goes to
 * manual review (no refund); a purchase stage that ended before anything could be paid fails at `pricing`
 * (the price could not be confirmed with the market) and is never paid later; an earlier stage fails at
 * its own stage; all with `gift_unavailable`, refunded.
 */
function giveUpIn(tx: Tx, deps: NftDeps, after: AfterCommit, fresh: OrderRow, stage: NftStage, now: number, why: string): void {
  if (stage === 'transfer') applyTransition(tx, deps, after, fresh, 'stuck', { reviewStage: 'transfer' });
  else if (stage === 'purchase' && purchaseInFlight(tx, fresh.orderId)) {
    purchaseToReview(tx, now, fresh.orderId, `given up after the hour: ${why}`);
    applyTransition(tx, deps, after, fresh, 'stuck', { reviewStage: 'purchase' });
  } else {
    if (stage === 'purchase') purchaseAbandoned(tx, now, { orderId: fresh.orderId, gift: String(fresh.giftId), fixedPriceMilli: priceMilliOf(fresh) }, `gift_unavailable: given up after the hour before payment: ${why}`);
    failOrder(tx, deps, after, fresh, stage === 'purchase' ? 'pricing' : stage, 'gift_unavailable');
  }
}

type NftStep = StageOutcome | { kind: 'review'; detail: string };

/**
 * One stage: the market's own, with the application's price check at `pricing` and its purchase at
 * `purchase`. `mayPay` false (past the give-up time): the purchase may reconcile but never pays.
 */
async function nftStep(deps: Pick<Deps, 'db' | 'clock' | 'log' | 'suppliers'>, stage: NftStage, p: Parameters<typeof runPurchase>[1], mayPay: boolean): Promise<NftStep> {
  if (stage === 'purchase') {
    const r = await runPurchase(deps, p, { mayPay });
    if (r.kind === 'bought') return { kind: 'done' };
    return r;
  }
  const outcome = await deps.suppliers.gifts.runStage(stage, p);
  if (stage !== 'pricing' || outcome.kind !== 'done') return outcome;
  const price = await checkPrice(deps, p);
  return price.kind === 'ok' ? outcome : price;
}

/** The listing price fixed at order time, in its typed column (0 if absent: then nothing is ever paid). */
function priceMilliOf(order: OrderRow): number {
  return order.giftPriceMilli ?? 0;
}
