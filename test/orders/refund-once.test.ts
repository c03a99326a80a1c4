import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleOrder, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

/**
 * One refund per order, whichever path refunds it: support's cancel, a review resolved as refunded, the
 * worker that sees a delivery fail. The code refuses a second refund by the
 * order's `refunded` flag; the database refuses it by its unique index even when the flag says otherwise.
 * To show that second guard through the real paths, each order below is given a refund entry behind the
 * service's back (written as the database allows: it returns the debit, continues the ledger, and leaves
 * `refunded` unset) before the path runs: the path's transaction then fails whole, and the answer is the
 * path's own refusal.
 */
let t: TestService;
beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000' });
});
afterAll(() => stopService(t));

const DAY = 86_400;

/** A refund entry for the order, written straight into the database, `refunded` left false. */
function refundBehindTheBack(orderId: string) {
  t.db.$client
    .prepare(
      `insert into ledger_entries (partner_id, currency, amount, kind, order_id, balance_after, created_at)
       select o.partner_id, o.currency, o.amount, 'order_refund', o.order_id, a.balance + o.amount, 1
       from orders o join accounts a on a.partner_id = o.partner_id and a.currency = o.currency where o.order_id = ?`,
    )
    .run(orderId);
}

const snapshot = (orderId: string) => ({
  order: t.db.$client.prepare('select status, refunded, review_stage, updated_at from orders where order_id = ?').get(orderId),
  entries: t.db.$client.prepare('select kind, amount from ledger_entries where order_id = ? order by entry_id').all(orderId),
  events: t.db.$client.prepare('select count(*) n from events where order_id = ?').pluck().get(orderId),
  balance: t.db.$client.prepare('select a.balance from accounts a join orders o on o.partner_id = a.partner_id and o.currency = a.currency where o.order_id = ?').pluck().get(orderId),
});

describe('a second refund of one order', () => {
  let p: TestPartner;
  beforeAll(async () => {
    p = await t.newPartner({ usd: '500.00' });
  });

  it('by support’s cancel: 409 not_cancelable, and nothing of the cancellation is written', async () => {
    const r = await p.order('premium', { months: 3, recipient: 'premium_twice' });
    expect(r.status).toBe(200);
    refundBehindTheBack(r.body.order_id);
    const before = snapshot(r.body.order_id);
    expect(before.entries).toEqual([
      { kind: 'order_debit', amount: -1259 },
      { kind: 'order_refund', amount: 1259 },
    ]);
    const c = await t.admin('POST', `/orders/${r.body.order_id}/cancel`, { note: 'twice' });
    expect(c.status, c.raw).toBe(409);
    expect(c.body.code).toBe('not_cancelable');
    expect(snapshot(r.body.order_id)).toEqual(before);
    expect(t.db.$client.prepare("select count(*) from audit_log where action like 'order.cancel%' and target = ?").pluck().get(r.body.order_id)).toBe(0);
  });

  it('by a review resolved as refunded: 409 not_in_review, nothing written', async () => {
    const r = await p.order('stars', { quantity: 100, recipient: 'unconfirmed_twice' });
    const o = await settleOrder(t, p, r.body.order_id);
    expect(o).toMatchObject({ status: 'failed', refunded: false });
    refundBehindTheBack(r.body.order_id);
    const before = snapshot(r.body.order_id);
    const res = await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'refunded' });
    expect(res.status, res.raw).toBe(409);
    expect(res.body.code).toBe('not_in_review');
    expect(snapshot(r.body.order_id)).toEqual(before);
    // still waiting for an operator, who can still resolve it as delivered
    expect((await t.admin('GET', `/orders/${r.body.order_id}`)).body.review).not.toBeNull();
  });

  it('by the worker that sees the delivery fail: its transaction is refused and the job retried; the order is never refunded twice', async () => {
    const r = await p.order('stars', { quantity: 100, recipient: 'failstars_twice' });
    refundBehindTheBack(r.body.order_id);
    const before = snapshot(r.body.order_id);
    await t.advance(10);
    expect(snapshot(r.body.order_id)).toEqual(before);
    const job = t.db.$client.prepare("select attempts, last_error from jobs where kind = 'order.process' and ref = ?").get(r.body.order_id) as { attempts: number; last_error: string };
    expect(job.attempts).toBeGreaterThan(0);
    expect(job.last_error).toMatch(/already refunded/);
    await t.advance(DAY);
    expect(snapshot(r.body.order_id).entries).toEqual(before.entries);
  });
});
