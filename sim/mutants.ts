import { resolveDeposit } from '../src/app/deposits/resolve.js';
import { applyTransition } from '../src/app/orders/transition.js';
import { unitOfWork } from '../src/app/unit-of-work.js';
import { moveBatch } from '../src/store/fragment-payments-repo.js';
import { getOrder } from '../src/store/orders-repo.js';
import type { Model } from './model.js';
import type { World } from './world.js';

/**
 * Deliberate bugs, for the test that shows the simulation fails when an invariant is broken (test/sim/).
 * A mutant runs after every step, through an explicit seam of the simulation (`Real.mutant`), and breaks a
 * rule using the service's own code: the service's modules are not replaced, they are called where the
 * service must not call them. Never used by `npm run simulate`.
 */
export const MUTANTS = {
  /**
   * The service refunds an order waiting for review by itself (as a worker that gave up on an unknown
   * purchase would): the order's goods may have gone, and no operator decided.
   */
  refund_in_review: async (w: World, _m: Model) => {
    const deps = w.service.deps;
    const ids = w.sql<{ order_id: string }>('select order_id from orders where review_stage is not null and refunded = 0');
    for (const { order_id } of ids) {
      unitOfWork(deps, (tx, after) => applyTransition(tx, deps, after, getOrder(tx, order_id)!, 'review_refunded', {}));
    }
  },
  /** A transfer that paid no request is credited to a partner anyway (as a matcher too eager would). */
  credit_unmatched: async (w: World, m: Model) => {
    const d = w.sql<{ deposit_id: string }>("select deposit_id from deposits where status = 'unmatched' limit 1")[0];
    if (d) resolveDeposit(w.service.deps, d.deposit_id, { action: 'credit', partner_id: m.partners[0].id }, 'mutant');
  },
  /** The outbox loses the event of a finished order across a restart: its delivery and job vanish. */
  lose_webhook: async (w: World, _m: Model) => {
    const d = w.sql<{ webhook_id: string }>("select webhook_id from webhook_deliveries where status = 'pending' limit 1")[0];
    if (!d) return;
    w.service.db.$client.prepare('delete from webhook_deliveries where webhook_id = ?').run(d.webhook_id);
    w.service.db.$client.prepare("delete from jobs where kind = 'webhook.deliver' and ref = ?").run(d.webhook_id);
  },
  /** A webhook logged as delivered that the receiver never took (as a sender that records success before the answer). */
  deliver_unanswered: async (w: World, _m: Model) => {
    const d = w.sql<{ webhook_id: string }>("select webhook_id from webhook_deliveries where status = 'pending' limit 1")[0];
    if (!d) return;
    w.service.db.$client.prepare("update webhook_deliveries set status = 'delivered' where webhook_id = ?").run(d.webhook_id);
    w.service.db.$client.prepare("delete from jobs where kind = 'webhook.deliver' and ref = ?").run(d.webhook_id);
  },
  /**
   * Fragment: the batch in flight is judged void at once, before its transfer expired (as a settler that
   * trusted a lookup that found nothing yet would): its orders are prepared and paid again in a new batch.
   */
  void_in_flight: async (w: World, _m: Model) => {
    if (!w.fragment) return;
    const b = w.sql<{ batch_id: string }>("select batch_id from fragment_batches where state in ('signed', 'sent') limit 1")[0];
    if (!b) return;
    const now = w.now();
    moveBatch(w.service.db, b.batch_id, { state: 'void', detail: 'mutant: judged void before its expiry', updatedAt: now }, { state: 'void', detail: 'mutant', updatedAt: now });
  },
} satisfies Record<string, (w: World, m: Model) => Promise<void>>;

export type MutantName = keyof typeof MUTANTS;
