/**
 * Issue 15 point 8: RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every partner API answer
 * (the key's general budget), errors included; a 429 keeps Retry-After and its body.
 */
import { describe, expect, it } from 'vitest';
import { codeOf, perTest, type Res } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service } = perTest();

const budget = (r: Res) => ({ limit: r.headers['ratelimit-limit'], remaining: r.headers['ratelimit-remaining'], reset: r.headers['ratelimit-reset'] });

describe('RateLimit-* headers', () => {
  it('count the key budget down on every endpoint and every status, refill on the service clock, and stay on the 429 with Retry-After and its body', async () => {
    const t = await service({ API_RATE_BURST: '5', API_RATE_LIMIT: '60' });
    const p = await t.newPartner();
    expect(budget(await p.call('GET', '/me'))).toEqual({ limit: '5', remaining: '4', reset: '1' });
    const products = await p.call('GET', '/products');
    expect(budget(products)).toEqual({ limit: '5', remaining: '3', reset: '2' });
    const notFound = await p.call('GET', '/orders/PA-1');
    expect(notFound.status).toBe(404);
    expect(budget(notFound)).toEqual({ limit: '5', remaining: '2', reset: '3' });
    const badQuery = await p.call('GET', '/orders?nope=1');
    expect(badQuery.status).toBe(400);
    expect(budget(badQuery)).toEqual({ limit: '5', remaining: '1', reset: '4' });
    const order = await p.order('stars', { quantity: 50, recipient: '@budget_user' });
    expect(order.status).toBe(200);
    expect(budget(order)).toEqual({ limit: '5', remaining: '0', reset: '5' });
    // the request id is set when the request arrives: an order and the 429 keep it
    expect(order.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const limited = await p.call('GET', '/me');
    expect(limited.status).toBe(429);
    expect(codeOf(limited)).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body).toMatchObject({ detail: { code: 'rate_limited', scope: 'key', limit: 60, window_seconds: 60, retry_after: 1 }, scope: 'key', retry_after: 1 });
    expect(budget(limited)).toEqual({ limit: '5', remaining: '0', reset: '5' });
    expect(limited.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(limited.headers['x-request-id']).not.toBe(order.headers['x-request-id']);

    await t.advance(2);
    expect(budget(await p.call('GET', '/me'))).toEqual({ limit: '5', remaining: '1', reset: '4' });
    await t.advance(60);
    expect(budget(await p.call('GET', '/me'))).toEqual({ limit: '5', remaining: '4', reset: '1' });
  });

  it('a replay answered from memory carries the same headers as the first answer: its own request id and the key budget', async () => {
    const t = await service({ API_RATE_BURST: '5', API_RATE_LIMIT: '60' });
    const p = await t.newPartner();
    const first = await p.order('stars', { quantity: 50, recipient: '@budget_user' }, 'replay-headers-1');
    const again = await p.order('stars', { quantity: 50, recipient: '@budget_user' }, 'replay-headers-1');
    const third = await p.order('stars', { quantity: 50, recipient: '@budget_user' }, 'replay-headers-1');
    expect([first.status, again.status, third.status]).toEqual([200, 200, 200]);
    expect(third.body).toEqual(again.body);
    expect(again.body.order_id).toBe(first.body.order_id);
    expect([budget(first), budget(again), budget(third)]).toEqual([
      { limit: '5', remaining: '4', reset: '1' },
      { limit: '5', remaining: '3', reset: '2' },
      { limit: '5', remaining: '2', reset: '3' },
    ]);
    const ids = [first, again, third].map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it('are per key: another partner starts full; a 429 of another scope (validate_recipient) still shows the key budget', async () => {
    const t = await service({ API_RATE_BURST: '30', API_RATE_LIMIT: '120', VALIDATE_RECIPIENT_RATE_LIMIT: '1' });
    const p = await t.newPartner();
    const q = await t.newPartner();
    await p.call('GET', '/me');
    expect(budget(await q.call('GET', '/me'))).toEqual({ limit: '30', remaining: '29', reset: '1' });
    expect((await p.call('POST', '/validate/recipient', { type: 'stars', username: 'budget_user' })).status).toBe(200);
    const scoped = await p.call('POST', '/validate/recipient', { type: 'stars', username: 'budget_user' });
    expect(scoped.status).toBe(429);
    expect(scoped.body.detail.scope).toBe('validate_recipient');
    expect(scoped.headers['retry-after']).toBeDefined();
    expect(budget(scoped)).toEqual({ limit: '30', remaining: '27', reset: '2' });
  });

  it('are absent when there is no key to count (401), and documented on the answers of every operation', async () => {
    const t = await service();
    const p = await t.newPartner();
    const none = await t.app.inject({ method: 'GET', url: '/api/partner/v1/me' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['ratelimit-limit']).toBeUndefined();
    const { doc } = await documentOf(t);
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        for (const [status, res] of Object.entries<any>(op.responses)) {
          if (status === '401') continue;
          expect(Object.keys(res.headers ?? {}), `${method} ${path} ${status}`).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
        }
        expect(op.responses['429'].headers['Retry-After']).toBeDefined();
      }
    }
    expect((await p.call('GET', '/me')).headers['ratelimit-limit']).toBe('30');
  });
});
