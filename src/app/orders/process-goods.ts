import { completeJob, scheduleJob } from '../../store/jobs-repo.js';
import type { OrderRow } from '../../store/orders-repo.js';
import { getOrder } from '../../store/orders-repo.js';
import { UpstreamUnavailable, type DeliveryOutcome } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import type { Job, JobOutcome } from '../job-queue.js';
import { unitOfWorkGrouped, type AfterCommit } from '../unit-of-work.js';
import type { Tx } from '../../store/db.js';
import { ORDER_KINDS } from './kinds/index.js';
import { applyTransition } from './transition.js';

const DAY = 86_400_000;
/** Premium deferral: retried once a day, refunded when not delivered within 365 days. */
export const PREMIUM_RETRY_MS = DAY;

/** What processGoodsOrder uses of the service. */
export type ProcessGoodsOrderDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake' | 'supplierCalls'>;

/**
 * One step of a Stars or Premium order (the `order.process` job): asks the supplier, then records the
 * outcome (transition, refund, events) and the job's next step in one transaction. The supplier call is
 * idempotent by order id, so a crash before the commit only repeats the question.
 *
 * Like the NFT processor (process-nft.ts): the run (call and commit) is tracked in `supplierCalls`, so a
 * support cancellation waits for it, and every outcome is committed as a background unit of the group
 * commit; an unreachable supplier only moves the job, never past the kind's give-up time.
 */
export function processGoodsOrder(deps: ProcessGoodsOrderDeps, job: Job, order: OrderRow | undefined): Promise<void | JobOutcome> {
  return deps.supplierCalls.track(job.ref, runGoodsOrder(deps, job, order));
}

type GoodsDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake'>;

async function runGoodsOrder(deps: GoodsDeps, job: Job, order: OrderRow | undefined): Promise<void | JobOutcome> {
  if (!order || order.status !== 'processing' || order.reviewStage !== null || order.type === 'nft') {
    completeJob(deps.db, job.jobId);
    return 'completed';
  }
  // The kind's give-up time, checked on every run: past it, an order with no payment in flight ends without
  // asking the supplier again; one whose payment may have left asks once more, for a definite outcome,
  // and the supplier may only report on that payment (mayPay false), never make a new one.
  const giveUpAt = order.createdAt + ORDER_KINDS[order.type].giveUpMs;
  const inFlight = () => deps.suppliers.goods.paymentInFlight?.(order.orderId) ?? false;
  const late = deps.clock.now() >= giveUpAt;
  if (late && !inFlight()) return giveUp(deps, job, order);
  let outcome: DeliveryOutcome;
  try {
    outcome = await deps.suppliers.goods.deliver({
      orderId: order.orderId,
      product: order.type,
      quantity: order.quantity,
      username: order.account,
      createdAt: order.createdAt,
      mayPay: !late,
    });
  } catch (e) {
    if (e instanceof UpstreamUnavailable) {
      // The supplier is down: the order waits (never past the give-up time); the money stays debited until an outcome is known.
      const now = deps.clock.now();
      if (now >= giveUpAt) return giveUp(deps, job, order);
      scheduleJob(deps.db, job.kind, job.ref, Math.min(now + e.retryAfterSec * 1000, giveUpAt), now);
      return;
    }
    throw e;
  }
  // `completed` when the outcome's transaction deleted the job (the scheduler then need not look for it)
  return unitOfWorkGrouped<void | JobOutcome>(deps, (tx, after) => {
    const fresh = getOrder(tx, order.orderId)!;
    const t = deps.clock.now();
    switch (outcome.kind) {
      case 'pending':
      case 'deferred':
        if (t >= giveUpAt) {
          giveUpIn(tx, deps, after, fresh, inFlight());
          break;
        }
        if (outcome.kind === 'deferred' && fresh.stage !== 'deferred') applyTransition(tx, deps, after, fresh, 'deferred', { stage: 'deferred' });
        scheduleJob(tx, job.kind, job.ref, Math.min(outcome.kind === 'pending' ? Math.max(outcome.retryAt, t) : t + PREMIUM_RETRY_MS, giveUpAt), t);
        return;
      case 'delivered':
        applyTransition(tx, deps, after, fresh, 'delivered');
        break;
      case 'failed':
        applyTransition(tx, deps, after, fresh, 'delivery_failed');
        break;
      case 'unconfirmed':
        applyTransition(tx, deps, after, fresh, 'unconfirmed', { reviewStage: 'delivery_unconfirmed' });
        break;
    }
    completeJob(tx, job.jobId);
    return 'completed';
  }, { background: true });
}

/** Ends an order at its give-up time (see giveUpIn), in its own unit of work. */
async function giveUp(deps: GoodsDeps, job: Job, order: OrderRow): Promise<JobOutcome> {
  await unitOfWorkGrouped(deps, (tx, after) => {
    giveUpIn(tx, deps, after, getOrder(tx, order.orderId)!, deps.suppliers.goods.paymentInFlight?.(order.orderId) ?? false);
    completeJob(tx, job.jobId);
  }, { background: true });
  return 'completed';
}

/**
 * The give-up rule of Stars and Premium: a payment that may have left goes to manual review (no refund:
 * the money may have gone); otherwise Premium expires and Stars fail, both refunded.
 */
function giveUpIn(tx: Tx, deps: GoodsDeps, after: AfterCommit, fresh: OrderRow, inFlight: boolean): void {
  if (inFlight) applyTransition(tx, deps, after, fresh, 'unconfirmed', { reviewStage: 'delivery_unconfirmed' });
  else applyTransition(tx, deps, after, fresh, fresh.type === 'premium' ? 'expired' : 'delivery_failed');
}
