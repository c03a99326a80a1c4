import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayedBody } from '../../src/app/orders/idempotency.js';
import { codeOf, settleOrder, toRes, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

let t: TestService;
beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000' });
});
afterAll(() => stopService(t));

const balance = async (p: TestPartner) => (await p.call('GET', '/me')).body.balances as { USD: string; TON: string };
const ledgerOf = async (p: TestPartner) => (await t.admin('GET', `/partners/${p.id}/ledger?limit=500`)).body.items as any[];
const check = async () => (await t.admin('GET', '/ledger/check')).body;
const orderCount = async (p: TestPartner) => (await p.call('GET', '/orders?limit=200')).body.items.length as number;

describe('when a partner orders Stars', () => {
  it('then the price is debited at once, the order object matches the contract, and it completes', async () => {
    const p = await t.newPartner({ usd: '50.00' });
    const prices = (await p.call('GET', '/products')).body;
    expect(prices.stars.price_per_1000).toBe('15.75');
    const r = await p.order('stars', { quantity: 100, recipient: '@Star_Buyer' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      order_id: expect.stringMatching(/^PA-\d+$/),
      type: 'stars',
      status: 'processing',
      partner_price: '1.58',
      currency: 'USD',
      retail: null,
      quantity: 100,
      recipient: '@Star_Buyer',
      label: '100 звёзд Telegram для @star_buyer',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/),
      completed_at: null,
      refunded: false,
      client_reference: null,
    });
    expect(await balance(p)).toEqual({ USD: '48.42', TON: '1000.000' });
    // the order answers are JSON, whether made afresh or spliced from cached texts
    const read = await p.call('GET', `/orders/${r.body.order_id}`);
    const list = await p.call('GET', '/orders');
    for (const res of [r, read, list]) expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.body).toEqual(r.body);
    expect(list.body).toEqual({ items: [r.body], count: 1, next_cursor: null });
    const done = await settleOrder(t, p, r.body.order_id);
    expect(done.status).toBe('completed');
    expect(done.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    expect(done.refunded).toBe(false);
    const entries = await ledgerOf(p);
    expect(entries.filter((e) => e.order_id === r.body.order_id).map((e) => [e.kind, e.amount, e.balance_after])).toEqual([['order_debit', '-1.58', '48.42']]);
    expect(await check()).toEqual({ ok: true, problems: [] });
  });

  it('then GET /me follows every movement at once, though it is served from memory between movements', async () => {
    const p = await t.newPartner({ usd: '20.00' });
    expect((await balance(p)).USD).toBe('20.00');
    expect((await balance(p)).USD).toBe('20.00'); // the second read is the cached one
    const r = await p.order('stars', { quantity: 1000, recipient: 'failstars_carol' });
    expect((await balance(p)).USD).toBe('4.25');
    const top = await t.admin('POST', `/partners/${p.id}/topups`, { currency: 'USD', amount: '5.00', network: 'ton', tx_hash: `me-cache-${p.id}` });
    expect(top.status).toBe(201);
    expect((await balance(p)).USD).toBe('9.25');
    await settleOrder(t, p, r.body.order_id);
    expect((await balance(p)).USD).toBe('25.00');
  });

  it('then its first delivery call is scheduled for when the sandbox supplier can first answer, not before', async () => {
    const p = await t.newPartner({ usd: '20.00' });
    const r = await p.order('stars', { quantity: 100, recipient: 'first_call' }, 'first-call-key');
    const job = t.db.$client.prepare("select run_at, created_at, attempts from jobs where kind = 'order.process' and ref = ?").get(r.body.order_id) as any;
    expect(job.run_at - job.created_at).toBe(3000);
    // read twice while processing (the second read is served from memory), then the change shows at once
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('processing');
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('processing');
    expect((await p.order('stars', { quantity: 100, recipient: 'first_call' }, 'first-call-key')).body.status).toBe('processing');
    await t.advance(3);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('completed');
    expect((await p.order('stars', { quantity: 100, recipient: 'first_call' }, 'first-call-key')).body).toMatchObject({ order_id: r.body.order_id, status: 'completed' });
    expect(t.db.$client.prepare('select count(*) n from jobs where ref = ?').get(r.body.order_id)).toEqual({ n: 0 });
  });

  it('then a failed delivery is refunded automatically with refunded: true', async () => {
    const p = await t.newPartner({ usd: '20.00' });
    const r = await p.order('stars', { quantity: 1000, recipient: 'failstars_bob' });
    expect(r.status).toBe(200);
    expect((await balance(p)).USD).toBe('4.25');
    const done = await settleOrder(t, p, r.body.order_id);
    expect(done).toMatchObject({ status: 'failed', refunded: true });
    expect((await balance(p)).USD).toBe('20.00');
    const events = t.db.$client.prepare('select event, body from events where order_id = ? order by event_id').all(r.body.order_id) as any[];
    expect(events.map((e) => e.event).sort()).toEqual(['order.failed', 'order.refunded']);
    const refunded = JSON.parse(events.find((e) => e.event === 'order.refunded').body);
    expect(refunded.data).toEqual({ order_id: r.body.order_id, refund_amount: 15.75, reason: 'stars_failed', currency: 'USD', client_reference: null });
    expect(await check()).toEqual({ ok: true, problems: [] });
  });

  it('then "transfer sent, not confirmed" reads failed with refunded false, sends nothing, and waits for review', async () => {
    const p = await t.newPartner({ usd: '20.00' });
    const r = await p.order('stars', { quantity: 100, recipient: 'unconfirmed_amy' });
    const o = await settleOrder(t, p, r.body.order_id);
    expect(o).toMatchObject({ status: 'failed', refunded: false });
    expect((await balance(p)).USD).toBe('18.42');
    expect(t.db.$client.prepare('select count(*) n from events where order_id = ?').get(r.body.order_id)).toEqual({ n: 0 });
    const reviews = (await t.admin('GET', '/reviews')).body.items;
    expect(reviews.map((x: any) => x.order_id)).toContain(r.body.order_id);
    const view = await t.admin('GET', `/orders/${r.body.order_id}`);
    expect(view.body.review).toEqual({ stage: 'delivery_unconfirmed', since: expect.any(String) });
    expect(view.body.partner_id).toBe(p.id);
    const resolved = await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'delivered' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'completed', refunded: false, review: null });
    const again = await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'refunded' });
    expect(again.status).toBe(409);
    expect(codeOf(again)).toBe('not_in_review');
    expect(t.db.$client.prepare('select event from events where order_id = ?').all(r.body.order_id)).toEqual([{ event: 'order.completed' }]);
  });

  it('then a review that ends in a refund returns the money once', async () => {
    const p = await t.newPartner({ usd: '20.00' });
    const r = await p.order('stars', { quantity: 100, recipient: 'unconfirmed_ben' });
    await settleOrder(t, p, r.body.order_id);
    const resolved = await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'refunded' });
    expect(resolved.body).toMatchObject({ status: 'failed', refunded: true });
    expect((await balance(p)).USD).toBe('20.00');
    expect((await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'refunded' })).status).toBe(409);
    expect((await balance(p)).USD).toBe('20.00');
    expect(await check()).toEqual({ ok: true, problems: [] });
  });
});

describe('when order creation is refused', () => {
  let p: TestPartner;
  beforeAll(async () => {
    p = await t.newPartner({ usd: '10.00' });
  });

  it.each([
    [{ type: 'stars', params: { quantity: 100, recipient: 'abcde' } }, 400, 'idempotency_required', 'nested'],
    [{ type: 'gems', idempotency_key: 'x1', params: {} }, 400, 'bad_type', 'nested'],
    [{ type: 'stars', idempotency_key: 'x2', params: { quantity: 49, recipient: 'abcde' } }, 400, 'bad_quantity', 'flat'],
    [{ type: 'stars', idempotency_key: 'x3', params: { quantity: 50001, recipient: 'abcde' } }, 400, 'bad_quantity', 'flat'],
    [{ type: 'stars', idempotency_key: 'x4', params: { quantity: 100.5, recipient: 'abcde' } }, 400, 'bad_quantity', 'flat'],
    [{ type: 'stars', idempotency_key: 'x5', params: { quantity: '100', recipient: 'abcde' } }, 400, 'bad_quantity', 'flat'],
    [{ type: 'premium', idempotency_key: 'x6', params: { months: 4, recipient: 'abcde' } }, 400, 'bad_months', 'flat'],
    [{ type: 'stars', idempotency_key: 'x7', params: { quantity: 100 } }, 400, 'recipient_required', 'flat'],
    [{ type: 'stars', idempotency_key: 'x8', params: { quantity: 100, recipient: '  ' } }, 400, 'recipient_required', 'flat'],
    [{ type: 'stars', idempotency_key: 'x9', params: { quantity: 100, recipient: 'ghost_nobody' } }, 400, 'recipient_not_found', 'flat'],
    [{ type: 'stars', idempotency_key: 'x10', params: { quantity: 100, recipient: 'a' } }, 400, 'recipient_not_found', 'flat'],
    [{ type: 'stars', idempotency_key: 'x11', params: { quantity: 100, recipient: 'abcde' }, webhook_url: 'http://10.0.0.1/h' }, 400, 'bad_webhook_url', 'flat'],
  ])('%j → %i %s (%s)', async (body, status, code, format) => {
    const before = await balance(p);
    const r = await p.call('POST', '/orders', body);
    expect(r.status).toBe(status);
    expect(codeOf(r)).toBe(code);
    if (format === 'nested') expect(r.body.detail).toEqual(expect.objectContaining({ code, detail: expect.any(String) }));
    else expect(r.body).toEqual(expect.objectContaining({ code, detail: expect.any(String) }));
    expect(await balance(p)).toEqual(before);
    expect(await orderCount(p)).toBe(0);
  });

  it('then a malformed JSON body is a nested 400 and never a 5xx', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/partner/v1/orders', headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' }, payload: '{"type":' });
    expect(r.statusCode).toBe(400);
    expect(JSON.parse(r.body).detail.code).toBe('bad_json');
  });

  it('then a number JSON parses as Infinity is a 400 bad_request, never a 5xx, and no order', async () => {
    const before = await balance(p);
    for (const payload of [
      '{"type":"stars","idempotency_key":"inf-1","params":{"quantity":1e400,"recipient":"x"}}',
      '{"type":"stars","idempotency_key":"inf-2","params":{"quantity":100,"recipient":"x","note":[-1e999]}}',
    ]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/partner/v1/orders', headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' }, payload });
      expect(r.statusCode).toBe(400);
      expect(codeOf(toRes(r))).toBe('bad_request');
    }
    expect(await balance(p)).toEqual(before);
    expect(await orderCount(p)).toBe(0);
  });

  it('then a body that differs from a replayed one only by Infinity for null is still a 400, never a replay or an order', async () => {
    const q = await t.newPartner({ usd: '20.00' });
    const send = (key: string, note: string) =>
      t.app.inject({ method: 'POST', url: '/api/partner/v1/orders', headers: { authorization: `Bearer ${q.key}`, 'content-type': 'application/json' }, payload: `{"type":"stars","idempotency_key":"${key}","params":{"quantity":100,"recipient":"inf_null","note":${note}}}` });
    expect((await send('inf-null-1', 'null')).statusCode).toBe(200);
    expect((await send('inf-null-1', 'null')).statusCode).toBe(200); // a replay
    const before = await balance(q);
    for (const key of ['inf-null-1', 'inf-null-2']) {
      const r = await send(key, '1e400');
      expect(r.statusCode).toBe(400);
      expect(codeOf(toRes(r))).toBe('bad_request');
    }
    expect(await balance(q)).toEqual(before);
    expect(await orderCount(q)).toBe(1);
  });

  it('then a body replayed by one partner, sent by another, is the other partner\'s own new order (keys are per partner)', async () => {
    const a = await t.newPartner({ usd: '20.00' });
    const b = await t.newPartner({ usd: '20.00' });
    const payload = '{"type":"stars","idempotency_key":"shared-1","params":{"quantity":100,"recipient":"shared_body"}}';
    const send = (key: string) => t.app.inject({ method: 'POST', url: '/api/partner/v1/orders', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload });
    const first = JSON.parse((await send(a.key)).body);
    for (let i = 0; i < 2; i++) expect(JSON.parse((await send(a.key)).body).order_id).toBe(first.order_id); // replays, remembered
    const bBefore = await balance(b);
    const other = await send(b.key);
    expect(other.statusCode).toBe(200);
    expect(JSON.parse(other.body).order_id).not.toBe(first.order_id);
    expect(await orderCount(b)).toBe(1);
    expect(await orderCount(a)).toBe(1);
    expect(await balance(b)).not.toEqual(bBefore);
    // and the other partner's same key with other parameters is still a reuse
    const reuse = await b.call('POST', '/orders', { type: 'stars', idempotency_key: 'shared-1', params: { quantity: 101, recipient: 'shared_body' } });
    expect(reuse.status).toBe(409);
    expect(codeOf(reuse)).toBe('idempotency_key_reuse');
  });

  it('then a replayed text is parsed once: later retries of the same text get its remembered body, deeply frozen, and the same order', async () => {
    const a = await t.newPartner({ usd: '20.00' });
    const payload = '{"type":"stars","idempotency_key":"text-1","params":{"quantity":100,"recipient":"text_body","meta":{"n":[1,{"x":null}]}}}';
    const send = (text: string) => t.app.inject({ method: 'POST', url: '/api/partner/v1/orders', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, payload: text });
    const first = JSON.parse((await send(payload)).body);
    // a first request is not remembered: only a replay is
    expect(replayedBody(payload)).toBeUndefined();
    expect(JSON.parse((await send(payload)).body).order_id).toBe(first.order_id);
    const remembered = replayedBody(payload) as any;
    expect(remembered).toEqual(JSON.parse(payload));
    expect([Object.isFrozen(remembered), Object.isFrozen(remembered.params), Object.isFrozen(remembered.params.meta.n[1])]).toEqual([true, true, true]);
    for (let i = 0; i < 2; i++) {
      const r = await send(payload);
      expect(r.statusCode).toBe(200);
      expect(JSON.parse(r.body)).toEqual(first);
    }
    // the same request in other text (spacing) is another text: parsed, and the same order all the same
    const spaced = payload.replace(/,/g, ', ');
    expect(replayedBody(spaced)).toBeUndefined();
    expect(JSON.parse((await send(spaced)).body).order_id).toBe(first.order_id);
    // a remembered text is still judged per request: with a key bound to other parameters it is a reuse
    const other = '{"type":"stars","idempotency_key":"text-1","params":{"quantity":101,"recipient":"text_body"}}';
    for (let i = 0; i < 2; i++) {
      const r = await send(other);
      expect([r.statusCode, JSON.parse(r.body).code]).toEqual([409, 'idempotency_key_reuse']);
    }
    expect(await orderCount(a)).toBe(1);
  });

  it('then insufficient balance is 402 with currency and balance, leaves no order and does not claim the key', async () => {
    const poor = await t.newPartner({ usd: '10.00' });
    const r = await poor.order('premium', { months: 12, recipient: 'rich_friend' }, 'poor-1');
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ code: 'insufficient_balance', detail: expect.any(String), currency: 'USD', balance: '10.00' });
    expect(await orderCount(poor)).toBe(0);
    await t.admin('POST', `/partners/${poor.id}/topups`, { currency: 'USD', amount: '50.00', network: 'trc20', tx_hash: 'poor-topup' });
    const retry = await poor.order('premium', { months: 12, recipient: 'rich_friend' }, 'poor-1');
    expect(retry.status).toBe(200);
    expect((await balance(poor)).USD).toBe('29.56');
  });

  it('then ledger_unavailable is 503, nothing is claimed or debited, and the same key works afterwards', async () => {
    const q = await t.newPartner({ usd: '10.00' });
    await t.admin('PUT', '/sandbox/faults', { ledger_unavailable: true });
    const r = await q.order('stars', { quantity: 50, recipient: 'abcde' }, 'led-1');
    await t.admin('PUT', '/sandbox/faults', { ledger_unavailable: false });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ code: 'ledger_unavailable', detail: expect.any(String) });
    expect((await balance(q)).USD).toBe('10.00');
    const ok = await q.order('stars', { quantity: 50, recipient: 'abcde' }, 'led-1');
    expect(ok.status).toBe(200);
  });

  it('then a resolver failure is 502 resolver_error and the key stays free', async () => {
    const q = await t.newPartner({ usd: '10.00' });
    await t.admin('PUT', '/sandbox/faults', { resolver_error: true });
    const r = await q.order('stars', { quantity: 50, recipient: 'abcde' }, 'res-1');
    await t.admin('PUT', '/sandbox/faults', { resolver_error: false });
    expect(r.status).toBe(502);
    expect(codeOf(r)).toBe('resolver_error');
    expect((await q.order('stars', { quantity: 50, recipient: 'abcde' }, 'res-1')).status).toBe(200);
  });

  it('then a supplier outage is 503 product_unavailable upstream_unavailable with Retry-After', async () => {
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { stars: true } });
    const r = await p.order('stars', { quantity: 50, recipient: 'abcde' });
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { stars: false } });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.body.retry_after).toBe(Number(r.headers['retry-after']));
  });

  it('then a disabled product is 503 product_disabled', async () => {
    await t.admin('PUT', '/settings', { products: { premium: { enabled: false } } });
    const r = await p.order('premium', { months: 3, recipient: 'abcde' });
    await t.admin('PUT', '/settings', { products: { premium: { enabled: true } } });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'product_unavailable', reason: 'product_disabled' });
  });
});

describe('when the same idempotency key is used again', () => {
  it('then the same params return the same order with one debit, and other params give 409', async () => {
    const p = await t.newPartner({ usd: '20.00' });
    const a = await p.order('stars', { quantity: 50, recipient: 'same_key' }, 'idem-1');
    const b = await p.order('stars', { quantity: 50, recipient: 'same_key' }, 'idem-1');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const c = await p.order('stars', { quantity: 60, recipient: 'same_key' }, 'idem-1');
    expect(c.status).toBe(409);
    expect(c.body).toEqual({ code: 'idempotency_key_reuse', detail: expect.any(String) });
    expect((await balance(p)).USD).toBe('19.21');
    // keys are per partner: another partner's same key is a new order
    const q = await t.newPartner({ usd: '20.00' });
    const d = await q.order('stars', { quantity: 50, recipient: 'same_key' }, 'idem-1');
    expect(d.body.order_id).not.toBe(a.body.order_id);
  });

  it('then parallel requests with one key give one order and one debit', async () => {
    const p = await t.newPartner({ usd: '20.00' });
    const rs = await Promise.all(Array.from({ length: 12 }, () => p.order('stars', { quantity: 50, recipient: 'parallel_user' }, 'par-1')));
    const ok = rs.filter((r) => r.status === 200);
    const busy = rs.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(12);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.order_id)).size).toBe(1);
    for (const r of busy) expect(codeOf(r)).toBe('order_in_progress');
    expect(await orderCount(p)).toBe(1);
    expect((await balance(p)).USD).toBe('19.21');
  });

  it('then 30 concurrent orders against a balance for 10 give exactly 10 orders and a zero balance', async () => {
    // 1000 stars cost 15.75: the balance covers exactly 10 orders.
    const q = await t.newPartner({ usd: '157.50' });
    const rs = await Promise.all(Array.from({ length: 30 }, () => q.order('stars', { quantity: 1000, recipient: 'burst_user' })));
    const ok = rs.filter((r) => r.status === 200);
    expect(ok.length).toBe(10);
    for (const r of rs.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(402);
      expect(codeOf(r)).toBe('insufficient_balance');
    }
    expect((await balance(q)).USD).toBe('0.00');
    expect(await orderCount(q)).toBe(10);
    expect(await check()).toEqual({ ok: true, problems: [] });
  });
});

describe('when Premium is ordered', () => {
  it('then a normal account gets it, and a failure refunds with premium_canceled', async () => {
    const p = await t.newPartner({ usd: '50.00' });
    const r = await p.order('premium', { months: 3, recipient: 'plain_user' });
    expect(r.body).toMatchObject({ type: 'premium', quantity: 3, partner_price: '12.59', label: 'Telegram Premium на 3 месяца для @plain_user' });
    expect((await settleOrder(t, p, r.body.order_id)).status).toBe('completed');
    const f = await p.order('premium', { months: 6, recipient: 'failpremium_zoe' });
    expect(await settleOrder(t, p, f.body.order_id)).toMatchObject({ status: 'failed', refunded: true });
    const ev = t.db.$client.prepare("select body from events where order_id = ? and event = 'order.refunded'").get(f.body.order_id) as any;
    expect(JSON.parse(ev.body).data.reason).toBe('premium_canceled');
    expect((await balance(p)).USD).toBe('37.41');
  });

  it('then an active subscription defers the order, blocks a second one, and it is delivered when the subscription ends', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const v = await p.call('POST', '/validate/recipient', { type: 'premium', username: '@premium_kate' });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ ok: true, already_premium: true, username: 'premium_kate', name: 'Premium Kate' });
    const r = await p.order('premium', { months: 12, recipient: '@premium_kate' });
    expect(r.status).toBe(200);
    expect((await balance(p)).USD).toBe('69.56');
    await t.advance(60);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('processing');
    const second = await p.order('premium', { months: 3, recipient: 'PREMIUM_KATE' });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ code: 'deferred_order_exists', detail: expect.any(String) });
    const other = await t.newPartner({ usd: '100.00' });
    expect(codeOf(await other.order('premium', { months: 3, recipient: 'premium_kate' }))).toBe('deferred_order_exists');
    await t.advance(10 * 86_400);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('processing');
    await t.advance(21 * 86_400);
    const done = (await p.call('GET', `/orders/${r.body.order_id}`)).body;
    expect(done.status).toBe('completed');
    expect((await balance(p)).USD).toBe('69.56');
  });

  it('then an order not delivered within 365 days is refunded automatically', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const until = new Date(Date.parse((await t.admin('GET', '/sandbox/clock')).body.now) + 800 * 86_400_000).toISOString();
    await t.admin('PUT', '/sandbox/accounts/premium_forever', { premium_until: until });
    const r = await p.order('premium', { months: 3, recipient: 'premium_forever' });
    await t.advance(364 * 86_400);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'processing', refunded: false });
    await t.advance(2 * 86_400);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'failed', refunded: true });
    expect((await balance(p)).USD).toBe('100.00');
    const ev = t.db.$client.prepare("select body from events where order_id = ? and event = 'order.refunded'").get(r.body.order_id) as any;
    expect(JSON.parse(ev.body).data).toEqual({ order_id: r.body.order_id, refund_amount: 12.59, reason: 'premium_canceled', currency: 'USD', client_reference: null });
    expect(await check()).toEqual({ ok: true, problems: [] });
  });

  it('then support can cancel a waiting order, and nothing else', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const r = await p.order('premium', { months: 3, recipient: 'premium_tom' });
    await t.advance(10);
    const c = await t.admin('POST', `/orders/${r.body.order_id}/cancel`, { note: 'customer asked' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: 'canceled', refunded: true });
    expect((await balance(p)).USD).toBe('100.00');
    const evs = (t.db.$client.prepare('select event from events where order_id = ?').all(r.body.order_id) as any[]).map((e) => e.event).sort();
    expect(evs).toEqual(['order.failed', 'order.refunded']);
    const s = await p.order('stars', { quantity: 50, recipient: 'abcde' });
    const bad = await t.admin('POST', `/orders/${s.body.order_id}/cancel`, {});
    expect(bad.status).toBe(409);
    expect(codeOf(bad)).toBe('not_cancelable');
    // the account is free again
    expect((await p.order('premium', { months: 3, recipient: 'premium_tom' })).status).toBe(200);
  });
});

describe('when orders are read', () => {
  it('then GET /orders pages newest first with filters, and foreign orders are not found', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await p.order('stars', { quantity: 50, recipient: 'reader_one' })).body.order_id);
    ids.push((await p.order('premium', { months: 3, recipient: 'reader_two' })).body.order_id);
    const first = await p.call('GET', '/orders?limit=4');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(4);
    expect(first.body.items.map((o: any) => o.order_id)).toEqual(ids.slice().reverse().slice(0, 4));
    const second = await p.call('GET', `/orders?limit=4&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((o: any) => o.order_id)).toEqual(ids.slice().reverse().slice(4));
    expect(second.body.next_cursor).toBeNull();
    expect((await p.call('GET', '/orders?type=premium')).body.items.map((o: any) => o.order_id)).toEqual([ids[5]]);
    expect((await p.call('GET', '/orders?status=completed')).body.items).toEqual([]);
    const now = (await t.admin('GET', '/sandbox/clock')).body.now as string;
    expect((await p.call('GET', `/orders?from=${encodeURIComponent(now)}`)).body.count).toBe(6);
    expect((await p.call('GET', '/orders?to=2000-01-01')).body.count).toBe(0);
    for (const [q, code] of [['status=done', 'bad_status'], ['type=gems', 'bad_type'], ['from=yesterday', 'bad_time'], ['limit=0', 'bad_limit'], ['limit=201', 'bad_limit'], ['cursor=zzz', 'bad_cursor'], ['color=red', 'bad_param']]) {
      const r = await p.call('GET', `/orders?${q}`);
      expect(r.status, q).toBe(400);
      expect(codeOf(r), q).toBe(code);
    }
    const other = await t.newPartner({ usd: '10.00' });
    const foreign = await other.call('GET', `/orders/${ids[0]}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'not_found', detail: expect.any(String) });
    expect((await other.call('GET', '/orders')).body.items).toEqual([]);
    expect((await p.call('GET', '/orders/PA-999999999')).status).toBe(404);
  });

  it('then the validate endpoints answer as documented', async () => {
    const p = await t.newPartner({ usd: '10.00' });
    const ok = await p.call('POST', '/validate/recipient', { type: 'stars', username: 'Nice_Name' });
    expect(ok.body).toEqual({ ok: true, type: 'stars', username: 'nice_name', name: 'Nice Name' });
    const ghost = await p.call('POST', '/validate/recipient', { type: 'stars', username: 'ghost_x1' });
    expect(ghost.status).toBe(400);
    expect(codeOf(ghost)).toBe('recipient_not_found');
    expect(codeOf(await p.call('POST', '/validate/recipient', { type: 'x', username: 'abcde' }))).toBe('bad_type');
    const game = await p.call('POST', '/validate/game', { username: 'gamer_one' });
    expect(game.body).toMatchObject({ ok: true, found: true });
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { stars: true } });
    const down = await p.call('POST', '/validate/game', { username: 'gamer_one' });
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { stars: false } });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
  });
});
