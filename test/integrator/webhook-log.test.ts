/**
 * Issue 15 point 3: a partner's webhook delivery log (GET /webhook-deliveries), redelivery
 * (POST /webhook-deliveries/{id}/redeliver) and the test webhook (POST /webhook/test), with a real HTTP
 * receiver: attempts with HTTP status and duration, newest first, filters and paging like GET /orders,
 * redelivery with the same X-Webhook-Id and the current secret outside the retry schedule.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hdr, perTest, type Received, type TestPartner, type TestService } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service, receiver } = perTest();

const hmacHex = (secret: string, ...parts: (string | Buffer)[]) => {
  const h = crypto.createHmac('sha256', secret);
  for (const p of parts) h.update(p);
  return h.digest('hex');
};
/** Both signatures of a received webhook checked with `secret`. */
const signedWith = (q: Received, secret: string) => ({
  v1: hdr(q, 'x-signature') === hmacHex(secret, q.raw),
  v2: hdr(q, 'x-signature-v2') === hmacHex(secret, Buffer.from(`${hdr(q, 'x-timestamp')}.`, 'utf8'), q.raw),
});
const tsOf = (q: Received) => Number(hdr(q, 'x-timestamp'));
const iso = (unixSec: number) => new Date(unixSec * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');

async function log(p: TestPartner, query = ''): Promise<any> {
  const r = await p.call('GET', `/webhook-deliveries${query}`);
  expect(r.status, r.raw).toBe(200);
  return r.body;
}

async function clockSec(t: TestService): Promise<number> {
  return Date.parse((await t.admin('GET', '/sandbox/clock')).body.now) / 1000;
}

async function operatorDelivery(t: TestService, id: string): Promise<any> {
  const r = await t.admin('GET', '/webhook-deliveries');
  return r.body.items.find((d: any) => d.webhook_id === id);
}

describe('GET /webhook-deliveries', () => {
  it('shows the partner\'s own deliveries newest first, each attempt with its number, time, HTTP status or error and duration', async () => {
    const t = await service();
    const r = await receiver();
    // the first attempt is answered 500 after a real 150 ms, the second 200 after a real 600 ms: each attempt's
    // duration is its own exchange (lower bounds, which a loaded machine cannot break)
    r.script.push({ status: 500, delayMs: 150 }, { status: 200, delayMs: 600 });
    const p = await t.newPartner({ webhookUrl: r.url });
    const other = await t.newPartner({ webhookUrl: r.url });

    const o1 = await p.order('stars', { quantity: 100, recipient: '@log_user' });
    await t.advance(5);
    expect(r.requests).toHaveLength(1);
    const id1 = hdr(r.requests[0], 'x-webhook-id')!;
    const t1 = tsOf(r.requests[0]);
    let body = await log(p);
    expect(body.count).toBe(1);
    expect(body.next_cursor).toBeNull();
    const [d] = body.items;
    expect(Object.keys(d).sort()).toEqual(['attempts', 'created_at', 'delivery_id', 'event', 'last_error', 'next_attempt_at', 'order_id', 'rejected_reason', 'status', 'url']);
    expect(d).toMatchObject({
      delivery_id: id1,
      event: 'order.completed',
      order_id: o1.body.order_id,
      url: r.url,
      status: 'pending',
      next_attempt_at: iso(t1 + 60),
      rejected_reason: null,
      last_error: 'HTTP 500',
      created_at: iso(t1),
    });
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ number: 1, manual: false, sent_at: iso(t1), http_status: 500, error: 'HTTP 500' });
    // real elapsed time of the exchange: the receiver took 150 ms
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(140);
    expect(d.attempts[0].duration_ms).toBeLessThan(10_000);

    await t.advance(60);
    const [after] = (await log(p)).items;
    expect(after).toMatchObject({ delivery_id: id1, status: 'delivered', next_attempt_at: null, last_error: null });
    expect(after.attempts.map((a: any) => [a.number, a.manual, a.sent_at, a.http_status, a.error])).toEqual([
      [1, false, iso(t1), 500, 'HTTP 500'],
      [2, false, iso(t1 + 60), 200, null],
    ]);
    expect(after.attempts[1].duration_ms).toBeGreaterThanOrEqual(590);
    expect(after.attempts[1].duration_ms).toBeLessThan(10_000);
    expect(after.attempts[0].duration_ms).toBe(d.attempts[0].duration_ms);
    expect(after.attempts[0].duration_ms).toBeLessThan(after.attempts[1].duration_ms);

    // a failed order: order.failed and order.refunded, newer than the first delivery
    const o2 = await p.order('stars', { quantity: 50, recipient: 'failstars_log' });
    await other.order('stars', { quantity: 50, recipient: '@other_log' });
    await t.advance(5);
    body = await log(p);
    expect(body.count).toBe(3);
    expect(body.items.map((x: any) => x.order_id)).toEqual([o2.body.order_id, o2.body.order_id, o1.body.order_id]);
    expect(body.items.slice(0, 2).map((x: any) => x.event).sort()).toEqual(['order.failed', 'order.refunded']);
    expect(body.items.every((x: any) => x.status === 'delivered')).toBe(true);
    // the other partner's delivery is only in its own log
    const theirs = await log(other);
    expect(theirs.count).toBe(1);
    expect(body.items.map((x: any) => x.delivery_id)).not.toContain(theirs.items[0].delivery_id);

    // filters
    expect((await log(p, `?order_id=${o1.body.order_id}`)).items.map((x: any) => x.delivery_id)).toEqual([id1]);
    expect((await log(p, '?event=order.refunded')).items.map((x: any) => [x.event, x.order_id])).toEqual([['order.refunded', o2.body.order_id]]);
    expect((await log(p, '?status=delivered')).count).toBe(3);
    expect(await log(p, '?status=pending')).toEqual({ items: [], count: 0, next_cursor: null });
    expect((await log(p, `?order_id=${o2.body.order_id}&event=order.failed&status=delivered`)).count).toBe(1);
    expect((await log(p, `?order_id=${theirs.items[0].order_id}`)).count).toBe(0);

    // paging: one at a time, never repeated or skipped
    const all = body.items.map((x: any) => x.delivery_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await log(p, `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.count).toBe(1);
      seen.push(page.items[0].delivery_id);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    const two = await log(p, '?limit=2');
    expect(two.items.map((x: any) => x.delivery_id)).toEqual(all.slice(0, 2));
    expect((await log(p, `?cursor=${encodeURIComponent(two.next_cursor)}`)).items.map((x: any) => x.delivery_id)).toEqual(all.slice(2));
  });

  it('refuses bad filters and cursors with the codes of GET /orders', async () => {
    const t = await service();
    const p = await t.newPartner();
    for (const [url, code] of [
      ['?status=sent', 'bad_status'],
      ['?status=DELIVERED', 'bad_status'],
      ['?event=order.created', 'bad_param'],
      ['?event=', 'bad_param'],
      ['?order_id=', 'bad_param'],
      [`?order_id=${'x'.repeat(129)}`, 'bad_param'],
      ['?cursor=bad', 'bad_cursor'],
      ['?cursor=', 'bad_cursor'],
      [`?cursor=${Buffer.from('w:-1').toString('base64url')}`, 'bad_cursor'],
      ['?limit=0', 'bad_limit'],
      ['?limit=201', 'bad_limit'],
      ['?limit=ten', 'bad_limit'],
      ['?webhook_id=abc', 'bad_param'],
      ['?status=pending&status=failed', 'bad_param'],
    ]) {
      const r = await p.call('GET', `/webhook-deliveries${url}`);
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe(code);
      expect(typeof r.body.detail, url).toBe('string');
    }
    // a cursor of GET /orders is not a delivery cursor
    await p.order('stars', { quantity: 50, recipient: '@cursor_user' });
    await p.order('stars', { quantity: 50, recipient: '@cursor_user' });
    const orders = await p.call('GET', '/orders?limit=1');
    const r = await p.call('GET', `/webhook-deliveries?cursor=${orders.body.next_cursor}`);
    expect([r.status, r.body.code]).toEqual([400, 'bad_cursor']);
  });
});

describe('POST /webhook-deliveries/{delivery_id}/redeliver', () => {
  it('sends the same webhook now with the same X-Webhook-Id, signed with the current secret after a regenerate, without touching the schedule', async () => {
    const t = await service();
    const r = await receiver();
    r.script.push(500, 503, 200);
    const p = await t.newPartner({ webhookUrl: r.url });
    const o = await p.order('stars', { quantity: 100, recipient: '@redeliver_user' });
    await t.advance(5);
    const first = r.requests[0];
    const id = hdr(first, 'x-webhook-id')!;
    const t1 = tsOf(first);
    const before = (await log(p)).items[0];
    expect(before).toMatchObject({ status: 'pending', next_attempt_at: iso(t1 + 60) });

    const regen = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, regenerate_secret: true });
    const newSecret: string = regen.body.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(p.secret);

    await t.advance(10); // the manual request's X-Timestamp is later than the first
    const now = await clockSec(t);
    expect(now).toBeGreaterThan(t1);
    const m = await p.call('POST', `/webhook-deliveries/${id}/redeliver`);
    expect(m.status, m.raw).toBe(200);
    expect(r.requests).toHaveLength(2);
    const q = r.requests[1];
    expect(hdr(q, 'x-webhook-id')).toBe(id);
    expect(hdr(q, 'x-webhook-event')).toBe('order.completed');
    expect(hdr(q, 'x-webhook-attempt')).toBe('2');
    expect(tsOf(q)).toBe(now);
    expect(q.raw.equals(first.raw)).toBe(true); // the same body bytes
    expect(signedWith(q, newSecret)).toEqual({ v1: true, v2: true });
    expect(signedWith(q, p.secret!)).toEqual({ v1: false, v2: false });
    expect(JSON.parse(q.raw.toString('utf8'))).toMatchObject({ event: 'order.completed', order_id: o.body.order_id });

    // a failed manual attempt (503): logged, the delivery still pending with the same next_attempt_at
    expect(m.body).toMatchObject({ delivery_id: id, status: 'pending', next_attempt_at: iso(t1 + 60), last_error: 'HTTP 503' });
    expect(m.body.attempts.map((a: any) => [a.number, a.manual, a.sent_at, a.http_status, a.error])).toEqual([
      [1, false, iso(t1), 500, 'HTTP 500'],
      [2, true, iso(now), 503, 'HTTP 503'],
    ]);
    expect(m.body.attempts[1].duration_ms).toEqual(expect.any(Number));
    // no scheduled attempt used
    expect(await operatorDelivery(t, id)).toMatchObject({ attempts: 1, status: 'pending', next_attempt_at: iso(t1 + 60) });

    // the scheduled attempt 2 still comes exactly at +60 s, numbered after the manual request
    await t.advance(t1 + 60 - now - 1);
    expect(r.requests).toHaveLength(2);
    await t.advance(1);
    expect(r.requests).toHaveLength(3);
    expect(tsOf(r.requests[2])).toBe(t1 + 60);
    expect(hdr(r.requests[2], 'x-webhook-attempt')).toBe('3');
    expect(hdr(r.requests[2], 'x-webhook-id')).toBe(id);
    expect(signedWith(r.requests[2], newSecret).v2).toBe(true);
    const done = (await log(p)).items[0];
    expect(done).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(done.attempts.map((a: any) => [a.number, a.manual, a.http_status])).toEqual([[1, false, 500], [2, true, 503], [3, false, 200]]);
    expect(await operatorDelivery(t, id)).toMatchObject({ attempts: 2, status: 'delivered' });

    // a delivered one can be sent again too: only the log changes
    const again = await p.call('POST', `/webhook-deliveries/${id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(again.body.attempts.map((a: any) => [a.number, a.manual, a.http_status])).toEqual([[1, false, 500], [2, true, 503], [3, false, 200], [4, true, 200]]);
    expect(hdr(r.requests[3], 'x-webhook-attempt')).toBe('4');
  });

  it('a successful manual redelivery of a pending delivery leaves its status and schedule; of a failed one, makes it delivered', async () => {
    const t = await service();
    const r = await receiver();
    r.script.push(500, 200); // attempt 1 fails, the manual one succeeds
    const p = await t.newPartner({ webhookUrl: r.url });
    await p.order('stars', { quantity: 100, recipient: '@pending_user' });
    await t.advance(5);
    const id = hdr(r.requests[0], 'x-webhook-id')!;
    const t1 = tsOf(r.requests[0]);
    const ok = await p.call('POST', `/webhook-deliveries/${id}/redeliver`);
    expect(ok.body).toMatchObject({ status: 'pending', next_attempt_at: iso(t1 + 60), last_error: null });
    expect(ok.body.attempts.at(-1)).toMatchObject({ number: 2, manual: true, http_status: 200, error: null });
    // the schedule goes on: attempt 2 at +60 s (receivers drop the duplicate by X-Webhook-Id)
    await t.advance(60);
    expect(r.requests).toHaveLength(3);
    expect((await log(p)).items[0].status).toBe('delivered');

    // a delivery that used up its schedule
    r.script.push(500, 500, 500, 500, 500, 500);
    const o = await p.order('stars', { quantity: 100, recipient: '@failed_user' });
    await t.advance(5);
    await t.advance(86_400);
    const [failed] = (await log(p, `?order_id=${o.body.order_id}`)).items;
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(failed.attempts.map((a: any) => a.number)).toEqual([1, 2, 3, 4, 5, 6]);
    const n = r.requests.length;
    expect(r.script).toEqual([]); // the receiver answers 200 now
    const bad = await p.call('POST', `/webhook-deliveries/${failed.delivery_id}/redeliver`);
    expect(r.requests).toHaveLength(n + 1);
    expect(bad.body).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(bad.body.attempts.at(-1)).toMatchObject({ number: 7, manual: true, http_status: 200 });
    expect(hdr(r.requests[n], 'x-webhook-attempt')).toBe('7');
    expect(await operatorDelivery(t, failed.delivery_id)).toMatchObject({ status: 'delivered', attempts: 6 });
    // nothing more is scheduled
    await t.advance(86_400);
    expect(r.requests).toHaveLength(n + 1);
  });

  it('answers 404 not_found for another partner\'s, an unknown or a malformed delivery id, and sends nothing', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: r.url });
    const other = await t.newPartner({ webhookUrl: r.url });
    await other.order('stars', { quantity: 50, recipient: '@other_user' });
    await t.advance(5);
    const theirs = (await log(other)).items[0].delivery_id;
    expect(r.requests).toHaveLength(1);
    for (const id of [theirs, '0123456789abcdef01234567', theirs.toUpperCase(), 'xyz', `${theirs}0`, 'a'.repeat(90), 'g'.repeat(24), '%20', "'%20or%201=1"]) {
      const res = await p.call('POST', `/webhook-deliveries/${id}/redeliver`);
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({ code: 'not_found', detail: 'Delivery not found.' });
    }
    expect(r.requests).toHaveLength(1);
    expect((await log(other)).items[0].attempts).toHaveLength(1);
  });
});

describe('POST /webhook/test', () => {
  it('sends a signed webhook.test to the saved address once and answers the delivery, which the log lists', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: r.url });
    const res = await p.call('POST', '/webhook/test');
    expect(res.status, res.raw).toBe(200);
    expect(r.requests).toHaveLength(1);
    const q = r.requests[0];
    const id = hdr(q, 'x-webhook-id')!;
    expect(hdr(q, 'x-webhook-event')).toBe('webhook.test');
    expect(hdr(q, 'x-webhook-attempt')).toBe('1');
    expect(signedWith(q, p.secret!)).toEqual({ v1: true, v2: true });
    expect(q.raw.toString('utf8')).toBe(`{"event": "webhook.test", "order_id": null, "data": {"partner_id": ${p.id}, "created_at": "2026-03-01T12:00:00.000000+00:00"}}`);
    expect(res.body).toMatchObject({ delivery_id: id, event: 'webhook.test', order_id: null, url: r.url, status: 'delivered', next_attempt_at: null, rejected_reason: null });
    expect(res.body.attempts).toEqual([{ number: 1, manual: false, sent_at: '2026-03-01T12:00:00.000000+00:00', http_status: 200, error: null, duration_ms: expect.any(Number) }]);
    expect((await log(p, '?event=webhook.test')).items).toEqual([res.body]);
    // the orders' log does not show it
    expect((await log(p, '?event=order.completed')).count).toBe(0);
  });

  it('a failing receiver: failed at once and never retried; a redelivery that gets through makes it delivered', async () => {
    const t = await service();
    const r = await receiver();
    r.script.push(500);
    const p = await t.newPartner({ webhookUrl: r.url });
    const res = await p.call('POST', '/webhook/test');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', next_attempt_at: null, last_error: 'HTTP 500', rejected_reason: null });
    expect(res.body.attempts).toMatchObject([{ number: 1, manual: false, http_status: 500, error: 'HTTP 500' }]);
    await t.advance(86_400);
    expect(r.requests).toHaveLength(1);
    const again = await p.call('POST', `/webhook-deliveries/${res.body.delivery_id}/redeliver`);
    expect(again.body).toMatchObject({ status: 'delivered' });
    expect(again.body.attempts.map((a: any) => [a.number, a.manual, a.http_status])).toEqual([[1, false, 500], [2, true, 200]]);
    expect(hdr(r.requests[1], 'x-webhook-id')).toBe(res.body.delivery_id);
  });

  it('409 webhook_not_configured without an address and a secret; an address that resolves into a private network is refused without a request', async () => {
    const t = await service();
    const r = await receiver();
    const none = await t.newPartner();
    const res = await none.call('POST', '/webhook/test');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'webhook_not_configured', detail: 'No webhook address and secret are saved: save the Webhook block first.' });
    // saved with an empty address: still not configured
    const empty = await t.newPartner({ webhookUrl: '' });
    expect((await empty.call('POST', '/webhook/test')).body.code).toBe('webhook_not_configured');
    expect((await log(empty)).count).toBe(0);

    await t.admin('PUT', '/sandbox/dns/hooks.private-shop.com', { addresses: ['10.0.0.9'] });
    const priv = await t.newPartner({ webhookUrl: `http://hooks.private-shop.com:${r.port}/hook` });
    const refused = await priv.call('POST', '/webhook/test');
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ event: 'webhook.test', status: 'failed', rejected_reason: 'private_address', attempts: [], next_attempt_at: null });
    // a redelivery is refused the same way, and the log says why
    const re = await priv.call('POST', `/webhook-deliveries/${refused.body.delivery_id}/redeliver`);
    expect(re.body).toMatchObject({ status: 'failed' });
    expect(re.body.attempts).toEqual([{ number: 1, manual: true, sent_at: expect.any(String), http_status: null, error: 'address refused: private_address', duration_ms: null }]);
    expect(r.requests).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('documents the three endpoints; the answers conform and a generated client uses them', async () => {
    const t = await service();
    const r = await receiver();
    r.script.push(500);
    const p = await t.newPartner({ webhookUrl: r.url });
    await p.order('stars', { quantity: 50, recipient: '@client_user' });
    await t.advance(5);
    const d = await documentOf(t);
    expect(d.violations('get', '/webhook-deliveries', await p.call('GET', '/webhook-deliveries'))).toEqual([]);
    expect(d.violations('get', '/webhook-deliveries', await p.call('GET', '/webhook-deliveries?status=sent'))).toEqual([]);
    expect(d.violations('post', '/webhook-deliveries/{delivery_id}/redeliver', await p.call('POST', '/webhook-deliveries/nope/redeliver'))).toEqual([]);
    expect(d.violations('post', '/webhook/test', await (await t.newPartner()).call('POST', '/webhook/test'))).toEqual([]);
    expect(Object.keys(d.doc.paths['/webhook/test'].post.callbacks)).toEqual(['webhook.test']);
    const types = await d.generatedTypes();
    for (const path of ['"/webhook-deliveries"', '"/webhook-deliveries/{delivery_id}/redeliver"', '"/webhook/test"']) expect(types).toContain(path);

    const client = await d.client(p);
    const list = await client.GET('/webhook-deliveries', { params: { query: { event: 'order.completed', status: 'pending', limit: 10 } } });
    expect(list.response.status).toBe(200);
    const [item] = (list.data as any).items;
    expect(item).toMatchObject({ event: 'order.completed', status: 'pending' });
    const again = await client.POST('/webhook-deliveries/{delivery_id}/redeliver', { params: { path: { delivery_id: item.delivery_id } } });
    expect(again.response.status).toBe(200);
    expect((again.data as any).attempts.map((a: any) => a.manual)).toEqual([false, true]);
    const test = await client.POST('/webhook/test', {});
    expect(test.response.status).toBe(200);
    expect((test.data as any)).toMatchObject({ event: 'webhook.test', status: 'delivered' });
    const missing = await client.POST('/webhook-deliveries/{delivery_id}/redeliver', { params: { path: { delivery_id: '0123456789abcdef01234567' } } });
    expect(missing.response.status).toBe(404);
    expect((missing.error as any).code).toBe('not_found');
    expect(r.requests.map((q) => hdr(q, 'x-webhook-event'))).toEqual(['order.completed', 'order.completed', 'webhook.test']);
  });
});
