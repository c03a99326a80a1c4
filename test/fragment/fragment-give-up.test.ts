import { describe, expect, it } from 'vitest';
import { STARS_GIVE_UP_MS } from '../../src/app/orders/kinds/goods.js';
import { parseAmount } from '../../src/domain/money.js';
import { getOrder } from '../../src/store/orders-repo.js';
import { getPayment } from '../../src/store/fragment-payments-repo.js';
import { expectRefundedOnce } from '../app/order-jobs.js';
import { fragmentHarness } from './harness.js';

/**
 * UPSTREAM=fragment at the order's give-up time (a Stars order gives up a day after it was made): a payment
 * that may have left is asked about once more and never paid again. Proven unpaid then, the order fails
 * and is refunded; still unknown, it goes to manual review without a refund. The service clock jumps to the
 * give-up time (as after a long pause) and the order's job runs once, through the real hot wallet and the
 * fake toncenter's chain.
 */
const start = fragmentHarness();

async function droppedPayment() {
  const e = await start();
  const p = await e.t.newPartner();
  e.ton.sendMode = 'drop'; // the signed message never reaches the chain
  const r = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
  expect(r.status, r.raw).toBe(200);
  const orderId = r.body.order_id as string;
  await e.advance(0);
  expect(e.ton.received).toHaveLength(1);
  expect(['signed', 'sent']).toContain(getPayment(e.t.db, orderId)!.state); // in flight: its outcome unknown
  e.ton.sendMode = 'ok';
  const createdAt = getOrder(e.t.db, orderId)!.createdAt;
  return { e, p, orderId, createdAt, price: parseAmount(r.body.partner_price, 'USD')! };
}

describe('Fragment: a Stars order at its give-up time with its payment in flight', () => {
  it('proven unpaid at the give-up time: failed and refunded once, and no fresh payment is signed', async () => {
    const { e, p, orderId, createdAt, price } = await droppedPayment();
    e.t.deps.clock.moveTo(createdAt + STARS_GIVE_UP_MS);
    await e.advance(0);
    await e.advance(5);
    // the lookup proved the only payment never executed; past the give-up time nothing is paid again
    expect(getPayment(e.t.db, orderId)!.state).toBe('void');
    expect(e.ton.received).toHaveLength(1);
    expect(e.ton.executed.size).toBe(0);
    expect(await p.call('GET', `/orders/${orderId}`)).toMatchObject({ status: 200, body: { status: 'failed', refunded: true } });
    expect(expectRefundedOnce(e.t, orderId, 'USD', price)).toMatchObject({ reason: 'stars_failed' });
    await e.advance(600);
    expect(e.ton.received).toHaveLength(1);
  });

  it('proven unpaid at the give-up time while Fragment is slow to open a new request: still no fresh payment is signed', async () => {
    const { e, p, orderId, createdAt, price } = await droppedPayment();
    // Fragment takes 10 s to hand out a transaction (longer than a void batch holds the next one back)
    e.fragment.linkOverride = (tx) => {
      e.t.deps.clock.moveTo(e.t.deps.clock.now() + 10_000);
      return tx;
    };
    e.t.deps.clock.moveTo(createdAt + STARS_GIVE_UP_MS);
    await e.advance(0);
    await e.advance(5);
    expect(getPayment(e.t.db, orderId)!.state).toBe('void');
    expect(e.ton.received).toHaveLength(1);
    expect(await p.call('GET', `/orders/${orderId}`)).toMatchObject({ status: 200, body: { status: 'failed', refunded: true } });
    expect(expectRefundedOnce(e.t, orderId, 'USD', price)).toMatchObject({ reason: 'stars_failed' });
  });

  it('not provable at the give-up time (toncenter down): manual review, nothing refunded, nothing paid again', async () => {
    const { e, p, orderId, createdAt } = await droppedPayment();
    e.ton.indexDown = true;
    e.ton.walletDown = true;
    e.t.deps.clock.moveTo(createdAt + STARS_GIVE_UP_MS);
    await e.advance(0);
    await e.advance(5);
    const o = (await e.t.admin('GET', `/orders/${orderId}`)).body;
    expect(o).toMatchObject({ status: 'failed', refunded: false, review: { stage: 'delivery_unconfirmed' } });
    expect(e.alerts).toContainEqual({ kind: 'review', orderId, partnerId: p.id, stage: 'delivery_unconfirmed' });
    expect(e.t.db.$client.prepare("select kind from ledger_entries where order_id = ?").pluck().all(orderId)).toEqual(['order_debit']);
    e.ton.indexDown = false;
    e.ton.walletDown = false;
    await e.advance(600);
    expect(e.ton.received).toHaveLength(1);
  });
});
