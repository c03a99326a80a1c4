import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, stopService, type TestService } from '../helpers.js';

/**
 * A keep-alive connection remembers the key of the Authorization text it last sent (the next request with
 * exactly that text skips the parse and the hash): these requests all travel over one real connection, so
 * they check that what a connection remembers never outlives a revocation, never stands in for another
 * key sent on it (a proxy's connection carries several partners), and never skips the per-request checks.
 */
let t: TestService | undefined;
let agent: http.Agent | undefined;
afterEach(async () => {
  agent?.destroy();
  agent = undefined;
  await stopService(t);
  t = undefined;
});

interface Answer {
  status: number;
  body: any;
  /** Whether the request went over the connection of an earlier one. */
  reused: boolean;
}

/** A partner API call over the one keep-alive connection of `agent`. */
function call(port: number, authorization: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: `/api/partner/v1${path}`, agent, headers: { authorization, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function listening(env: Record<string, string> = {}): Promise<number> {
  t = await startService(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (t.app.server.address() as { port: number }).port;
}

describe('authentication over one keep-alive connection', () => {
  it('each request is judged by its own header: another partner, a garbage key, a revoked key, a new key', async () => {
    const port = await listening();
    const a = await t!.newPartner();
    const b = await t!.newPartner();
    const first = await call(port, `Bearer ${a.key}`, '/me');
    expect([first.status, first.body.partner_id]).toEqual([200, a.id]);
    // another partner's key on the same connection is that partner, and back again
    const other = await call(port, `Bearer ${b.key}`, '/me');
    expect([other.status, other.body.partner_id, other.reused]).toEqual([200, b.id, true]);
    expect((await call(port, `Bearer ${a.key}`, '/me')).body.partner_id).toBe(a.id);
    // a text that differs from the remembered one by a character is judged afresh
    const garbage = await call(port, `Bearer ${a.key}x`, '/me');
    expect([garbage.status, garbage.body.detail.code, garbage.reused]).toEqual([401, 'unauthorized', true]);
    expect((await call(port, `Bearer ${a.key}`, '/me')).status).toBe(200);

    // a new key revokes the old one at once, for a connection that has just used it too
    const issued = await t!.admin('POST', `/partners/${a.id}/keys`, {});
    expect(issued.status).toBe(201);
    const revoked = await call(port, `Bearer ${a.key}`, '/me');
    expect([revoked.status, revoked.body.detail.code, revoked.reused]).toEqual([401, 'unauthorized', true]);
    const fresh = await call(port, `Bearer ${issued.body.api_key}`, '/me');
    expect([fresh.status, fresh.body.partner_id, fresh.reused]).toEqual([200, a.id, true]);
    // revoking one partner's key leaves another's working on the connection
    expect((await call(port, `Bearer ${b.key}`, '/me')).status).toBe(200);
  });

  it('the whitelist and the partner access are checked on every request, the key remembered or not', async () => {
    const port = await listening({ TRUST_PROXY: '1' });
    const p = await t!.newPartner({ ipWhitelist: ['203.0.113.0/24'] });
    const auth = `Bearer ${p.key}`;
    expect((await call(port, auth, '/me', { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
    const outside = await call(port, auth, '/me', { 'x-forwarded-for': '198.51.100.9' });
    expect([outside.status, outside.body.detail.code, outside.reused]).toEqual([403, 'ip_not_allowed', true]);
    expect((await call(port, auth, '/me', { 'x-forwarded-for': '203.0.113.8' })).status).toBe(200);

    expect((await t!.admin('PUT', '/settings', { program_available: false })).status).toBe(200);
    const off = await call(port, auth, '/me', { 'x-forwarded-for': '203.0.113.7' });
    expect([off.status, off.body.detail.code, off.reused]).toEqual([403, 'partner_program_unavailable', true]);
    expect((await t!.admin('PUT', '/settings', { program_available: true })).status).toBe(200);
    expect((await call(port, auth, '/me', { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
  });
});
