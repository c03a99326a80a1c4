import type { Tx } from '../../store/db.js';
import { completeJob, scheduleJob } from '../../store/jobs-repo.js';
import { getOrder, updateOrder, type OrderRow } from '../../store/orders-repo.js';
import { NFT_STAGES, UpstreamUnavailable, type NftStage, type StageOutcome } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import type { Job, JobOutcome } from '../job-queue.js';
import { unitOfWorkGrouped, type AfterCommit } from '../unit-of-work.js';
import { checkPrice, purchaseAbandoned, purchaseInFlight, purchaseReceipt, purchaseToReview, runPurchase } from './gift-purchase.js';
import { nftDelivery } from './nft-delivery.js';
import { applyTransition } from './transition.js';

/** NFT processing gives up within the hour when the market stalls (partner-api.md States rule 2). */
export const NFT_GIVE_UP_MS = 3_600_000;
/** Failures the operators must act on (the market's wallet or queue): an alert besides the refund. */
const OPERATOR_ALERT_REASONS = new Set(['insufficient_funds', 'hub_rejected', 'queue_rejected']);

function failOrder(tx: Tx, deps: Pick<Deps, 'clock' | 'ids' | 'bus' | 'wake'>, after: AfterCommit, order: OrderRow, stage: NftStage, reason: string): void {
  applyTransition(tx, deps, after, order, 'delivery_failed', { failureStage: stage, failureReason: reason });
  if (OPERATOR_ALERT_REASONS.has(reason))
    after(() => deps.bus.emit('alert', { kind: 'order_failure', orderId: order.orderId, partnerId: order.partnerId, reason }));
}

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

async function runNftStage(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake'>, job: Job, order: OrderRow | undefined): Promise<void | JobOutcome> {
  if (!order || order.status !== 'processing' || order.reviewStage !== null) {
    completeJob(deps.db, job.jobId);
    return;
  }
  const stage = (NFT_STAGES.includes(order.stage as NftStage) ? order.stage : 'create') as NftStage;
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
    outcome = await nftStep(deps, stage, purchase);
  } catch (e) {
    if (!(e instanceof UpstreamUnavailable)) throw e;
    const now = deps.clock.now();
    // The market stalls: wait in the queue, but not past the hour. Then (partner-api.md: the stages
    // `purchase` and `transfer` fail only with a manual refund): a transfer, or a purchase whose money may
    // have gone (gift-purchase.ts purchaseInFlight), goes to manual review; a purchase stage that stalled
    // before anything could be paid fails at `pricing` (the price could not be confirmed with the market);
    // an earlier stage fails at its own stage.
    if (now - order.createdAt >= NFT_GIVE_UP_MS) {
      await unitOfWorkGrouped(deps, (tx, after) => {
        const fresh = getOrder(tx, order.orderId)!;
        if (stage === 'transfer') applyTransition(tx, deps, after, fresh, 'stuck', { reviewStage: 'transfer' });
        else if (stage === 'purchase' && purchaseInFlight(tx, order.orderId)) {
          purchaseToReview(tx, now, order.orderId, `the market stopped answering: ${e.message}`);
          applyTransition(tx, deps, after, fresh, 'stuck', { reviewStage: 'purchase' });
        } else {
          if (stage === 'purchase') purchaseAbandoned(tx, now, order.orderId, `gift_unavailable: the market stopped answering before payment: ${e.message}`);
          failOrder(tx, deps, after, fresh, stage === 'purchase' ? 'pricing' : stage, 'gift_unavailable');
        }
        completeJob(tx, job.jobId);
      }, { background: true });
      return;
    }
    scheduleJob(deps.db, job.kind, job.ref, Math.min(now + e.retryAfterSec * 1000, order.createdAt + NFT_GIVE_UP_MS), now);
    return 'rescheduled';
  }
  // A wait or the next stage moves the job on purpose, maybe to this very instant: the scheduler is told so.
  return unitOfWorkGrouped(deps, (tx, after): void | JobOutcome => {
    const fresh = getOrder(tx, order.orderId)!;
    const now = deps.clock.now();
    switch (outcome.kind) {
      case 'wait':
        scheduleJob(tx, job.kind, job.ref, Math.max(outcome.retryAt, now), now);
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

type NftStep = StageOutcome | { kind: 'review'; detail: string };

/** One stage: the market's own, with the application's price check at `pricing` and its purchase at `purchase`. */
async function nftStep(deps: Pick<Deps, 'db' | 'clock' | 'log' | 'suppliers'>, stage: NftStage, p: Parameters<typeof runPurchase>[1]): Promise<NftStep> {
  if (stage === 'purchase') {
    const r = await runPurchase(deps, p);
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
