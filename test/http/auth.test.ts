import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, codeOf, startService, stopService, toRes, type Res, type TestService } from '../helpers.js';

let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

/** Every partner endpoint of partner-api.md. */
const ENDPOINTS: [method: string, url: string, body?: unknown][] = [
  ['GET', '/me'],
  ['GET', '/products'],
  ['POST', '/validate/recipient', { type: 'stars', username: '@alice_user' }],
  ['POST', '/validate/game', { username: '@alice_user' }],
  ['POST', '/orders', { type: 'stars', idempotency_key: 'auth-1', params: { quantity: 100, recipient: '@alice_user' } }],
  ['GET', '/orders'],
  ['GET', '/orders/PA-100001'],
  ['POST', '/orders', { type: 'nft', idempotency_key: 'auth-2', params: { gift: 'x', recipient: '@alice_user', max_price: '100' } }],
  ['GET', '/nft/collections'],
  ['GET', '/nft/gifts?collection=x'],
  ['GET', '/nft/gifts/x-1'],
];

function expectNested(r: Res, status: number, code: string) {
  expect(r.status, r.raw).toBe(status);
  expect(codeOf(r)).toBe(code);
  expect(r.body).toMatchObject({ detail: { code, detail: expect.any(String) } });
  expect(typeof r.body.detail).toBe('object');
  expect(r.body).not.toHaveProperty('code');
}

async function raw(svc: TestService, method: string, url: string, opts: { headers?: Record<string, string>; body?: unknown; remoteAddress?: string } = {}): Promise<Res> {
  const r = await svc.app.inject({
    method: method as never,
    url: `/api/partner/v1${url}`,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    payload: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    remoteAddress: opts.remoteAddress,
  });
  return toRes(r);
}

function orderCount(svc: TestService): number {
  return (svc.db.$client.prepare('select count(*) as n from orders').get() as { n: number }).n;
}

function ledgerCount(svc: TestService): number {
  return (svc.db.$client.prepare('select count(*) as n from ledger_entries').get() as { n: number }).n;
}

describe('partner authentication', () => {
  it('answers 401 unauthorized (nested) on every endpoint without a key or with garbage', async () => {
    t = await startService();
    const p = await t.newPartner();
    const ledgerBefore = ledgerCount(t);
    const badAuth: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer garbage' },
      { authorization: 'Bearer pk_live_garbage' },
      { authorization: `Bearer ${p.key}x` },
      { authorization: `Bearer ${p.key.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`user:${p.key}`).toString('base64')}` },
      { authorization: p.key },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
      { 'x-api-key': p.key },
    ];
    for (const [method, url, body] of ENDPOINTS) {
      for (const headers of badAuth) {
        const r = await raw(t, method, url, { headers, body });
        expectNested(r, 401, 'unauthorized');
      }
    }
    expect(orderCount(t)).toBe(0);
    expect(ledgerCount(t)).toBe(ledgerBefore);
    // the same key, well formed, works on every endpoint
    expect((await p.call('GET', '/me')).status).toBe(200);
  });

  it('revokes the old key at once when a new one is issued; the new key works', async () => {
    t = await startService();
    const p = await t.newPartner();
    expect((await p.call('GET', '/me')).status).toBe(200); // cached as live
    const k = await t.admin('POST', `/partners/${p.id}/keys`, {});
    expect(k.status).toBe(201);
    expect(k.body).toMatchObject({ key_id: expect.any(String), api_key: expect.stringMatching(/^pk_live_/) });
    expect(k.body.api_key).not.toBe(p.key);
    for (const [method, url, body] of ENDPOINTS) expectNested(await t.partnerCall(p.key, method, url, body), 401, 'unauthorized');
    const me = await t.partnerCall(k.body.api_key, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(me.body.partner_id).toBe(p.id);
    // the view lists both keys, the old one revoked
    const view = await t.admin('GET', `/partners/${p.id}`);
    expect(view.body.keys).toHaveLength(2);
    const live = view.body.keys.filter((x: any) => x.revoked_at === null);
    expect(live).toHaveLength(1);
    expect(live[0].key_id).toBe(k.body.key_id);
    const revoked = view.body.keys.find((x: any) => x.revoked_at !== null);
    expect(revoked.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    // a third issue revokes the second
    const k3 = await t.admin('POST', `/partners/${p.id}/keys`, {});
    expectNested(await t.partnerCall(k.body.api_key, 'GET', '/me'), 401, 'unauthorized');
    expect((await t.partnerCall(k3.body.api_key, 'GET', '/me')).status).toBe(200);
  });

  it('issues no key before the first top-up: 409 partner_inactive', async () => {
    t = await startService();
    const c = await t.admin('POST', '/partners', { name: 'Not yet' });
    const id = c.body.partner_id;
    const r = await t.admin('POST', `/partners/${id}/keys`, {});
    expect(r.status, r.raw).toBe(409);
    expect(codeOf(r)).toBe('partner_inactive');
    expect(r.body).toEqual({ code: 'partner_inactive', detail: expect.any(String) }); // operator API: flat
    expect(JSON.stringify(r.body)).not.toMatch(/pk_live_/);
    expect(t.db.$client.prepare('select count(*) as n from api_keys').get()).toEqual({ n: 0 });
    // after the first top-up the key is issued
    expect((await t.admin('POST', `/partners/${id}/topups`, { currency: 'TON', amount: '10', network: 'ton', tx_hash: 'auth-first' })).status).toBe(201);
    const k = await t.admin('POST', `/partners/${id}/keys`, {});
    expect(k.status).toBe(201);
    expect((await t.partnerCall(k.body.api_key, 'GET', '/me')).status).toBe(200);
  });

  it('issues high-entropy pk_live_ keys that are shown once and stored only as a hash', async () => {
    t = await startService();
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) keys.push((await t.newPartner()).key);
    const p = await t.newPartner();
    keys.push(p.key);
    for (const key of keys) {
      expect(key).toMatch(/^pk_live_[A-Za-z0-9_-]+$/);
      // at least 128 bits of randomness after the prefix (base64url: 6 bits per character)
      expect((key.length - 'pk_live_'.length) * 6).toBeGreaterThanOrEqual(128);
      expect(new Set(key.slice(8)).size).toBeGreaterThan(15);
    }
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys.map((k) => k.slice(8, 16))).size).toBe(keys.length);

    const view = await t.admin('GET', `/partners/${p.id}`);
    expect(view.status).toBe(200);
    expect(view.body.keys).toHaveLength(1);
    const k = view.body.keys[0];
    expect(Object.keys(k).sort()).toEqual(['created_at', 'ip_whitelist', 'key_id', 'prefix', 'revoked_at']);
    expect(k).toMatchObject({ key_id: expect.any(String), ip_whitelist: [], revoked_at: null });
    expect(k.prefix.startsWith('pk_live_')).toBe(true);
    expect(p.key.startsWith(k.prefix)).toBe(true);
    expect(k.prefix.length).toBeLessThan(p.key.length - 16);
    expect(view.raw).not.toContain(p.key);
    expect(view.raw).not.toContain(p.key.slice(8));

    const rows = t.db.$client.prepare('select * from api_keys').all() as Record<string, unknown>[];
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      for (const v of Object.values(row)) {
        for (const key of keys) {
          expect(v).not.toBe(key);
          if (typeof v === 'string') expect(v.includes(key.slice(8))).toBe(false);
        }
      }
    }
    // nothing else in the database holds a key either
    const dump = JSON.stringify(
      (t.db.$client.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((tb) =>
        t!.db.$client.prepare(`select * from "${tb.name}"`).all(),
      ),
    );
    for (const key of keys) expect(dump).not.toContain(key.slice(8));
  });
});

describe('IP whitelist', () => {
  it('refuses a caller outside the whitelist with 403 ip_not_allowed (nested)', async () => {
    t = await startService();
    const p = await t.newPartner({ ipWhitelist: ['10.1.2.0/24'] });
    for (const [method, url, body] of ENDPOINTS) {
      const r = await raw(t, method, url, { headers: { authorization: `Bearer ${p.key}` }, body }); // 127.0.0.1
      expectNested(r, 403, 'ip_not_allowed');
    }
    expect(orderCount(t)).toBe(0);
    // X-Forwarded-For is ignored without TRUST_PROXY
    expectNested(await p.call('GET', '/me', undefined, { 'x-forwarded-for': '10.1.2.7' }), 403, 'ip_not_allowed');
    // a caller inside the range passes; just outside it does not
    expect((await raw(t, 'GET', '/me', { headers: { authorization: `Bearer ${p.key}` }, remoteAddress: '10.1.2.7' })).status).toBe(200);
    expect((await raw(t, 'GET', '/me', { headers: { authorization: `Bearer ${p.key}` }, remoteAddress: '::ffff:10.1.2.200' })).status).toBe(200);
    expectNested(await raw(t, 'GET', '/me', { headers: { authorization: `Bearer ${p.key}` }, remoteAddress: '10.1.3.7' }), 403, 'ip_not_allowed');
    // a bad key still reads 401 before the whitelist is considered
    expectNested(await raw(t, 'GET', '/me', { headers: { authorization: 'Bearer pk_live_nope' }, remoteAddress: '10.9.9.9' }), 401, 'unauthorized');
    // the whitelist is shown canonically in the partner view
    expect((await t.admin('GET', `/partners/${p.id}`)).body.keys[0].ip_whitelist).toEqual(['10.1.2.0/24']);
  });

  it('lets a whitelisted single address (IPv4 and IPv6) through', async () => {
    t = await startService();
    const p = await t.newPartner({ ipWhitelist: ['127.0.0.1', '::1'] });
    const me = await p.call('GET', '/me');
    expect(me.status).toBe(200);
    expect(me.body.partner_id).toBe(p.id);
    expect((await raw(t, 'GET', '/me', { headers: { authorization: `Bearer ${p.key}` }, remoteAddress: '::1' })).status).toBe(200);
    expectNested(await raw(t, 'GET', '/me', { headers: { authorization: `Bearer ${p.key}` }, remoteAddress: '127.0.0.2' }), 403, 'ip_not_allowed');
  });

  it('with TRUST_PROXY=1 takes the caller IP from X-Forwarded-For', async () => {
    t = await startService({ TRUST_PROXY: '1' });
    const p = await t.newPartner({ ipWhitelist: ['10.1.2.0/24'] });
    const ok = await p.call('GET', '/me', undefined, { 'x-forwarded-for': '10.1.2.7' });
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.partner_id).toBe(p.id);
    expectNested(await p.call('GET', '/me', undefined, { 'x-forwarded-for': '192.168.5.5' }), 403, 'ip_not_allowed');
    expectNested(await p.call('GET', '/me'), 403, 'ip_not_allowed');
  });

  it('refuses an invalid whitelist entry with 400 and keeps the current key', async () => {
    t = await startService();
    const p = await t.newPartner();
    for (const wl of [['10.1.2.0/33'], ['not-an-ip'], ['10.1.2.300'], [''], [42], '10.0.0.0/8']) {
      const r = await t.admin('POST', `/partners/${p.id}/keys`, { ip_whitelist: wl });
      expect(r.status, JSON.stringify(wl)).toBe(400);
      expect(r.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
      expect(JSON.stringify(r.body)).not.toMatch(/pk_live_/);
    }
    expect((await p.call('GET', '/me')).status).toBe(200);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.keys).toHaveLength(1);
  });
});

describe('program availability', () => {
  it('PUT /settings {program_available:false} gives 403 partner_program_unavailable (nested) on every endpoint; true restores', async () => {
    t = await startService();
    const p = await t.newPartner();
    const off = await t.admin('PUT', '/settings', { program_available: false });
    expect(off.status).toBe(200);
    expect(off.body.program_available).toBe(false);
    const ledgerBefore = ledgerCount(t);
    for (const [method, url, body] of ENDPOINTS) expectNested(await p.call(method, url, body), 403, 'partner_program_unavailable');
    expect(orderCount(t)).toBe(0);
    expect(ledgerCount(t)).toBe(ledgerBefore);
    // an invalid key is still 401
    expectNested(await t.partnerCall('pk_live_nope', 'GET', '/me'), 401, 'unauthorized');
    const on = await t.admin('PUT', '/settings', { program_available: true });
    expect(on.status).toBe(200);
    expect(on.body.program_available).toBe(true);
    expect((await p.call('GET', '/me')).status).toBe(200);
    const o = await p.order('stars', { quantity: 100, recipient: '@alice_user' });
    expect(o.status, o.raw).toBe(200);
  });

  it('the setting survives a restart', async () => {
    t = await startService();
    const p = await t.newPartner();
    expect((await t.admin('PUT', '/settings', { program_available: false })).status).toBe(200);
    await stopService(t, false);
    t = await startService(t.env, { dir: t.dir });
    expectNested(await t.partnerCall(p.key, 'GET', '/me'), 403, 'partner_program_unavailable');
  });
});

describe('operator API authentication', () => {
  const ADMIN_CALLS: [string, string, unknown?][] = [
    ['POST', '/partners', { name: 'x' }],
    ['GET', '/partners/1'],
    ['POST', '/partners/1/topups', { currency: 'USD', amount: '10.00', network: 'ton', tx_hash: 'adm-1' }],
    ['POST', '/partners/1/keys', {}],
    ['GET', '/partners/1/ledger'],
    ['GET', '/settings'],
    ['PUT', '/settings', { program_available: false }],
    ['GET', '/ledger/check'],
    ['GET', '/reviews'],
    ['GET', '/webhook-deliveries'],
    ['GET', '/sandbox/clock'],
    ['POST', '/sandbox/clock/advance', { seconds: 60 }],
  ];

  async function adminRaw(svc: TestService, method: string, url: string, body: unknown, headers: Record<string, string>): Promise<Res> {
    const r = await svc.app.inject({
      method: method as never,
      url: `/api/admin/v1${url}`,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return toRes(r);
  }

  it('answers 401 unauthorized (nested) without the token or with a wrong one, changing nothing', async () => {
    t = await startService();
    const p = await t.newPartner();
    const before = (await t.admin('GET', '/sandbox/clock')).body.now;
    for (const [method, url, body] of ADMIN_CALLS) {
      const headerSets: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: `Bearer ${ADMIN_TOKEN}x` }, { authorization: ADMIN_TOKEN }, { authorization: `Bearer ${p.key}` }];
      for (const headers of headerSets) {
        expectNested(await adminRaw(t, method, url, body, headers), 401, 'unauthorized');
      }
    }
    expect((await t.admin('GET', '/sandbox/clock')).body.now).toBe(before);
    expect((await t.admin('GET', '/settings')).body.program_available).toBe(true);
    expect(t.db.$client.prepare('select count(*) as n from partners').get()).toEqual({ n: 1 });
  });

  it('with no ADMIN_TOKEN configured the operator API answers 401 to everyone', async () => {
    t = await startService({ ADMIN_TOKEN: '' });
    const headerSets: Record<string, string>[] = [{}, { authorization: `Bearer ${ADMIN_TOKEN}` }, { authorization: 'Bearer ' }];
    for (const headers of headerSets) {
      expectNested(await adminRaw(t, 'GET', '/settings', undefined, headers), 401, 'unauthorized');
    }
  });
});
