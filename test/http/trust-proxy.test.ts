import { afterEach, describe, expect, it } from 'vitest';
import { codeOf, startService, stopService, toRes, type TestService } from '../helpers.js';

/**
 * TRUST_PROXY=N: N proxy hops are trusted, so the caller is the N-th X-Forwarded-For entry from the end;
 * entries a client writes in front of them never count (key IP whitelist, per-IP limits).
 */
let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

/** GET /me as if the last proxy (at 10.0.0.1) forwarded it with this X-Forwarded-For. */
async function me(key: string, xff: string | undefined) {
  return toRes(
    await t!.app.inject({
      method: 'GET',
      url: '/api/partner/v1/me',
      remoteAddress: '10.0.0.1',
      headers: { authorization: `Bearer ${key}`, ...(xff === undefined ? {} : { 'x-forwarded-for': xff }) },
    }),
  );
}

describe('TRUST_PROXY hop count', () => {
  it('TRUST_PROXY=1: the caller is the last entry (the one the proxy appended), never a client-written one', async () => {
    t = await startService({ TRUST_PROXY: '1' });
    const p = await t.newPartner({ ipWhitelist: ['203.0.113.0/24'] });
    // a spoofed whitelisted address in front of the real one does not pass
    const spoofed = await me(p.key, '203.0.113.7, 198.51.100.9');
    expect(spoofed.status).toBe(403);
    expect(codeOf(spoofed)).toBe('ip_not_allowed');
    // the real caller, appended by the proxy, passes whatever the client wrote before it
    const real = await me(p.key, '198.51.100.9, 203.0.113.7');
    expect(real.status, real.raw).toBe(200);
    expect(real.body.partner_id).toBe(p.id);
    expect((await me(p.key, '203.0.113.7')).status).toBe(200);
    // without the header, the proxy itself is the caller
    expect(codeOf(await me(p.key, undefined))).toBe('ip_not_allowed');
  });

  it('TRUST_PROXY=2: the caller is the second entry from the end', async () => {
    t = await startService({ TRUST_PROXY: '2' });
    const p = await t.newPartner({ ipWhitelist: ['203.0.113.0/24'] });
    // client → edge proxy (appends 203.0.113.7) → inner proxy (appends the edge 10.0.0.2) → service
    expect((await me(p.key, '203.0.113.7, 10.0.0.2')).status).toBe(200);
    expect((await me(p.key, '198.51.100.1, 203.0.113.7, 10.0.0.2')).status).toBe(200);
    const spoofed = await me(p.key, '203.0.113.7, 198.51.100.1, 10.0.0.2');
    expect(spoofed.status).toBe(403);
    expect(codeOf(spoofed)).toBe('ip_not_allowed');
    // the last entry alone is the edge proxy, not the caller
    expect(codeOf(await me(p.key, '198.51.100.1, 203.0.113.7'))).toBe('ip_not_allowed');
  });

  it('TRUST_PROXY=0 ignores the header', async () => {
    t = await startService();
    const p = await t.newPartner({ ipWhitelist: ['203.0.113.0/24'] });
    expect(codeOf(await me(p.key, '203.0.113.7'))).toBe('ip_not_allowed');
  });

  it('per-IP limits count the real caller: varying the client-written entries does not reset the budget', async () => {
    t = await startService({ TRUST_PROXY: '1', API_RATE_LIMIT: '5', API_RATE_BURST: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await t.app.inject({ method: 'GET', url: `/no-such-path-${i}`, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': `192.0.2.${i}, 198.51.100.9` } });
      statuses.push(r.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429, 429]);
    // another real caller behind the same proxy has its own budget
    const other = await t.app.inject({ method: 'GET', url: '/no-such-path', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': '198.51.100.10' } });
    expect(other.statusCode).toBe(404);
  });
});
