/**
 * Refunds, called directly on a real service's dependencies (SQLite in a temp folder, the service clock
 * moved by the test): the refund entry of a failed order (its amount and currency), the operator's refund
 * of an order in review and support's cancellation of a Premium order, neither refunding twice, and the
 * refund written with its state change and its outbox events in one transaction (all or nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder } from '../../src/app/orders/create.js';
import { cancelPremium, resolveReview } from '../../src/app/orders/review.js';
import { applyTransition, TransitionRefused } from '../../src/app/orders/transition.js';
import { unitOfWork } from '../../src/app/unit-of-work.js';
import { ApiError } from '../../src/domain/errors.js';
import { parseAmount } from '../../src/domain/money.js';
import { balanceOf } from '../../src/store/ledger-repo.js';
import { getOrder } from '../../src/store/orders-repo.js';
import { startService, stopService, type TestService } from '../helpers.js';
import { eventsOf, expectRefundedOnce, ledgerOf, runOrderJob } from './order-jobs.js';

let t: TestService;
beforeAll(async () => {
  t = await startService();
});
afterAll(() => stopService(t));

let n = 0;
async function order(partnerId: number, type: 'stars' | 'premium', params: Record<string, unknown>) {
  const r = await createOrder(t.deps, partnerId, { type, idempotency_key: `refund-${++n}`, params });
  return { orderId: r.order.order_id as string, price: parseAmount(r.order.partner_price as string, 'USD')! };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('refunds', () => {
  it('a Stars delivery that fails: failed, one refund entry of exactly the debit, and order.refunded then order.failed in the outbox', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const before = balanceOf(t.db, p.id, 'USD');
    const { orderId, price } = await order(p.id, 'stars', { quantity: 100, recipient: '@failstars_refund' });
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before - price);

    await runOrderJob(t, orderId);

    const o = getOrder(t.db, orderId)!;
    expect([o.status, o.refunded, o.stage]).toEqual(['failed', true, 'done']);
    expect(expectRefundedOnce(t, orderId, 'USD', price)).toEqual({ order_id: orderId, refund_amount: price / 100, reason: 'stars_failed', currency: 'USD', client_reference: null });
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before);
    expect(eventsOf(t, orderId)[1].body.data).toMatchObject({ order_id: orderId, status: 'failed', refunded: true });
  });

  it('the operator refunds an order in review once: a second resolution is 409 not_in_review and adds no entry', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const before = balanceOf(t.db, p.id, 'USD');
    const { orderId, price } = await order(p.id, 'stars', { quantity: 100, recipient: '@unconfirmed_refund' });
    await runOrderJob(t, orderId);
    const inReview = getOrder(t.db, orderId)!;
    // an unconfirmed delivery reads `failed` with nothing refunded while an operator decides
    expect([inReview.status, inReview.reviewStage, inReview.refunded]).toEqual(['failed', 'delivery_unconfirmed', false]);
    // in review: nothing refunded, nothing told to the partner yet
    expect(ledgerOf(t, orderId)).toEqual([['order_debit', 'USD', -price]]);
    expect(eventsOf(t, orderId)).toEqual([]);

    const view = await resolveReview(t.deps, orderId, { outcome: 'refunded' }, 'test-operator');
    expect(view).toMatchObject({ order_id: orderId, status: 'failed', refunded: true, review: null });
    expect(ledgerOf(t, orderId)).toEqual([
      ['order_debit', 'USD', -price],
      ['order_refund', 'USD', price],
    ]);

    const e = await refusal(resolveReview(t.deps, orderId, { outcome: 'refunded' }, 'test-operator'));
    expect([e.status, e.code]).toEqual([409, 'not_in_review']);
    expect(ledgerOf(t, orderId)).toHaveLength(2);
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before);
    expect(eventsOf(t, orderId).map((x) => [x.event, x.body.data.reason ?? null])).toEqual([
      ['order.refunded', 'stars_failed'],
      ['order.failed', null],
    ]);
  });

  it("support's cancellation of a Premium order refunds it once: canceled, premium_canceled, and a second cancellation is 409 not_cancelable", async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const before = balanceOf(t.db, p.id, 'USD');
    const { orderId, price } = await order(p.id, 'premium', { months: 3, recipient: '@premium_refund' });
    const view = await cancelPremium(t.deps, orderId, 'asked by the customer', 'test-operator');
    expect(view).toMatchObject({ order_id: orderId, status: 'canceled', refunded: true });
    expect(ledgerOf(t, orderId)).toEqual([
      ['order_debit', 'USD', -price],
      ['order_refund', 'USD', price],
    ]);
    expect(eventsOf(t, orderId)[0].body.data).toMatchObject({ refund_amount: price / 100, reason: 'premium_canceled' });

    const e = await refusal(cancelPremium(t.deps, orderId, null, 'test-operator'));
    expect([e.status, e.code, e.extra.reason]).toEqual([409, 'not_cancelable', 'finished']);
    expect(ledgerOf(t, orderId)).toHaveLength(2);
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before);
    // the order's job went with the cancellation: nothing can deliver a refunded order
    expect(t.db.$client.prepare("select count(*) from jobs where kind = 'order.process' and ref = ?").pluck().get(orderId)).toBe(0);
  });

  it('a refunding transition on an order that already ended is refused and writes nothing', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const { orderId } = await order(p.id, 'stars', { quantity: 100, recipient: '@failstars_twice' });
    await runOrderJob(t, orderId);
    const failed = getOrder(t.db, orderId)!;
    expect(() => unitOfWork(t.deps, (tx, after) => applyTransition(tx, t.deps, after, failed, 'delivery_failed'))).toThrow(TransitionRefused);
    expect(ledgerOf(t, orderId).map((e) => e[0])).toEqual(['order_debit', 'order_refund']);
    expect(eventsOf(t, orderId)).toHaveLength(2);
  });

  it('the refund, the new state and the outbox events commit together: a transaction that fails after the transition leaves none of them', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const before = balanceOf(t.db, p.id, 'USD');
    const { orderId, price } = await order(p.id, 'stars', { quantity: 100, recipient: '@atomic_refund' });
    const told: string[] = [];
    const listener = (e: { orderId: string; event: string }) => e.orderId === orderId && told.push(e.event);
    t.deps.bus.on('order', listener);
    try {
      const o = getOrder(t.db, orderId)!;
      expect(() =>
        unitOfWork(t.deps, (tx, after) => {
          const updated = applyTransition(tx, t.deps, after, o, 'delivery_failed');
          expect([updated.status, updated.refunded]).toEqual(['failed', true]); // written inside the transaction
          throw new Error('crash before the commit');
        }),
      ).toThrow('crash before the commit');
      const after = getOrder(t.db, orderId)!;
      expect([after.status, after.refunded]).toEqual(['processing', false]);
      expect(ledgerOf(t, orderId)).toEqual([['order_debit', 'USD', -price]]);
      expect(eventsOf(t, orderId)).toEqual([]);
      expect(balanceOf(t.db, p.id, 'USD')).toBe(before - price);
      expect(told).toEqual([]); // after-commit hooks never ran

      // the same transition committed: all three at once
      unitOfWork(t.deps, (tx, a) => applyTransition(tx, t.deps, a, getOrder(tx, orderId)!, 'delivery_failed'));
      expect(getOrder(t.db, orderId)!.status).toBe('failed');
      expectRefundedOnce(t, orderId, 'USD', price);
      expect(told).toEqual(['order.refunded', 'order.failed']);
      expect(balanceOf(t.db, p.id, 'USD')).toBe(before);
    } finally {
      t.deps.bus.off('order', listener);
    }
  });
});
