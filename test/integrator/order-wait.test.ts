/**
 * Issue 15 point 2: GET /orders/{order_id}?wait=N answers as soon as the order is final, or after N seconds
 * of service clock with the order as it is; at most ORDER_WAIT_MAX_PER_KEY waits per key (429 scope wait);
 * a client that goes away gives its slot back; shutdown answers open waits.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { perTest, type Res, type TestPartner, type TestService } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service } = perTest();

/** A request in flight whose answer the test can look at without awaiting it. */
function track(p: Promise<Res>) {
  const s: { done: boolean; res?: Res; promise: Promise<Res> } = { done: false, promise: p };
  void p.then((r) => {
    s.done = true;
    s.res = r;
  });
  return s;
}

/** Lets the event loop run a while (inject answers take a few turns), without moving any clock. */
async function turns(n = 30) {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

async function keyIdOf(t: TestService, p: TestPartner): Promise<string> {
  const r = await t.admin('GET', `/partners/${p.id}`);
  return r.body.keys.find((k: any) => k.revoked_at === null).key_id;
}

describe('GET /orders/{order_id}?wait=N', () => {
  it('refuses a wait that is not a whole number of seconds from 1 to 30 with 400 bad_param naming it', async () => {
    const t = await service();
    const p = await t.newPartner();
    const o = await p.order('stars', { quantity: 50, recipient: '@wait_user' });
    for (const v of ['0', '31', '1.5', 'abc', '', '-1', '1e1', '100', ' 5']) {
      const r = await p.call('GET', `/orders/${o.body.order_id}?wait=${encodeURIComponent(v)}`);
      expect(r.status, v).toBe(400);
      expect(r.body, v).toEqual({ code: 'bad_param', detail: 'wait must be a whole number of seconds from 1 to 30.', param: 'wait' });
    }
    const twice = await p.call('GET', `/orders/${o.body.order_id}?wait=1&wait=2`);
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'bad_param', param: 'wait' });
    // the parameter is judged before the order is looked up
    expect((await p.call('GET', '/orders/PA-999999?wait=0')).body.code).toBe('bad_param');
    const unknown = await p.call('GET', '/orders/PA-999999?wait=5');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    // nothing waited, nothing stays open
    expect(t.deps.orderWaits.waiting(await keyIdOf(t, p))).toBe(0);
  });

  it('answers as soon as the order completes, before its N seconds, when the clock is advanced', async () => {
    const t = await service();
    const p = await t.newPartner();
    const o = await p.order('stars', { quantity: 50, recipient: '@wait_user' });
    const w = track(p.call('GET', `/orders/${o.body.order_id}?wait=30`));
    await turns();
    expect(w.done).toBe(false);
    expect(t.deps.orderWaits.waiting(await keyIdOf(t, p))).toBe(1);
    await t.advance(5); // the sandbox delivers stars 3 s after the order
    const r = await w.promise;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ order_id: o.body.order_id, status: 'completed', completed_at: '2026-03-01T12:00:03.000000+00:00', refunded: false });
    expect(t.deps.orderWaits.waiting(await keyIdOf(t, p))).toBe(0);
  });

  it('answers a failed and refunded order once its refund is committed', async () => {
    const t = await service();
    const p = await t.newPartner({ usd: '10.00' });
    const o = await p.order('stars', { quantity: 50, recipient: 'failstars_wait' });
    const w = track(p.call('GET', `/orders/${o.body.order_id}?wait=20`));
    await turns();
    expect(w.done).toBe(false);
    await t.advance(10);
    const r = await w.promise;
    expect(r.body).toMatchObject({ status: 'failed', refunded: true });
    expect((await p.call('GET', '/me')).body.balances.USD).toBe('10.00');
  });

  it('answers after N seconds of service clock with the order as it is, and at once when the order is already final', async () => {
    const t = await service();
    const p = await t.newPartner();
    const slow = await p.order('stars', { quantity: 50, recipient: 'slow_wait_user' }); // waits 10 minutes in the queue
    const w = track(p.call('GET', `/orders/${slow.body.order_id}?wait=5`));
    await turns();
    await t.advance(4);
    await turns();
    expect(w.done).toBe(false);
    await t.advance(1);
    const r = await w.promise;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ order_id: slow.body.order_id, status: 'processing', completed_at: null });

    const fast = await p.order('stars', { quantity: 50, recipient: '@wait_user' });
    await t.advance(5);
    const at = track(p.call('GET', `/orders/${fast.body.order_id}?wait=30`));
    await turns();
    expect(at.done).toBe(true);
    expect(at.res!.body.status).toBe('completed');
  });

  it('keeps waiting while a Stars order reads failed but waits for manual review (not final)', async () => {
    const t = await service();
    const p = await t.newPartner();
    const o = await p.order('stars', { quantity: 50, recipient: 'unconfirmed_wait' });
    const w = track(p.call('GET', `/orders/${o.body.order_id}?wait=10`));
    await t.advance(6);
    await turns();
    expect(w.done).toBe(false);
    expect((await p.call('GET', `/orders/${o.body.order_id}`)).body).toMatchObject({ status: 'failed', refunded: false });
    await t.advance(4);
    expect((await w.promise).body).toMatchObject({ status: 'failed', refunded: false });
  });

  it('allows ORDER_WAIT_MAX_PER_KEY waits per key; past it 429 rate_limited scope wait with Retry-After; other keys are not affected', async () => {
    const t = await service({ ORDER_WAIT_MAX_PER_KEY: '2' });
    const p = await t.newPartner();
    const q = await t.newPartner();
    const a = await p.order('stars', { quantity: 50, recipient: 'slow_wait_a' });
    const b = await p.order('stars', { quantity: 50, recipient: 'slow_wait_b' });
    const w1 = track(p.call('GET', `/orders/${a.body.order_id}?wait=12`));
    const w2 = track(p.call('GET', `/orders/${b.body.order_id}?wait=20`));
    await turns();
    await t.advance(2);
    const third = await p.call('GET', `/orders/${a.body.order_id}?wait=5`);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('10');
    expect(third.body).toEqual({
      detail: { code: 'rate_limited', detail: 'At most 2 requests of a key may wait at once. Retry in 10 s.', scope: 'wait', limit: 2, window_seconds: 30, retry_after: 10 },
      scope: 'wait',
      limit: 2,
      window_seconds: 30,
      retry_after: 10,
    });
    expect(third.headers['ratelimit-limit']).toBeDefined();
    // a read without wait is not limited
    expect((await p.call('GET', `/orders/${a.body.order_id}`)).status).toBe(200);
    // another partner's key has its own slots
    const qo = await q.order('stars', { quantity: 50, recipient: 'slow_wait_q' });
    const wq = track(q.call('GET', `/orders/${qo.body.order_id}?wait=3`));
    await t.advance(10);
    expect((await w1.promise).body.status).toBe('processing');
    expect((await wq.promise).body.status).toBe('processing');
    expect(w2.done).toBe(false);
    // a slot is free again
    const w3 = track(p.call('GET', `/orders/${a.body.order_id}?wait=1`));
    await turns();
    expect(w3.done).toBe(false);
    await t.advance(8);
    expect((await w2.promise).status).toBe(200);
    expect((await w3.promise).status).toBe(200);
  });

  it('gives the slot back when the client goes away', async () => {
    const t = await service({ ORDER_WAIT_MAX_PER_KEY: '1' });
    const p = await t.newPartner();
    const keyId = await keyIdOf(t, p);
    const o = await p.order('stars', { quantity: 50, recipient: 'slow_wait_gone' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const req = http.get({ host: '127.0.0.1', port, path: `/api/partner/v1/orders/${o.body.order_id}?wait=30`, headers: { authorization: `Bearer ${p.key}` } });
    req.on('error', () => {});
    await vi.waitFor(() => expect(t.deps.orderWaits.waiting(keyId)).toBe(1));
    expect((await p.call('GET', `/orders/${o.body.order_id}?wait=1`)).status).toBe(429);
    req.destroy();
    await vi.waitFor(() => expect(t.deps.orderWaits.waiting(keyId)).toBe(0));
    const again = track(p.call('GET', `/orders/${o.body.order_id}?wait=1`));
    await turns();
    expect(again.done).toBe(false);
    await t.advance(1);
    expect((await again.promise).status).toBe(200);
  });

  it('answers open waits at shutdown instead of holding the server', async () => {
    const t = await service();
    const p = await t.newPartner();
    const o = await p.order('stars', { quantity: 50, recipient: 'slow_wait_stop' });
    const w = track(p.call('GET', `/orders/${o.body.order_id}?wait=30`));
    await turns();
    expect(w.done).toBe(false);
    await t.close();
    const r = await w.promise;
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('processing');
  });

  it('is documented, and a generated client can wait', async () => {
    const t = await service();
    const p = await t.newPartner();
    const o = await p.order('stars', { quantity: 50, recipient: '@wait_user' });
    await t.advance(5);
    const d = await documentOf(t);
    const params = d.doc.paths['/orders/{order_id}'].get.parameters;
    expect(params.find((x: any) => x.name === 'wait')).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 30 } });
    expect(d.violations('get', '/orders/{order_id}', await p.call('GET', `/orders/${o.body.order_id}?wait=abc`))).toEqual([]);
    const client = await d.client(p);
    const r = await client.GET('/orders/{order_id}', { params: { path: { order_id: o.body.order_id }, query: { wait: 2 } } });
    expect(r.response.status).toBe(200);
    expect((r.data as any).status).toBe('completed');
  });
});
