import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { getPayment } from '../../src/store/fragment-payments-repo.js';
import { hashFromPage } from '../../src/suppliers/fragment/fragment-api.js';
import { checkComment } from '../../src/suppliers/fragment/payment-checks.js';
import { codeOf } from '../helpers.js';
import { fragmentPayload, newMnemonic, type FakeFragment, type FakeToncenter } from './fakes.js';
import { fragmentEnvFor, fragmentHarness, type FragmentEnv } from './harness.js';

/**
 * UPSTREAM=fragment: what a review against public Fragment clients found, one test each on the fake
 * Fragment: the page hash, "a username assigned to a user", Cloudflare's 403, 429 backoff, the payment's
 * comment, Fragment's minimum of stars, a bounced payment.
 */
const start = fragmentHarness();

async function order(e: FragmentEnv, p: { call: (m: string, u: string) => Promise<any> }, id: string) {
  return (await p.call('GET', `/orders/${id}`)).body;
}

describe('Fragment adapter against public clients', () => {
  it('a page hash Fragment changed is read again from the page and the call goes through: no alert, the order is paid', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.hash = 'feedbeef00112233';
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    expect(r.status).toBe(200);
    await e.advance(0);
    await e.advance(5);
    expect((await order(e, p, r.body.order_id)).status).toBe('completed');
    expect(e.fragment.pageReads).toBe(1);
    expect(e.alerts.filter((a) => a.kind === 'supplier')).toEqual([]);
    expect(hashFromPage('{"apiUrl":"\\/api?hash=0a1b2c3d4e5f"}')).toBe('0a1b2c3d4e5f');
  });

  it('a hash the page cannot renew (the session is gone) still reads as session_expired, after one page read per call', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.mode = 'bad_hash';
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    expect(r.status).toBe(503);
    expect(e.alerts).toContainEqual(expect.objectContaining({ problem: 'session_expired' }));
    expect(e.fragment.pageReads).toBeGreaterThanOrEqual(1);
  });

  it('"Please enter a username assigned to a user" is 400 recipient_not_found, not a resolver error', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.searchError = 'Please enter a username assigned to a user.';
    const r = await p.order('stars', { quantity: 100, recipient: 'some_channel' });
    expect(r.status).toBe(400);
    expect(codeOf(r)).toBe('recipient_not_found');
    expect((await e.t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe('1000.00');
  });

  it("Cloudflare's 403 is Fragment unreachable, not an expired session", async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.fragment.mode = 'cloudflare';
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
    expect(e.alerts).toContainEqual(expect.objectContaining({ kind: 'supplier', problem: 'unreachable', detail: expect.stringContaining('Cloudflare') }));
    expect(e.alerts.some((a) => a.kind === 'supplier' && a.problem === 'session_expired')).toBe(false);
  });

  it('429: no call to Fragment before its Retry-After, no alert; the accepted order is paid afterwards', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    e.fragment.mode = 'rate_limited';
    e.fragment.retryAfter = 40;
    await e.advance(0);
    const calls = e.fragment.calls.length;
    e.fragment.mode = 'ok';
    await e.advance(20);
    expect(e.fragment.calls.length).toBe(calls); // still inside the pause: nothing asked
    expect((await order(e, p, r.body.order_id)).status).toBe('processing');
    await e.advance(25);
    await e.advance(5);
    expect(e.fragment.calls.length).toBeGreaterThan(calls);
    expect((await order(e, p, r.body.order_id)).status).toBe('completed');
    expect(e.ton.received).toHaveLength(1);
    expect(e.alerts.filter((a) => a.kind === 'supplier')).toEqual([]);
  });

  it('429 without Retry-After: a doubling backoff from 5 s', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    e.fragment.mode = 'rate_limited';
    e.fragment.retryAfter = null;
    await e.advance(0);
    const calls = e.fragment.calls.length;
    await e.advance(3);
    expect(e.fragment.calls.length).toBe(calls);
    e.fragment.mode = 'ok';
    await e.advance(3);
    await e.advance(5);
    expect((await order(e, p, r.body.order_id)).status).toBe('completed');
  });

  it("a payment whose comment names another quantity, or carries no Ref#, is refused unsigned: failed, refunded, an alert", async () => {
    const e = await start();
    const p = await e.t.newPartner();
    for (const comment of ['500 Telegram Stars \n\nRef#Zx81Kq', '100 Telegram Stars']) {
      e.fragment.linkOverride = (tx) => ({ ...tx, messages: tx.messages.map((m) => ({ ...m, payload: fragmentPayload(comment) })) });
      const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
      await e.advance(0);
      expect(await order(e, p, r.body.order_id)).toMatchObject({ status: 'failed', refunded: true });
      expect(getPayment(e.t.db, r.body.order_id)).toBeUndefined();
    }
    expect(e.ton.received).toHaveLength(0);
    expect(e.alerts.filter((a) => a.kind === 'supplier' && a.problem === 'payment_refused')).toHaveLength(2);
    expect((await e.t.admin('GET', '/ledger/check')).body.ok).toBe(true);
  });

  it('a reference already paid for another order is never paid again', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const first = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    await e.advance(0);
    await e.advance(5);
    expect((await order(e, p, first.body.order_id)).status).toBe('completed');
    const ref = getPayment(e.t.db, first.body.order_id)!.ref!;
    e.fragment.linkOverride = (tx) => ({ ...tx, messages: tx.messages.map((m) => ({ ...m, payload: fragmentPayload(`100 Telegram Stars \n\nRef#${ref}`) })) });
    const second = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
    await e.advance(0);
    expect(await order(e, p, second.body.order_id)).toMatchObject({ status: 'failed', refunded: true });
    expect(e.ton.received).toHaveLength(1);
  });

  it('the comment check reads Premium terms and every message', () => {
    const tx = (comments: string[]) => ({ validUntil: 0, messages: comments.map((c) => ({ address: 'x', amount: '1', payload: fragmentPayload(c) })) });
    expect(checkComment(tx(['Telegram Premium for 6 months \n\nRef#Ab1']), { product: 'premium', quantity: 6 })).toEqual({ ok: true, ref: 'Ab1' });
    expect(checkComment(tx(['Telegram Premium for 3 months \n\nRef#Ab1']), { product: 'premium', quantity: 6 }).ok).toBe(false);
    expect(checkComment(tx(['50 Telegram Stars \n\nRef#Ab1', '50 Telegram Stars \n\nRef#Cd2']), { product: 'stars', quantity: 50 }).ok).toBe(false);
  });

  it('a payment Fragment bounced (the TON came back) is not delivered: manual review, an alert, no refund', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.ton.fragmentBounces = true;
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    await e.advance(0);
    await e.advance(5);
    expect(await order(e, p, r.body.order_id)).toMatchObject({ status: 'failed', refunded: false });
    expect(getPayment(e.t.db, r.body.order_id)).toMatchObject({ state: 'review', detail: expect.stringContaining('bounced') });
    expect(e.alerts).toContainEqual(expect.objectContaining({ kind: 'supplier', problem: 'payment_bounced' }));
    expect((await e.t.admin('GET', '/reviews')).body.items.map((x: any) => x.order_id)).toContain(r.body.order_id);
  });
});

describe('STARS_MIN_PER_ORDER with UPSTREAM=fragment', () => {
  it("may not be set below Fragment's 50", async () => {
    const env = fragmentEnvFor({ url: 'http://127.0.0.1:9' } as FakeFragment, { url: 'http://127.0.0.1:9' } as FakeToncenter, 'http://127.0.0.1:9/rate', await newMnemonic(), { STARS_MIN_PER_ORDER: '10' });
    let lines: string[] = [];
    try {
      loadConfig(env);
    } catch (e) {
      lines = (e as ConfigError).lines;
    }
    expect(lines).toEqual(["invalid configuration: STARS_MIN_PER_ORDER: must be at least 50 with UPSTREAM=fragment (Fragment's minimum)"]);
    expect(() => loadConfig({ ...env, STARS_MIN_PER_ORDER: '50' })).not.toThrow();
  });
});
