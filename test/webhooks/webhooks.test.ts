/**
 * Issue "Webhooks" through HTTP with a real receiver (partner-api.md "Events"; operator-api.md
 * PUT /partners/{id}/webhook, GET /webhook-deliveries): configuration and secrets, the rule that events
 * from a period without address or secret are never delivered, headers, signatures and the exact body
 * bytes, the emission rules for failed and reviewed orders, the per-order `webhook_url`, and the partner
 * verification code of examples/: test/integrator/signature-samples.test.ts.
 *
 * Retries, alerts and crashes: test/webhooks/retries.test.ts. Address policy and DNS: test/webhooks/addresses.test.ts.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Received, type Res, type TestPartner, type TestService, perTest, hdr } from '../helpers.js';

const { service, receiver } = perTest();

const hmacHex = (secret: string, ...parts: (string | Buffer)[]) => {
  const h = crypto.createHmac('sha256', secret);
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

function bodyOf(r: Received): any {
  return JSON.parse(r.raw.toString('utf8'));
}

function forOrder(reqs: Received[], orderId: string): Received[] {
  return reqs.filter((q) => bodyOf(q).order_id === orderId);
}

/** Both signatures of a received webhook, checked with `secret`. */
function signedWith(r: Received, secret: string): { v1: boolean; v2: boolean } {
  const ts = hdr(r, 'x-timestamp') ?? '';
  return {
    v1: hdr(r, 'x-signature') === hmacHex(secret, r.raw),
    v2: hdr(r, 'x-signature-v2') === hmacHex(secret, Buffer.from(`${ts}.`, 'utf8'), r.raw),
  };
}

/**
 * Reference serialiser: the layout of Python's `json.dumps(obj, ensure_ascii=False)` (", " and ": "
 * separators, non-ASCII characters as they are, only '"', '\\' and control characters escaped).
 * Written independently of the service's serialiser.
 */
function pyDumps(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return pyString(v);
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyString(k)}: ${pyDumps(x)}`)
      .join(', ')}}`;
  }
  throw new Error(`unexpected ${typeof v}`);
}

function pyString(s: string): string {
  const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
  let out = '"';
  for (const ch of s) {
    if (named[ch]) out += named[ch];
    else if (ch.charCodeAt(0) < 0x20) out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

async function deliveries(t: TestService, orderId: string): Promise<any[]> {
  const r = await t.admin('GET', `/webhook-deliveries?order_id=${encodeURIComponent(orderId)}`);
  expect(r.status).toBe(200);
  return r.body.items;
}

async function clockUnix(t: TestService): Promise<number> {
  const c = await t.admin('GET', '/sandbox/clock');
  expect(c.status).toBe(200);
  return Math.floor(Date.parse(c.body.now) / 1000);
}

async function orderOk(p: TestPartner, type: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<any> {
  const o: Res = await p.order(type, params, undefined, extra);
  expect(o.status, o.raw).toBe(200);
  return o.body;
}

function withoutRetail(order: Record<string, unknown>): Record<string, unknown> {
  const { retail, ...rest } = order;
  expect(retail).toBeNull();
  return rest;
}

// ------------------------------------------------------------------------------------------------
// Configuration
// ------------------------------------------------------------------------------------------------

describe('webhook configuration (PUT /partners/{id}/webhook)', () => {
  it('first save shows the secret once; a plain re-save shows none; regenerate issues a new one that signs the very next attempt (a retry), and the old one stops verifying', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner();

    const first = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url });
    expect(first.status, first.raw).toBe(200);
    expect(first.body.url).toBe(r.url);
    expect(typeof first.body.secret).toBe('string');
    expect(first.body.secret.length).toBeGreaterThanOrEqual(32);
    const oldSecret: string = first.body.secret;

    const again = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url });
    expect(again.status, again.raw).toBe(200);
    expect(again.body).toEqual({ url: r.url, events: ['order.completed', 'order.failed', 'order.refunded'] });
    expect('secret' in again.body).toBe(false);
    const noRegen = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, regenerate_secret: false });
    expect(noRegen.status).toBe(200);
    expect('secret' in noRegen.body).toBe(false);

    const view = await t.admin('GET', `/partners/${p.id}`);
    expect(view.body.webhook).toEqual({ url: r.url, has_secret: true, events: ['order.completed', 'order.failed', 'order.refunded'] });

    // A webhook whose first attempt fails, signed with the old secret.
    r.script.push(500);
    const order = await orderOk(p, 'stars', { quantity: 100, recipient: '@regen_user' });
    await t.advance(5);
    expect(r.requests).toHaveLength(1);
    expect(signedWith(r.requests[0], oldSecret)).toEqual({ v1: true, v2: true });

    const regen = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, regenerate_secret: true });
    expect(regen.status, regen.raw).toBe(200);
    expect(regen.body.url).toBe(r.url);
    const newSecret: string = regen.body.secret;
    expect(typeof newSecret).toBe('string');
    expect(newSecret).not.toBe(oldSecret);

    // The retry of the earlier webhook comes with the new secret only.
    await t.advance(60);
    expect(r.requests).toHaveLength(2);
    const retry = r.requests[1];
    expect(bodyOf(retry).order_id).toBe(order.order_id);
    expect(hdr(retry, 'x-webhook-id')).toBe(hdr(r.requests[0], 'x-webhook-id'));
    expect(hdr(retry, 'x-webhook-attempt')).toBe('2');
    expect(signedWith(retry, newSecret)).toEqual({ v1: true, v2: true });
    expect(signedWith(retry, oldSecret)).toEqual({ v1: false, v2: false });

    // The secret is not stored in plain text, and never reaches the audit log.
    const stored = t.db.$client.prepare('select webhook_secret_enc from partners').all() as { webhook_secret_enc: string | null }[];
    const storedText = JSON.stringify(stored);
    expect(stored.some((s) => s.webhook_secret_enc !== null)).toBe(true);
    for (const s of [oldSecret, newSecret]) {
      expect(storedText).not.toContain(s);
      expect(storedText).not.toContain(s.replace(/^whsec_/, ''));
    }
    const auditRows = t.db.$client.prepare('select * from audit_log').all();
    expect(auditRows.length).toBeGreaterThan(0);
    const auditText = JSON.stringify(auditRows);
    for (const s of [oldSecret, newSecret]) {
      expect(auditText).not.toContain(s);
      expect(auditText).not.toContain(s.replace(/^whsec_/, ''));
    }
  });

  it('url "" is allowed (and still creates the secret); a bad url is 400 bad_webhook_url with a reason, flat format, nothing saved', async () => {
    const t = await service();
    const p = await t.newPartner();

    const empty = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: '' });
    expect(empty.status, empty.raw).toBe(200);
    expect(empty.body.url).toBe('');
    expect(typeof empty.body.secret).toBe('string');
    expect((await t.admin('GET', `/partners/${p.id}`)).body.webhook).toEqual({ url: '', has_secret: true, events: ['order.completed', 'order.failed', 'order.refunded'] });

    for (const [url, reason] of [
      ['ftp://hooks.partner-shop.com/h', 'bad_scheme'],
      ['http://10.0.0.1/h', 'private_host'],
      ['http://localhost/h', 'private_host'],
      ['http://user:pw@hooks.partner-shop.com/h', 'credentials_in_url'],
      ['http://hooks.partner-shop.com:70000/h', 'bad_port'],
      ['not a url', 'bad_url'],
    ] as const) {
      const bad = await t.admin('PUT', `/partners/${p.id}/webhook`, { url });
      expect(bad.status, url).toBe(400);
      expect(bad.body.code, url).toBe('bad_webhook_url');
      expect(bad.body.reason, url).toBe(reason);
      expect(typeof bad.body.detail, url).toBe('string'); // flat: {code, detail, reason}
    }
    expect((await t.admin('GET', `/partners/${p.id}`)).body.webhook).toEqual({ url: '', has_secret: true, events: ['order.completed', 'order.failed', 'order.refunded'] });
  });
});

// ------------------------------------------------------------------------------------------------
// No address or no secret
// ------------------------------------------------------------------------------------------------

describe('until both an address and a secret exist, nothing is sent, and those events are never delivered later', () => {
  it('no webhook block at all: the completion event is lost for good after the block is saved', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner(); // no webhook block

    const order = await orderOk(p, 'stars', { quantity: 100, recipient: '@early_user' });
    await t.advance(5);
    expect((await p.call('GET', `/orders/${order.order_id}`)).body.status).toBe('completed');
    expect(await deliveries(t, order.order_id)).toEqual([]);

    const save = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url });
    expect(save.status).toBe(200);
    expect(typeof save.body.secret).toBe('string');
    await t.advance(3600);
    await t.advance(86_400);
    expect(forOrder(r.requests, order.order_id)).toEqual([]);
    expect(await deliveries(t, order.order_id)).toEqual([]);

    // The receiver works: an order after the save is delivered.
    const later = await orderOk(p, 'stars', { quantity: 100, recipient: '@later_user' });
    await t.advance(5);
    expect(forOrder(r.requests, later.order_id)).toHaveLength(1);
    expect(r.requests).toHaveLength(1);
  });

  it('what counts is the moment of the event: an order made before the block was saved but completing after it is delivered', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner();
    const order = await orderOk(p, 'stars', { quantity: 100, recipient: '@straddle_user' });
    const save = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url });
    expect(save.status).toBe(200);
    await t.advance(5);
    const reqs = forOrder(r.requests, order.order_id);
    expect(reqs).toHaveLength(1);
    expect(signedWith(reqs[0], save.body.secret)).toEqual({ v1: true, v2: true });
  });

  it('a secret but an empty address: nothing is sent, and setting the address later does not bring the event back', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: '' });
    expect(p.secret).toBeTruthy();

    const order = await orderOk(p, 'stars', { quantity: 100, recipient: '@nourl_user' });
    const failing = await orderOk(p, 'stars', { quantity: 100, recipient: '@failstars_nourl' });
    await t.advance(5);
    expect((await p.call('GET', `/orders/${failing.order_id}`)).body).toMatchObject({ status: 'failed', refunded: true });

    const save = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url });
    expect(save.status).toBe(200);
    expect('secret' in save.body).toBe(false);
    await t.advance(86_400);
    expect(r.requests).toEqual([]);
    expect(await deliveries(t, order.order_id)).toEqual([]);
    expect(await deliveries(t, failing.order_id)).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------
// Request, headers, signatures, body bytes
// ------------------------------------------------------------------------------------------------

describe('the request made by the service', () => {
  it('a completed stars order: headers, both signatures, X-Timestamp on the service clock, Python-style UTF-8 body with the order minus retail', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: r.url });
    const secret = p.secret!;

    const order = await orderOk(p, 'stars', { quantity: 123, recipient: '@sig_user' });
    await t.advance(3); // the sandbox completes a stars order 3 s of service clock after it was made
    const now = await clockUnix(t);
    expect(r.requests).toHaveLength(1);
    const q = r.requests[0];
    expect(q.method).toBe('POST');
    expect(q.path).toBe('/hook');

    // headers
    expect(hdr(q, 'content-type')).toMatch(/^application\/json\b/);
    expect(hdr(q, 'x-signature-version')).toBe('2');
    expect(hdr(q, 'x-webhook-event')).toBe('order.completed');
    expect(hdr(q, 'x-webhook-id')).toMatch(/^[0-9a-f]{24}$/);
    expect(hdr(q, 'x-webhook-attempt')).toBe('1');
    const ts = hdr(q, 'x-timestamp')!;
    expect(ts).toMatch(/^\d+$/);
    expect(Number(ts)).toBe(now);

    // signatures: v1 over the raw bytes, v2 over `${X-Timestamp}.${raw}`
    expect(hdr(q, 'x-signature')).toBe(hmacHex(secret, q.raw));
    expect(hdr(q, 'x-signature-v2')).toBe(hmacHex(secret, Buffer.concat([Buffer.from(`${ts}.`), q.raw])));
    expect(hdr(q, 'x-signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(hdr(q, 'x-signature-v2')).toMatch(/^[0-9a-f]{64}$/);

    // body bytes: Python json.dumps(ensure_ascii=False) layout, non-ASCII as raw UTF-8
    const text = q.raw.toString('utf8');
    expect(Buffer.from(text, 'utf8').equals(q.raw)).toBe(true); // valid UTF-8
    const parsed = JSON.parse(text);
    expect(text).toBe(pyDumps(parsed));
    expect(text.startsWith('{"event": "order.completed", "order_id": ')).toBe(true);
    expect(text).not.toMatch(/\\u[0-9a-fA-F]{4}/);
    const label: string = order.label;
    expect(label).toMatch(/[А-Яа-яЁё]/);
    expect(q.raw.includes(Buffer.from(`"label": ${JSON.stringify(label)}`, 'utf8'))).toBe(true);
    expect(q.raw.includes(Buffer.from('звезд', 'utf8'))).toBe(true);

    // {event, order_id, data}; data = the order as GET /orders/{id} shows it, without retail
    expect(Object.keys(parsed)).toEqual(['event', 'order_id', 'data']);
    expect(parsed.event).toBe('order.completed');
    expect(parsed.order_id).toBe(order.order_id);
    const current = (await p.call('GET', `/orders/${order.order_id}`)).body;
    expect(current.status).toBe('completed');
    expect('retail' in parsed.data).toBe(false);
    expect(parsed.data).toEqual(withoutRetail(current));
    expect(Object.keys(parsed.data)).toEqual(Object.keys(current).filter((k) => k !== 'retail'));
    expect(Math.floor(Date.parse(parsed.data.completed_at) / 1000)).toBe(now);

    const items = await deliveries(t, order.order_id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      webhook_id: hdr(q, 'x-webhook-id'),
      event: 'order.completed',
      order_id: order.order_id,
      url: r.url,
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      rejected_reason: null,
      next_attempt_at: null,
    });
  });

  it('a failstars_ order: order.refunded (numeric refund_amount, stars_failed) and order.failed (failed, refunded) both arrive, signed', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: r.url });
    const before = (await p.call('GET', '/me')).body.balance;

    const order = await orderOk(p, 'stars', { quantity: 123, recipient: '@failstars_carl' });
    await t.advance(5);
    const reqs = forOrder(r.requests, order.order_id);
    expect(reqs.map((q) => hdr(q, 'x-webhook-event')).sort()).toEqual(['order.failed', 'order.refunded']);
    for (const q of reqs) {
      expect(signedWith(q, p.secret!)).toEqual({ v1: true, v2: true });
      expect(bodyOf(q).event).toBe(hdr(q, 'x-webhook-event'));
      expect(q.raw.toString('utf8')).toBe(pyDumps(bodyOf(q)));
      expect(hdr(q, 'x-webhook-attempt')).toBe('1');
    }
    expect(hdr(reqs[0], 'x-webhook-id')).not.toBe(hdr(reqs[1], 'x-webhook-id'));

    const refunded = reqs.find((q) => hdr(q, 'x-webhook-event') === 'order.refunded')!;
    // exact bytes: refund_amount is a JSON number (no quotes)
    const amount = Number(order.partner_price);
    expect(refunded.raw.toString('utf8')).toBe(
      `{"event": "order.refunded", "order_id": "${order.order_id}", "data": {"order_id": "${order.order_id}", "refund_amount": ${amount}, "reason": "stars_failed", "currency": "USD", "client_reference": null}}`,
    );
    const rd = bodyOf(refunded).data;
    expect(rd).toEqual({ order_id: order.order_id, refund_amount: amount, reason: 'stars_failed', currency: 'USD', client_reference: null });
    expect(typeof rd.refund_amount).toBe('number');

    const failed = reqs.find((q) => hdr(q, 'x-webhook-event') === 'order.failed')!;
    const fd = bodyOf(failed).data;
    expect(fd).toMatchObject({ order_id: order.order_id, type: 'stars', status: 'failed', refunded: true, partner_price: order.partner_price });
    expect('retail' in fd).toBe(false);
    const current = (await p.call('GET', `/orders/${order.order_id}`)).body;
    expect(fd).toEqual(withoutRetail(current));

    expect((await p.call('GET', '/me')).body.balance).toBe(before);
    const items = await deliveries(t, order.order_id);
    expect(items.map((d) => d.event).sort()).toEqual(['order.failed', 'order.refunded']);
    expect(items.every((d) => d.status === 'delivered')).toBe(true);
  });

  it('an unconfirmed_ order sends nothing while in review; POST /orders/{id}/resolve delivered then sends order.completed (refunded: order.refunded + order.failed)', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: r.url });

    const order = await orderOk(p, 'stars', { quantity: 100, recipient: '@unconfirmed_dan' });
    await t.advance(5);
    expect((await p.call('GET', `/orders/${order.order_id}`)).body).toMatchObject({ status: 'failed', refunded: false });
    await t.advance(3600);
    expect(r.requests).toEqual([]);
    expect(await deliveries(t, order.order_id)).toEqual([]);

    const resolved = await t.admin('POST', `/orders/${order.order_id}/resolve`, { outcome: 'delivered' });
    expect(resolved.status, resolved.raw).toBe(200);
    expect(resolved.body.status).toBe('completed');
    await t.advance(1);
    expect(r.requests).toHaveLength(1);
    const q = r.requests[0];
    expect(hdr(q, 'x-webhook-event')).toBe('order.completed');
    expect(signedWith(q, p.secret!)).toEqual({ v1: true, v2: true });
    const b = bodyOf(q);
    expect(b).toMatchObject({ event: 'order.completed', order_id: order.order_id });
    expect(b.data).toMatchObject({ status: 'completed', refunded: false });
    expect(b.data).toEqual(withoutRetail((await p.call('GET', `/orders/${order.order_id}`)).body));
    expect(await deliveries(t, order.order_id)).toHaveLength(1);

    // A review that ends in a refund sends order.refunded (stars_failed) and order.failed instead.
    const second = await orderOk(p, 'stars', { quantity: 100, recipient: '@unconfirmed_eve' });
    await t.advance(3600);
    expect(forOrder(r.requests, second.order_id)).toEqual([]);
    const refunded = await t.admin('POST', `/orders/${second.order_id}/resolve`, { outcome: 'refunded' });
    expect(refunded.status, refunded.raw).toBe(200);
    await t.advance(1);
    const reqs = forOrder(r.requests, second.order_id);
    expect(reqs.map((x) => hdr(x, 'x-webhook-event')).sort()).toEqual(['order.failed', 'order.refunded']);
    const rd = bodyOf(reqs.find((x) => hdr(x, 'x-webhook-event') === 'order.refunded')!).data;
    expect(rd).toEqual({ order_id: second.order_id, refund_amount: Number(second.partner_price), reason: 'stars_failed', currency: 'USD', client_reference: null });
    const fd = bodyOf(reqs.find((x) => hdr(x, 'x-webhook-event') === 'order.failed')!).data;
    expect(fd).toMatchObject({ status: 'failed', refunded: true });
  });
});

// ------------------------------------------------------------------------------------------------
// Per-order webhook_url
// ------------------------------------------------------------------------------------------------

describe('per-order webhook_url', () => {
  it('goes to the order address, signed with the dashboard secret; needs the dashboard block saved once (an empty URL is enough)', async () => {
    const t = await service();
    const dashboard = await receiver();
    const perOrder = await receiver();
    const perOrderUrl = `http://127.0.0.2:${perOrder.port}/order-hook?x=1`;

    // A: dashboard address set, order overrides it.
    const a = await t.newPartner({ webhookUrl: dashboard.url });
    const oa = await orderOk(a, 'stars', { quantity: 100, recipient: '@override_a' }, { webhook_url: perOrderUrl });
    // B: never saved the block: nothing is sent, even to the order address.
    const b = await t.newPartner();
    const ob = await orderOk(b, 'stars', { quantity: 100, recipient: '@override_b' }, { webhook_url: perOrderUrl });
    // C: saved once with an empty URL: the order address works with C's secret.
    const c = await t.newPartner({ webhookUrl: '' });
    const oc = await orderOk(c, 'stars', { quantity: 100, recipient: '@override_c' }, { webhook_url: perOrderUrl });
    await t.advance(5);

    expect(dashboard.requests).toEqual([]);
    const ra = forOrder(perOrder.requests, oa.order_id);
    expect(ra).toHaveLength(1);
    expect(ra[0].path).toBe('/order-hook?x=1');
    expect(signedWith(ra[0], a.secret!)).toEqual({ v1: true, v2: true });
    expect((await deliveries(t, oa.order_id))[0]).toMatchObject({ url: perOrderUrl, status: 'delivered' });

    expect(forOrder(perOrder.requests, ob.order_id)).toEqual([]);
    expect(await deliveries(t, ob.order_id)).toEqual([]);

    const rc = forOrder(perOrder.requests, oc.order_id);
    expect(rc).toHaveLength(1);
    expect(signedWith(rc[0], c.secret!)).toEqual({ v1: true, v2: true });
    expect(signedWith(rc[0], a.secret!)).toEqual({ v1: false, v2: false });
    expect(perOrder.requests).toHaveLength(2);

    // A later order of A without webhook_url goes to the dashboard address again.
    const oa2 = await orderOk(a, 'stars', { quantity: 100, recipient: '@override_a2' });
    await t.advance(5);
    expect(forOrder(dashboard.requests, oa2.order_id)).toHaveLength(1);
  });
});

