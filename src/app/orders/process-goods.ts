import { completeJob, scheduleJob } from '../../store/jobs-repo.js';
import type { OrderRow } from '../../store/orders-repo.js';
import { getOrder } from '../../store/orders-repo.js';
import { UpstreamUnavailable, type DeliveryOutcome } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import type { Job, JobOutcome } from '../job-queue.js';
import { unitOfWorkGrouped } from '../unit-of-work.js';
import { applyTransition } from './transition.js';

const DAY = 86_400_000;
/** Premium deferral: retried once a day, refunded when not delivered within 365 days. */
export const PREMIUM_RETRY_MS = DAY;
/** When a Premium order gives up (partner-api.md States rule 1): `expired`, refunded. */
export const PREMIUM_GIVE_UP_MS = 365 * DAY;

/** What processGoodsOrder uses of the service. */
export type ProcessGoodsOrderDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake' | 'supplierCalls'>;

/**
 * One step of a Stars or Premium order (the `order.process` job): asks the supplier, then records the
 * outcome (transition, refund, events) and the job's next step in one transaction. The supplier call is
 * idempotent by order id, so a crash before the commit only repeats the question.
 *
 * Like the NFT processor (process-nft.ts): the run (call and commit) is tracked in `supplierCalls`, so a
 * support cancellation waits for it, and every outcome is committed as a background unit of the group
 * commit; an unreachable supplier only moves the job.
 */
export function processGoodsOrder(deps: ProcessGoodsOrderDeps, job: Job, order: OrderRow | undefined): Promise<void | JobOutcome> {
  return deps.supplierCalls.track(job.ref, runGoodsOrder(deps, job, order));
}

async function runGoodsOrder(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake'>, job: Job, order: OrderRow | undefined): Promise<void | JobOutcome> {
  if (!order || order.status !== 'processing' || order.reviewStage !== null || order.type === 'nft') {
    completeJob(deps.db, job.jobId);
    return 'completed';
  }
  const now = deps.clock.now();
  if (order.type === 'premium' && now >= order.createdAt + PREMIUM_GIVE_UP_MS) {
    await unitOfWorkGrouped(deps, (tx, after) => {
      applyTransition(tx, deps, after, getOrder(tx, order.orderId)!, 'expired');
      completeJob(tx, job.jobId);
    }, { background: true });
    return 'completed';
  }
  let outcome: DeliveryOutcome;
  try {
    outcome = await deps.suppliers.goods.deliver({
      orderId: order.orderId,
      product: order.type,
      quantity: order.quantity,
      username: order.account,
      createdAt: order.createdAt,
    });
  } catch (e) {
    if (e instanceof UpstreamUnavailable) {
      // The supplier is down: the order waits; the money stays debited until an outcome is known.
      scheduleJob(deps.db, job.kind, job.ref, deps.clock.now() + e.retryAfterSec * 1000, deps.clock.now());
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
        scheduleJob(tx, job.kind, job.ref, Math.max(outcome.retryAt, t), t);
        return;
      case 'deferred': {
        if (fresh.stage !== 'deferred') applyTransition(tx, deps, after, fresh, 'deferred', { stage: 'deferred' });
        const retryAt = Math.min(t + PREMIUM_RETRY_MS, fresh.createdAt + PREMIUM_GIVE_UP_MS);
        scheduleJob(tx, job.kind, job.ref, retryAt, t);
        return;
      }
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
