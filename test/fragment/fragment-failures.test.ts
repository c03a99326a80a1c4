import { describe, expect, it } from 'vitest';
import { toNano } from '@ton/core';
import { getPayment } from '../../src/store/fragment-payments-repo.js';
import { codeOf } from '../helpers.js';
import { asUser, BOT_TOKEN } from '../app-api/app-helpers.js';
import { fromNano } from '../../src/config/fragment.js';

const OPERATOR = 777_001;
import { fragmentHarness, type FragmentEnv } from './harness.js';
import { OTHER_ADDRESS } from './fakes.js';

/** UPSTREAM=fragment: every failure rule of issue 19 mapped to the contract, one test each. */
const start = fragmentHarness();

async function balanceUsd(e: FragmentEnv, partnerId: number): Promise<string> {
  return (await e.t.admin('GET', `/partners/${partnerId}`)).body.balances.USD;
}

/** The wallet is drained between the balance check and the execution of its transfer (0.1 TON left). */
function drainWhenSent(e: FragmentEnv): void {
  e.ton.onSend = () => {
    void e.ton.chain.getContract(e.t.fragment!.wallet.address).then((c) => (c.balance = toNano('0.1')));
  };
}

async function expectUpstreamUnavailable(e: FragmentEnv, p: { order: (t: string, params: Record<string, unknown>) => Promise<any> }, retryAfter: string) {
  const r = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
  expect(r.status).toBe(503);
  expect(r.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable', retry_after: Number(retryAfter) });
  expect(r.headers['retry-after']).toBe(retryAfter);
}

describe('Fragment adapter: failures map to the contract', () => {
  it('recipient not found → 400 recipient_not_found at creation, nothing debited', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: '@nobody_here' });
    expect(r.status).toBe(400);
    expect(codeOf(r)).toBe('recipient_not_found');
    expect(await balanceUsd(e, p.id)).toBe('1000.00');
    const v = await p.call('POST', '/validate/recipient', { type: 'stars', username: 'nobody_here' });
    expect(v.status).toBe(400);
    expect(codeOf(v)).toBe('recipient_not_found');
  });

  for (const [mode, problem] of [['session_expired', 'session_expired'], ['down', 'unreachable']] as const) {
    it(`Fragment ${problem} → new orders 503 upstream_unavailable with Retry-After, an alert; an accepted order waits and is delivered once Fragment is back`, async () => {
      const e = await start();
      const p = await e.t.newPartner();
      const accepted = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
      expect(accepted.status).toBe(200);
      e.fragment.mode = mode;
      await e.advance(0);
      expect(e.alerts).toContainEqual(expect.objectContaining({ kind: 'supplier', supplier: 'fragment', problem }));
      await expectUpstreamUnavailable(e, p, '60');
      await e.advance(120);
      expect((await p.call('GET', `/orders/${accepted.body.order_id}`)).body).toMatchObject({ status: 'processing', refunded: false });
      expect(e.ton.received).toHaveLength(0);
      // one alert per episode, not one per retry
      expect(e.alerts.filter((a) => a.kind === 'supplier' && a.problem === problem)).toHaveLength(1);
      e.fragment.mode = 'ok';
      await e.advance(60);
      await e.advance(5);
      expect((await p.call('GET', `/orders/${accepted.body.order_id}`)).body.status).toBe('completed');
      expect((await p.order('stars', { quantity: 100, recipient: 'carol_fan' })).status).toBe(200);
    });
  }

  it('the first request to meet an expired session (found while resolving the recipient) gets the 503 too, and nothing is debited', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.mode = 'session_expired';
    await expectUpstreamUnavailable(e, p, '60');
    expect(await balanceUsd(e, p.id)).toBe('1000.00');
    const v = await p.call('POST', '/validate/recipient', { type: 'stars', username: 'alice_fan' });
    expect(v.status).toBe(503);
    expect(v.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
    expect(e.alerts.filter((a) => a.kind === 'supplier')).toEqual([expect.objectContaining({ problem: 'session_expired' })]);
  });

  it('KYC needed (need_verify) → the order waits, an alert, new orders 503 until Fragment lets the account pay again', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.mode = 'need_verify';
    const accepted = await p.order('premium', { months: 3, recipient: 'alice_fan' });
    expect(accepted.status).toBe(200);
    await e.advance(0);
    expect(e.alerts).toContainEqual(expect.objectContaining({ kind: 'supplier', problem: 'need_verify' }));
    await expectUpstreamUnavailable(e, p, '60');
    expect((await p.call('GET', `/orders/${accepted.body.order_id}`)).body.status).toBe('processing');
    expect(e.ton.received).toHaveLength(0);
    expect((await e.t.admin('GET', '/fragment/wallet')).body.fragment).toMatchObject({ ok: false, problem: 'need_verify' });
    e.fragment.mode = 'ok';
    await e.advance(60);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${accepted.body.order_id}`)).body.status).toBe('completed');
  });

  it('the wallet cannot pay the next order → alert with balance and need, the product refuses new orders, the order waits and is paid after a top-up', async () => {
    const e = await start({ fundTon: '0.3' });
    expect(e.alerts).toContainEqual({ kind: 'supplier', supplier: 'fragment', problem: 'wallet_below_min', detail: expect.any(String), balance_ton: '0.300000000', need_ton: '2.000000000' });
    const p = await e.t.newPartner();
    const accepted = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    expect(accepted.status).toBe(200);
    await e.advance(0);
    expect(e.alerts).toContainEqual({ kind: 'supplier', supplier: 'fragment', problem: 'wallet_funds_low', detail: expect.any(String), balance_ton: '0.300000000', need_ton: '0.570000000' });
    await expectUpstreamUnavailable(e, p, '300');
    expect(e.ton.received).toHaveLength(0);
    expect((await p.call('GET', `/orders/${accepted.body.order_id}`)).body).toMatchObject({ status: 'processing', refunded: false });
    await e.ton.fund(e.t.fragment!.wallet.address, '5');
    const w = await e.t.admin('GET', '/fragment/wallet');
    expect(w.body).toMatchObject({ funds_low: null, below_min: false });
    await e.advance(300);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${accepted.body.order_id}`)).body.status).toBe('completed');
  });

  it('the wallet too low for a Premium payment refuses new Premium orders only: Stars orders the wallet can pay are still accepted and paid', async () => {
    const e = await start({ fundTon: '2' });
    const p = await e.t.newPartner();
    const premium = await p.order('premium', { months: 3, recipient: 'alice_fan' });
    await e.advance(0);
    expect(e.alerts).toContainEqual(expect.objectContaining({ problem: 'wallet_funds_low', need_ton: '4.050000000' }));
    const refused = await p.order('premium', { months: 3, recipient: 'dave_fan' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
    expect(refused.headers['retry-after']).toBe('300');
    const stars = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
    expect(stars.status).toBe(200);
    await e.advance(0);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${stars.body.order_id}`)).body.status).toBe('completed');
    expect((await p.call('GET', `/orders/${premium.body.order_id}`)).body).toMatchObject({ status: 'processing', refunded: false });
    const w = await e.t.admin('GET', '/fragment/wallet');
    expect(w.body.funds_low).toEqual({ premium: { balance_ton: '2.000000000', need_ton: '4.050000000' } });
  });

  const refusals: [string, (e: FragmentEnv) => void][] = [
    ['a destination that is not a known Fragment address', (e) => (e.fragment.linkOverride = (tx) => ({ ...tx, messages: [{ ...tx.messages[0], address: OTHER_ADDRESS.toString() }] }))],
    ['an amount above the cost plus the tolerance', (e) => (e.fragment.linkOverride = (tx) => ({ ...tx, messages: [{ ...tx.messages[0], amount: String((BigInt(tx.messages[0].amount) * 103n) / 100n) }] }))],
    ['a validUntil too far ahead', (e) => (e.fragment.linkOverride = (tx) => ({ ...tx, validUntil: e.nowSec() + 7200 }))],
    ['a second hidden message', (e) => (e.fragment.linkOverride = (tx) => ({ ...tx, messages: [...tx.messages, { address: OTHER_ADDRESS.toString(), amount: '1000000', payload: '' }] }))],
    ['Fragment refusing the request', (e) => (e.fragment.initError = 'Sorry, this request is not available')],
    ['the recipient gone by delivery time', (e) => e.fragment.users.delete('alice_fan')],
  ];
  for (const [what, arrange] of refusals) {
    it(`failure before payment (${what}) → nothing signed or sent, the order fails and is refunded`, async () => {
      const e = await start();
      const p = await e.t.newPartner();
      const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
      expect(await balanceUsd(e, p.id)).toBe('998.36');
      arrange(e);
      await e.advance(0);
      expect(e.ton.received).toHaveLength(0);
      expect(getPayment(e.t.db, r.body.order_id)).toBeUndefined();
      expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'failed', refunded: true });
      expect(await balanceUsd(e, p.id)).toBe('1000.00');
    });
  }

  it('a V5R1 wallet drained before its transfer executes skips the message it cannot pay (not a failed transaction): that order to manual review, nothing refunded', async () => {
    const e = await start({ extra: { FRAGMENT_WALLET_VERSION: 'v5r1' } });
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    drainWhenSent(e);
    await e.advance(0);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'failed', refunded: false });
    expect(getPayment(e.t.db, r.body.order_id)).toMatchObject({ state: 'review', detail: expect.stringMatching(/^no outgoing message carries its reference Ref#\w+ \(the wallet skipped 1 of its messages/) });
    expect(await balanceUsd(e, p.id)).toBe('998.36');
    await e.advance(600);
    expect(e.ton.received).toHaveLength(1);
  });

  it('failure after the payment left (the wallet transaction fails on chain) → manual review with an alert, no refund; the operator resolves it', async () => {
    const e = await start({ extra: { TELEGRAM_BOT_TOKEN: BOT_TOKEN, ADMIN_CHAT_IDS: String(OPERATOR), FRAGMENT_WALLET_VERSION: 'v4r2' } });
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    // the wallet is drained between the balance check and the execution: its action phase fails
    drainWhenSent(e);
    await e.advance(0);
    await e.advance(5);
    const o = await p.call('GET', `/orders/${r.body.order_id}`);
    expect(o.body).toMatchObject({ status: 'failed', refunded: false });
    expect(e.alerts).toContainEqual({ kind: 'review', orderId: r.body.order_id, partnerId: p.id, stage: 'delivery_unconfirmed' });
    expect(getPayment(e.t.db, r.body.order_id)).toMatchObject({ state: 'review', detail: 'the wallet transaction failed on chain' });
    expect(await balanceUsd(e, p.id)).toBe('998.36');
    await e.advance(600);
    expect(e.ton.received).toHaveLength(1);
    // the console's review shows the payment as evidence: its amount, reference, transaction and Fragment's answer
    const pay = getPayment(e.t.db, r.body.order_id)!;
    const review = (await asUser(e.t, OPERATOR).call('GET', '/operator/reviews')).body.items[0];
    expect([review.order_id, review.evidence]).toEqual([
      r.body.order_id,
      {
        gift_purchase: null,
        fragment_payment: {
          state: 'review',
          amount_ton: fromNano(BigInt(pay.amountNano)),
          ref: pay.ref,
          tx_hash: pay.txHash,
          supplier_answer: 'the wallet transaction failed on chain',
          attempts: 1,
          confirmed_at: pay.confirmedAt === null ? null : expect.stringMatching(/\+00:00$/),
          updated_at: expect.stringMatching(/\+00:00$/),
        },
        cost_ton: expect.stringMatching(/^0\.\d{9}$/),
        transfer: null,
      },
    ]);
    expect(pay.ref).toMatch(/./);
    expect(pay.txHash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(BigInt(pay.amountNano)).toBeLessThanOrEqual(toNano(review.evidence.cost_ton) * 102n / 100n);
    const resolved = await e.t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'refunded' });
    expect(resolved.status).toBe(200);
    expect(await balanceUsd(e, p.id)).toBe('1000.00');
  });

  it('a Premium payment not settled on chain within the bound (index down, seqno moved) → manual review, stays processing; resolved as delivered', async () => {
    const e = await start({ extra: { FRAGMENT_LOOKUP_BOUND_SEC: '120' } });
    const p = await e.t.newPartner();
    const r = await p.order('premium', { months: 3, recipient: 'alice_fan' });
    e.ton.indexDown = true;
    await e.advance(0);
    expect(e.ton.executed.size).toBe(1);
    await e.advance(200);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'processing', refunded: false });
    await e.advance(200);
    const o = await e.t.admin('GET', `/orders/${r.body.order_id}`);
    expect(o.body).toMatchObject({ status: 'processing', refunded: false, review: { stage: 'delivery_unconfirmed' } });
    expect(e.alerts).toContainEqual(expect.objectContaining({ kind: 'review', orderId: r.body.order_id }));
    expect(e.ton.received).toHaveLength(1);
    const resolved = await e.t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'delivered' });
    expect(resolved.body).toMatchObject({ status: 'completed', review: null });
  });
});
