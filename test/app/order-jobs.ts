/**
 * Helpers of the use-case tests: run an order's `order.process` job directly (processOrder, as the
 * scheduler would), moving the service clock to the job's run time first; read an order's ledger entries
 * and outbox events.
 */
import { expect } from 'vitest';
import { processOrder } from '../../src/app/orders/process.js';
import { ORDER_JOB } from '../../src/app/orders/jobs.js';
import { getJob } from '../../src/store/jobs-repo.js';
import { entriesOfOrder } from '../../src/store/ledger-repo.js';
import type { TestService } from '../helpers.js';

/** Runs the order's job once (at its run time, or `at`), if it has one. Returns whether a job ran. */
export async function runOrderJobOnce(t: TestService, orderId: string, at?: number): Promise<boolean> {
  const job = getJob(t.db, ORDER_JOB, orderId);
  if (!job) return false;
  t.deps.clock.moveTo(at ?? job.runAt);
  await processOrder(t.deps, job);
  return true;
}

/** Runs the order's job until it has none left or it stops moving (at most `max` runs). */
export async function runOrderJob(t: TestService, orderId: string, max = 20): Promise<void> {
  for (let i = 0; i < max; i++) if (!(await runOrderJobOnce(t, orderId))) return;
  throw new Error(`order ${orderId} still has a job after ${max} runs`);
}

/** The order's ledger entries as [kind, currency, amount], oldest first. */
export const ledgerOf = (t: TestService, orderId: string) => entriesOfOrder(t.db, orderId).map((e) => [e.kind, e.currency, e.amount]);

/** The outbox rows of the order: event name and parsed body, oldest first. */
export function eventsOf(t: TestService, orderId: string): { event: string; body: { event: string; data: Record<string, unknown> } }[] {
  const rows = t.db.$client.prepare('select event, body from events where order_id = ? order by event_id').all(orderId) as { event: string; body: string }[];
  return rows.map((r) => ({ event: r.event, body: JSON.parse(r.body) }));
}

/**
 * Asserts the order was refunded exactly once: its ledger is the debit and one refund of the same amount,
 * its outbox `order.refunded` then `order.failed`. Returns the `order.refunded` data.
 */
export function expectRefundedOnce(t: TestService, orderId: string, currency: 'USD' | 'TON', amount: number): Record<string, unknown> {
  expect(ledgerOf(t, orderId)).toEqual([
    ['order_debit', currency, -amount],
    ['order_refund', currency, amount],
  ]);
  const events = eventsOf(t, orderId);
  expect(events.map((e) => e.event)).toEqual(['order.refunded', 'order.failed']);
  return events[0].body.data;
}
