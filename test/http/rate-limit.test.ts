import { afterEach, describe, expect, it } from 'vitest';
import { codeOf, startService, stopService, type Res, type TestPartner, type TestService } from '../helpers.js';

let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

function expectLimited(r: Res, scope: string, limit: number): number {
  expect(r.status, r.raw).toBe(429);
  expect(codeOf(r)).toBe('rate_limited');
  expect(r.body).toMatchObject({ detail: { code: 'rate_limited', detail: expect.any(String), scope, limit, window_seconds: 60, retry_after: expect.any(Number) } });
  const retry = r.body.detail.retry_after as number;
  expect(Number.isInteger(retry)).toBe(true);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(r.headers['retry-after']).toBe(String(retry));
  return retry;
}

async function burst(p: TestPartner, n: number, method = 'GET', url = '/me', body?: unknown): Promise<Res[]> {
  const out: Res[] = [];
  for (let i = 0; i < n; i++) out.push(await p.call(method, url, body));
  return out;
}

describe('per-key limit (API_RATE_LIMIT / API_RATE_BURST)', () => {
  it('defaults 120/min burst 30: 30 pass, the 31st is 429 (nested) with scope key, Retry-After; refills 2 per second', async () => {
    t = await startService();
    const p = await t.newPartner();
    const ok = await burst(p, 30);
    expect(ok.map((r) => r.status)).toEqual(Array(30).fill(200));
    const r31 = await p.call('GET', '/me');
    const retry = expectLimited(r31, 'key', 120);
    expect(retry).toBe(1); // refill 2/s: one token in 0.5 s, rounded up to whole seconds
    // still limited without time passing, on every endpoint (the limit covers all of them)
    expectLimited(await p.call('GET', '/products'), 'key', 120);
    expectLimited(await p.order('stars', { quantity: 100, recipient: '@alice_user' }), 'key', 120);
    expect(t.db.$client.prepare('select count(*) as n from orders').get()).toEqual({ n: 0 });

    const adv = await t.advance(1);
    expect(adv.status).toBe(200);
    // one second refills exactly two tokens
    expect((await p.call('GET', '/me')).status).toBe(200);
    expect((await p.call('GET', '/me')).status).toBe(200);
    expectLimited(await p.call('GET', '/me'), 'key', 120);
    // a full minute refills the whole burst, and no more
    await t.advance(60);
    expect((await burst(p, 30)).every((r) => r.status === 200)).toBe(true);
    expectLimited(await p.call('GET', '/me'), 'key', 120);
  });

  it('is per key: another partner is unaffected, and a reissued key starts a fresh bucket', async () => {
    t = await startService();
    const a = await t.newPartner();
    const b = await t.newPartner();
    expect((await burst(a, 30)).every((r) => r.status === 200)).toBe(true);
    expectLimited(await a.call('GET', '/me'), 'key', 120);
    const rb = await burst(b, 30);
    expect(rb.every((r) => r.status === 200)).toBe(true);
    expectLimited(await b.call('GET', '/me'), 'key', 120);
    // the exhausted partner gets a new key: the new key has its own bucket
    const k = await t.admin('POST', `/partners/${a.id}/keys`, {});
    expect(k.status).toBe(201);
    expect((await t.partnerCall(k.body.api_key, 'GET', '/me')).status).toBe(200);
  });

  it('requests without a valid key are refused before the limit and do not spend it', async () => {
    t = await startService();
    const p = await t.newPartner();
    for (let i = 0; i < 50; i++) expect((await t.partnerCall('pk_live_invalid', 'GET', '/me')).status).toBe(401);
    expect((await burst(p, 30)).every((r) => r.status === 200)).toBe(true);
  });

  it('follows API_RATE_LIMIT and API_RATE_BURST from the environment', async () => {
    t = await startService({ API_RATE_LIMIT: '6', API_RATE_BURST: '2' });
    const p = await t.newPartner();
    expect((await burst(p, 2)).every((r) => r.status === 200)).toBe(true);
    const retry = expectLimited(await p.call('GET', '/me'), 'key', 6);
    expect(retry).toBe(10); // 6 per minute: one token every 10 s
    await t.advance(9);
    expectLimited(await p.call('GET', '/me'), 'key', 6);
    await t.advance(1);
    expect((await p.call('GET', '/me')).status).toBe(200);
    expectLimited(await p.call('GET', '/me'), 'key', 6);
    expect((await p.call('GET', '/me')).status).toBe(429);
  });
});

describe('POST /validate/* limit (VALIDATE_RECIPIENT_RATE_LIMIT)', () => {
  it('the 4th validation with a limit of 3 is 429 with scope validate_recipient', async () => {
    t = await startService({ VALIDATE_RECIPIENT_RATE_LIMIT: '3' });
    const p = await t.newPartner();
    for (let i = 0; i < 3; i++) {
      const r = await p.call('POST', '/validate/recipient', { type: 'stars', username: '@alice_user' });
      expect(r.status, r.raw).toBe(200);
    }
    const fourth = await p.call('POST', '/validate/recipient', { type: 'stars', username: '@alice_user' });
    const retry = expectLimited(fourth, 'validate_recipient', 3);
    expect(retry).toBe(20); // 3 per minute: one every 20 s
    // /validate/game shares the scope
    expectLimited(await p.call('POST', '/validate/game', { username: '@alice_user' }), 'validate_recipient', 3);
    // other endpoints are not affected by the validation scope
    expect((await p.call('GET', '/me')).status).toBe(200);
    // another key has its own validation bucket
    const q = await t.newPartner();
    expect((await q.call('POST', '/validate/recipient', { type: 'premium', username: '@alice_user' })).status).toBe(200);
    // time refills it
    await t.advance(20);
    expect((await p.call('POST', '/validate/recipient', { type: 'stars', username: '@alice_user' })).status).toBe(200);
  });

  it('defaults to 60 per minute', async () => {
    t = await startService({ API_RATE_BURST: '1000', API_RATE_LIMIT: '1000' });
    const p = await t.newPartner();
    const rs = await burst(p, 60, 'POST', '/validate/recipient', { type: 'stars', username: '@alice_user' });
    expect(rs.every((r) => r.status === 200)).toBe(true);
    expectLimited(await p.call('POST', '/validate/recipient', { type: 'stars', username: '@alice_user' }), 'validate_recipient', 60);
  });
});
