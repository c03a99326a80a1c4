import { describe, expect, it } from 'vitest';
import { toNano } from '@ton/core';
import { getPayment } from '../../src/store/fragment-payments-repo.js';
import { FragmentApi } from '../../src/suppliers/fragment/fragment-api.js';
import { evidenceProblem } from '../../src/suppliers/fragment/payment-checks.js';
import { alertMessage } from '../../bot/features/operator.js';
import { textsOf } from '../../bot/texts/index.js';
import { codeOf } from '../helpers.js';
import { COOKIES, FRAGMENT_ADDRESS, FRAGMENT_HASH, OTHER_ADDRESS } from './fakes.js';
import { fragmentHarness, type FragmentEnv } from './harness.js';

/**
 * UPSTREAM=fragment: the rules found missing or wrong when issue 19 was checked point by point, one test
 * each (the recorded shapes of public Fragment clients, money safety, metrics, operator texts).
 */
const start = fragmentHarness();

async function balanceUsd(e: FragmentEnv, partnerId: number): Promise<string> {
  return (await e.t.admin('GET', `/partners/${partnerId}`)).body.balances.USD;
}

async function status(p: { call: (m: string, u: string) => Promise<any> }, orderId: string) {
  return (await p.call('GET', `/orders/${orderId}`)).body;
}

describe('Fragment adapter: the flow as Fragment pages make it', () => {
  it('opens the page state (mode new) before each request, pays in TON, and makes the confirm call with the sent message', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    await e.advance(0);
    const methods = e.fragment.calls.map((c) => c.method);
    const init = methods.lastIndexOf('initBuyStarsRequest');
    expect(methods[init - 1]).toBe('updateStarsBuyState');
    expect(e.fragment.calls[init].params).toMatchObject({ recipient: 'rcp_alice_fan', quantity: '100', payment_method: 'ton' });
    // Fragment's page reports the sent message with the link answer's confirm call
    const pay = getPayment(e.t.db, r.body.order_id)!;
    expect(e.fragment.confirmed).toEqual([{ id: pay.reqId, boc: e.ton.received[0] }]);
    expect(pay.confirmedAt).not.toBeNull();
    await e.advance(5);
    expect((await e.t.admin('GET', `/fragment/payments/${r.body.order_id}`)).body).toMatchObject({ state: 'paid', confirmed_at: expect.any(String) });
    expect(e.fragment.confirmed).toHaveLength(1);
  });

  it('a confirm call that fails changes nothing: the chain settles the payment, and the call is made again while the message is valid', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.ton.sendMode = 'drop';
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    e.ton.onSend = () => (e.fragment.mode = 'down'); // Fragment stops answering right after the send
    await e.advance(0);
    e.ton.onSend = null;
    expect(e.fragment.confirmed).toHaveLength(0);
    expect(getPayment(e.t.db, r.body.order_id)).toMatchObject({ state: 'signed', confirmedAt: null });
    e.fragment.mode = 'ok';
    await e.advance(5);
    expect(e.fragment.confirmed).toHaveLength(1);
    // the held message reaches the chain: settled by the lookup, paid once
    await e.ton.execute(e.ton.held[0]);
    await e.advance(5);
    expect((await status(p, r.body.order_id)).status).toBe('completed');
    expect(e.ton.executed.size).toBe(1);
  });

  it('amounts written with thousands separators ("1,234.5") are read as numbers', async () => {
    const e = await start();
    e.fragment.thousands = true;
    e.fragment.prices.stars1000 = '1234.5';
    const api = new FragmentApi(e.fragment.url, FRAGMENT_HASH, Object.fromEntries(COOKIES.split('; ').map((c) => c.split('='))), () => e.nowSec());
    const init = await api.init('stars', 'rcp_alice_fan', 1000);
    expect(init.amountTon).toBe('1234.5');
    expect(e.fragment.calls.at(-1)!.params.method).toBe('initBuyStarsRequest');
  });

  it('a stale page hash ({error: "Bad request"}) is an expired session: 503 with an alert, and the accepted order waits instead of being refunded', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const accepted = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    e.fragment.mode = 'bad_hash';
    await e.advance(0);
    expect((await status(p, accepted.body.order_id))).toMatchObject({ status: 'processing', refunded: false });
    expect(await balanceUsd(e, p.id)).toBe('998.36');
    expect(e.alerts).toContainEqual(expect.objectContaining({ kind: 'supplier', problem: 'session_expired', detail: expect.stringContaining('FRAGMENT_HASH') }));
    const r = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
    e.fragment.mode = 'ok';
    await e.advance(60);
    await e.advance(5);
    expect((await status(p, accepted.body.order_id)).status).toBe('completed');
  });

  it('a recipient search answer nobody has seen before is a resolver failure: 502 resolver_error with Retry-After, nothing debited', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.searchError = 'Something new went wrong';
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    expect(r.status).toBe(502);
    expect(codeOf(r)).toBe('resolver_error');
    expect(r.headers['retry-after']).toBe('60');
    expect(await balanceUsd(e, p.id)).toBe('1000.00');
    const v = await p.call('POST', '/validate/recipient', { type: 'stars', username: 'alice_fan' });
    expect([v.status, codeOf(v)]).toEqual([502, 'resolver_error']);
  });

  it('Premium: Fragment saying "already subscribed" at the request step makes the order wait (deferred), nothing paid or refunded', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.order('premium', { months: 3, recipient: 'alice_fan' });
    e.fragment.initError = 'This account is already subscribed to Telegram Premium.';
    await e.advance(0);
    expect(await status(p, r.body.order_id)).toMatchObject({ status: 'processing', refunded: false });
    expect(e.ton.received).toHaveLength(0);
    expect(await balanceUsd(e, p.id)).toBe('987.40');
    // retried a day later, when the subscription may have ended
    e.fragment.initError = null;
    await e.advance(86_400);
    await e.advance(5);
    expect((await status(p, r.body.order_id)).status).toBe('completed');
  });
});

describe('Fragment adapter: money safety', () => {
  it("each payment is bounded by the order's own cost: a price that rose beyond the tolerance while the order waited is refused unsigned, even once the cache follows", async () => {
    const e = await start();
    const p = await e.t.newPartner();
    // +1.9 % while the order waited for Fragment: within the 2 % tolerance, paid
    const within = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    e.fragment.mode = 'down';
    await e.advance(0); // the order's cost is fixed (0.52 TON), then it waits for Fragment
    e.fragment.mode = 'ok';
    e.fragment.prices.stars1000 = '5.3';
    await e.t.fragment!.refresh();
    await e.advance(60);
    await e.advance(5);
    expect((await status(p, within.body.order_id)).status).toBe('completed');
    expect(getPayment(e.t.db, within.body.order_id)!.amountNano).toBe('530000000');
    // +11.5 %: refused, although the cache (and so the price of new orders) follows Fragment
    e.fragment.prices.stars1000 = '5.2';
    await e.t.fragment!.refresh();
    const beyond = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
    e.fragment.mode = 'down';
    await e.advance(0);
    e.fragment.mode = 'ok';
    e.fragment.prices.stars1000 = '5.8';
    await e.t.fragment!.refresh();
    expect((await p.call('GET', '/products')).body.stars.price_per_1000).toBe('18.27');
    await e.advance(60);
    expect(await status(p, beyond.body.order_id)).toMatchObject({ status: 'failed', refunded: true });
    expect(e.ton.received).toHaveLength(1);
    expect(e.alerts).toContainEqual(expect.objectContaining({ problem: 'payment_refused', detail: expect.stringContaining('above the limit 530400000') }));
  });

  it('toncenter answering nothing at all (no lookup, no wallet state) after a send: the order goes to manual review after the bound, with an alert', async () => {
    const e = await start({ extra: { FRAGMENT_LOOKUP_BOUND_SEC: '120' } });
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    e.ton.sendMode = 'fail500';
    await e.advance(0);
    expect(e.ton.executed.size).toBe(1);
    e.ton.indexDown = true;
    e.ton.walletDown = true;
    await e.advance(200);
    expect(await status(p, r.body.order_id)).toMatchObject({ status: 'processing', refunded: false });
    expect(e.alerts.filter((a) => a.kind === 'review')).toHaveLength(0);
    await e.advance(100);
    expect(await status(p, r.body.order_id)).toMatchObject({ status: 'failed', refunded: false });
    expect(e.alerts).toContainEqual({ kind: 'review', orderId: r.body.order_id, partnerId: p.id, stage: 'delivery_unconfirmed' });
    expect(getPayment(e.t.db, r.body.order_id)).toMatchObject({ state: 'review', detail: expect.stringContaining('toncenter does not answer') });
    expect(e.ton.received).toHaveLength(1);
  });

  it('a lagging node showing a seqno already used: nothing is signed until it catches up, then the next payment uses the next seqno (no review)', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const a = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    await e.advance(0);
    await e.advance(5);
    expect((await status(p, a.body.order_id)).status).toBe('completed');
    e.ton.staleSeqno = 0;
    const b = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
    await e.advance(0);
    await e.advance(5);
    await e.advance(5);
    expect(e.ton.received).toHaveLength(1);
    expect(getPayment(e.t.db, b.body.order_id)).toBeUndefined();
    e.ton.staleSeqno = null;
    await e.advance(5);
    await e.advance(5);
    expect((await status(p, b.body.order_id)).status).toBe('completed');
    expect(getPayment(e.t.db, b.body.order_id)).toMatchObject({ state: 'paid', seqno: 1, attempts: 1 });
    expect(e.alerts.filter((x) => x.kind === 'review')).toHaveLength(0);
  });

  it('support cannot cancel a Premium order whose payment has left and is not settled (409 delivery_in_progress); nothing is both paid and refunded', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.ton.sendMode = 'fail500'; // executed on chain, the answer lost
    const r = await p.order('premium', { months: 3, recipient: 'alice_fan' });
    await e.advance(0);
    expect(e.ton.executed.size).toBe(1);
    const c = await e.t.admin('POST', `/orders/${r.body.order_id}/cancel`, { note: 'customer asked' });
    expect(c.status).toBe(409);
    expect(c.body).toMatchObject({ code: 'not_cancelable', reason: 'delivery_in_progress' });
    expect(await balanceUsd(e, p.id)).toBe('987.40');
    await e.advance(5);
    expect((await status(p, r.body.order_id)).status).toBe('completed');
    const again = await e.t.admin('POST', `/orders/${r.body.order_id}/cancel`, {});
    expect(again.body).toMatchObject({ code: 'not_cancelable', reason: 'delivered' });
    expect(await balanceUsd(e, p.id)).toBe('987.40');
  });

  it('a Premium order waiting (deferred, nothing in flight) can still be canceled by support', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.order('premium', { months: 3, recipient: 'bob_premium' });
    await e.advance(0);
    const c = await e.t.admin('POST', `/orders/${r.body.order_id}/cancel`, {});
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: 'canceled', refunded: true });
    expect(e.ton.received).toHaveLength(0);
  });

  it('the evidence must be the payment that was signed: a failed transaction, another destination or another total is not delivery', () => {
    const allowed = [FRAGMENT_ADDRESS.toString()];
    const out = (dest: string, ton: string) => ({ destination: dest, valueNano: toNano(ton) });
    const raw = FRAGMENT_ADDRESS.toRawString().toUpperCase();
    expect(evidenceProblem({ success: true, outMessages: [out(raw, '0.52')] }, { allowed, totalNano: toNano('0.52') })).toBeNull();
    expect(evidenceProblem({ success: false, outMessages: [] }, { allowed, totalNano: toNano('0.52') })).toBe('the wallet transaction failed on chain');
    expect(evidenceProblem({ success: true, outMessages: [out(OTHER_ADDRESS.toRawString(), '0.52')] }, { allowed, totalNano: toNano('0.52') })).toMatch(/not a known Fragment address/);
    expect(evidenceProblem({ success: true, outMessages: [out(raw, '0.5')] }, { allowed, totalNano: toNano('0.52') })).toMatch(/sent 500000000 nanoTON, the payment was 520000000/);
    expect(evidenceProblem({ success: true, outMessages: [] }, { allowed, totalNano: toNano('0.52') })).toMatch(/sent 0 nanoTON/);
  });
});

describe('Fragment adapter: KYC, prices, metrics, alerts', () => {
  it('KYC needed: the 503 holds through price refreshes (one alert), and ends once Fragment hands out a transaction again, with no order waiting', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const accepted = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    e.fragment.mode = 'need_verify';
    await e.advance(0);
    await e.t.fragment!.refresh();
    await e.advance(60);
    await e.t.fragment!.refresh();
    const r = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
    expect(r.status).toBe(503);
    expect(e.alerts.filter((a) => a.kind === 'supplier' && a.problem === 'need_verify')).toHaveLength(1);
    expect(e.ton.received).toHaveLength(0);
    // support cancels nothing here; the accepted order is delivered once KYC is done
    e.fragment.mode = 'ok';
    await e.t.fragment!.refresh(); // the probe's link is handed out: no order had to try first
    expect((await p.order('stars', { quantity: 100, recipient: 'carol_fan' })).status).toBe(200);
    await e.advance(60);
    await e.advance(5);
    expect((await status(p, accepted.body.order_id)).status).toBe('completed');
    // the probe's request was never signed
    expect(e.ton.received.length).toBeLessThanOrEqual(2);
  });

  it('prices not read for 5 TTLs: GET /products answers cost_unavailable and orders get 503', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.mode = 'down';
    await e.advance(5 * 60 + 1);
    await e.t.fragment!.refresh();
    const products = await p.call('GET', '/products');
    expect(products.status).toBe(200);
    expect(products.body).toMatchObject({ unavailable: true, reason: 'cost_unavailable' });
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
  });

  it('/metrics shows the hot wallet address, balance and threshold, and whether the supplier takes orders', async () => {
    const e = await start({ fundTon: '12.5', extra: { METRICS_TOKEN: 'metrics_token_0123456789abcdef' } });
    const scrape = async () => (await e.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics_token_0123456789abcdef' } })).body;
    let text = await scrape();
    expect(text).toContain(`partner_service_supplier_hot_wallet_info{address="${e.t.fragment!.wallet.friendlyAddress}",version="v5r1"} 1`);
    expect(text).toMatch(/^partner_service_supplier_hot_wallet_balance_ton 12\.\d+$/m);
    expect(text).toMatch(/^partner_service_supplier_hot_wallet_min_ton 2$/m);
    expect(text).toMatch(/^partner_service_supplier_up 1$/m);
    for (const secret of [e.mnemonic.slice(0, 2).join(' '), 'SECRET', FRAGMENT_HASH]) expect(text).not.toContain(secret);
    e.fragment.mode = 'session_expired';
    await e.t.fragment!.refresh();
    text = await scrape();
    expect(text).toMatch(/^partner_service_supplier_up 0$/m);
  });

  it('supplier alerts reach the operators as words (en and ru) with the balance and what is needed', () => {
    const a = { kind: 'supplier' as const, supplier: 'fragment', problem: 'wallet_funds_low', detail: 'the hot wallet cannot pay the next stars order', balance_ton: '0.300000000', need_ton: '0.570000000' };
    const en = alertMessage({} as never, textsOf('en'), a).text;
    expect(en).toContain('the purchase wallet (0.300000000 TON) cannot pay the next order, which needs 0.570000000 TON: top it up');
    const ru = alertMessage({} as never, textsOf('ru'), { ...a, problem: 'need_verify', balance_ton: undefined, need_ton: undefined }).text;
    expect(ru).toContain('верификация аккаунта (KYC)');
    expect(ru).not.toContain('{');
  });
});
