import { describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/app/app-access.js';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { START, codeOf } from '../helpers.js';
import { appWorld, asUser, initData, OTHER_BOT_TOKEN, raw } from './app-helpers.js';

const w = appWorld();
const ORIGIN = 'http://127.0.0.1:8080';

describe('Mini App API: initData', () => {
  it('a linked user gets their session: user, role and partner', async () => {
    const { t, p, owner, staff } = await w.start();
    const r = await owner.call('GET', '/session');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: { telegram_id: owner.id, role: 'owner', operator: false }, partner: { partner_id: p.id, name: 'Test partner', status: 'active' } });
    expect((await staff.call('GET', '/session')).body.user).toEqual({ telegram_id: staff.id, role: 'staff', operator: false });
    void t;
  });

  it('missing, malformed, tampered, expired and foreign initData: 401 unauthorized, nested', async () => {
    const { t, owner } = await w.start();
    const expectUnauthorized = async (headers: Record<string, string>) => {
      const r = await raw(t, 'GET', '/session', undefined, headers);
      expect(r.status).toBe(401);
      expect(r.body.detail.code).toBe('unauthorized');
      expect(typeof r.body.detail.detail).toBe('string');
    };
    await expectUnauthorized({});
    await expectUnauthorized({ authorization: 'Bearer pk_live_x' });
    await expectUnauthorized({ authorization: 'tma ' });
    await expectUnauthorized({ authorization: 'tma not-init-data' });
    // tampered: another user id under the same hash
    const tampered = owner.tma.replace(encodeURIComponent(`"id":${owner.id}`), encodeURIComponent(`"id":${owner.id + 1}`));
    expect(tampered).not.toBe(owner.tma);
    await expectUnauthorized({ authorization: `tma ${tampered}` });
    // hash changed by one digit
    const h = owner.tma.replace(/hash=([0-9a-f])/, (_m, c) => `hash=${c === '0' ? '1' : '0'}`);
    await expectUnauthorized({ authorization: `tma ${h}` });
    // signed with another bot's token
    await expectUnauthorized({ authorization: `tma ${initData(owner.id, { token: OTHER_BOT_TOKEN })}` });
    // older than APP_INIT_DATA_MAX_AGE_SECONDS (3600) by auth_date
    await expectUnauthorized({ authorization: `tma ${initData(owner.id, { authDate: START - 3601_000 })}` });
    expect((await raw(t, 'GET', '/session', undefined, { authorization: `tma ${initData(owner.id, { authDate: START - 3599_000 })}` })).status).toBe(200);
    // dated more than a minute ahead of the service clock
    await expectUnauthorized({ authorization: `tma ${initData(owner.id, { authDate: START + 120_000 })}` });
    expect((await raw(t, 'GET', '/session', undefined, { authorization: `tma ${initData(owner.id, { authDate: START + 30_000 })}` })).status).toBe(200);
    // a field added after signing
    await expectUnauthorized({ authorization: `tma ${owner.tma}&chat_type=private` });
    // the same data expires as the service clock moves
    await t.advance(3601);
    await expectUnauthorized({ authorization: `tma ${owner.tma}` });
  });

  it('APP_INIT_DATA_MAX_AGE_SECONDS sets the age limit', async () => {
    const { t, owner } = await w.start({ APP_INIT_DATA_MAX_AGE_SECONDS: '60' });
    const once = { authorization: `tma ${owner.tma}` };
    expect((await raw(t, 'GET', '/session', undefined, once)).status).toBe(200);
    await t.advance(61);
    expect((await raw(t, 'GET', '/session', undefined, once)).status).toBe(401);
    expect((await owner.call('GET', '/session')).status).toBe(200);
  });

  it('APP_INIT_DATA_MAX_AGE_SECONDS and APP_RATE_LIMIT: defaults, and a bad value stops start-up naming the variable', () => {
    expect(loadConfig({})).toMatchObject({ APP_INIT_DATA_MAX_AGE_SECONDS: 3600, APP_RATE_LIMIT: 120 });
    for (const [name, value] of [['APP_INIT_DATA_MAX_AGE_SECONDS', '0'], ['APP_INIT_DATA_MAX_AGE_SECONDS', '1h'], ['APP_RATE_LIMIT', '-5']]) {
      let err: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).lines).toEqual([expect.stringContaining(name)]);
    }
  });

  it('a valid user who is not linked: 403 not_linked; unlinked users lose access at once', async () => {
    const { t, owner, staff } = await w.start();
    const stranger = asUser(t, 42);
    const r = await stranger.call('GET', '/session');
    expect(r.status).toBe(403);
    expect(r.body.detail.code).toBe('not_linked');
    expect((await stranger.call('GET', '/balances')).body.detail.code).toBe('not_linked');
    expect((await owner.call('DELETE', `/team/${staff.id}`)).status).toBe(200);
    expect(codeOf(await staff.call('GET', '/session'))).toBe('not_linked');
  });

  it('without a bot token the app API refuses everyone (401)', async () => {
    const { t, owner } = await w.start({ TELEGRAM_BOT_TOKEN: '' });
    expect((await owner.call('GET', '/session')).status).toBe(401);
    void t;
  });
});

describe('Mini App API: one-time sign-in link and session cookie', () => {
  function cookieOf(r: { headers: Record<string, unknown> }): string {
    const c = r.headers['set-cookie'];
    return Array.isArray(c) ? c[0] : String(c);
  }

  it('the link signs in once; the cookie is HttpOnly, SameSite=Strict, 12 h; it authenticates reads', async () => {
    const { t, p, owner } = await w.start();
    const link = createSignInLink(t.deps, owner.id);
    expect(link.url).toBe(`http://127.0.0.1:8080/app/#signin=${link.token}`);
    const r = await raw(t, 'POST', '/sign-in', { token: link.token }, { origin: ORIGIN });
    expect(r.status).toBe(200);
    expect(r.body.partner.partner_id).toBe(p.id);
    const c = cookieOf(r);
    expect(c).toMatch(/^app_session=[A-Za-z0-9_-]{40,}; Max-Age=43200; Path=\/api\/app\/v1; HttpOnly; SameSite=Strict$/);
    const cookie = c.split(';')[0];
    expect((await raw(t, 'GET', '/session', undefined, { cookie })).body.user.telegram_id).toBe(owner.id);
    // single use
    const again = await raw(t, 'POST', '/sign-in', { token: link.token }, { origin: ORIGIN });
    expect(again.status).toBe(401);
    expect(again.body.detail.code).toBe('unauthorized');
    // the session ends after 12 h
    await t.advance(12 * 3600 - 1);
    expect((await raw(t, 'GET', '/balances', undefined, { cookie })).status).toBe(200);
    await t.advance(1);
    expect((await raw(t, 'GET', '/balances', undefined, { cookie })).status).toBe(401);
  });

  it('a link is valid for 10 minutes; bad tokens are 401', async () => {
    const { t, owner } = await w.start();
    const link = createSignInLink(t.deps, owner.id);
    await t.advance(600);
    expect((await raw(t, 'POST', '/sign-in', { token: link.token }, { origin: ORIGIN })).status).toBe(401);
    for (const token of [undefined, 5, '', 'short', 'x'.repeat(500), 'a'.repeat(32)])
      expect(codeOf(await raw(t, 'POST', '/sign-in', { token }, { origin: ORIGIN }))).toBe('unauthorized');
    expect(codeOf(await raw(t, 'POST', '/sign-in', '[1]', { origin: ORIGIN }))).toBe('validation_error');
    expect(codeOf(await raw(t, 'POST', '/sign-in', '{bad', { origin: ORIGIN }))).toBe('bad_json');
    expect(codeOf(await raw(t, 'GET', '/session', undefined, { cookie: 'app_session=nonsense' }))).toBe('unauthorized');
    expect(codeOf(await raw(t, 'GET', '/session', undefined, { cookie: `app_session=${'a'.repeat(43)}` }))).toBe('unauthorized');
  });

  it('behind https the cookie is Secure', async () => {
    const { t, owner } = await w.start({ PUBLIC_BASE_URL: 'https://dash.example.com' });
    const link = createSignInLink(t.deps, owner.id);
    expect(link.url.startsWith('https://dash.example.com/app/#signin=')).toBe(true);
    const r = await raw(t, 'POST', '/sign-in', { token: link.token }, { origin: 'https://dash.example.com' });
    expect(r.status).toBe(200);
    expect(cookieOf(r)).toMatch(/; Secure/);
  });

  it('cookie writes from another site are refused (Origin, Sec-Fetch-Site); the header-authenticated ones need no Origin', async () => {
    const { t, owner } = await w.start();
    const s = await raw(t, 'POST', '/sign-in', { token: createSignInLink(t.deps, owner.id).token }, { origin: ORIGIN });
    const cookie = cookieOf(s).split(';')[0];
    const body = { url: 'https://hooks.example.com/x' };
    for (const h of [{} as Record<string, string>, { origin: 'https://evil.example' }, { origin: ORIGIN, 'sec-fetch-site': 'cross-site' }, { origin: 'null' }]) {
      const r = await raw(t, 'PUT', '/webhook', body, { cookie, ...h });
      expect(r.status).toBe(403);
      expect(r.body.detail.code).toBe('forbidden');
    }
    // nothing was saved
    expect((await raw(t, 'GET', '/webhook', undefined, { cookie })).body).toEqual({ url: null, has_secret: false, events: ['order.completed', 'order.failed', 'order.refunded'] });
    const ok = await raw(t, 'PUT', '/webhook', body, { cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(200);
    expect(ok.body.secret).toMatch(/^whsec_/);
    // sign-in itself is refused from another site too
    expect((await raw(t, 'POST', '/sign-in', { token: createSignInLink(t.deps, owner.id).token }, { origin: 'https://evil.example' })).status).toBe(403);
    // initData in the header: no Origin needed
    expect((await owner.call('PUT', '/webhook', body)).status).toBe(200);
  });

  it('sign-out ends the session', async () => {
    const { t, owner } = await w.start();
    const s = await raw(t, 'POST', '/sign-in', { token: createSignInLink(t.deps, owner.id).token }, { origin: ORIGIN });
    const cookie = cookieOf(s).split(';')[0];
    const out = await raw(t, 'POST', '/sign-out', {}, { cookie, origin: ORIGIN });
    expect(out.status).toBe(200);
    expect(cookieOf(out)).toMatch(/^app_session=; Max-Age=0/);
    expect((await raw(t, 'GET', '/session', undefined, { cookie })).status).toBe(401);
  });
});

describe('Mini App API: rate limit per Telegram user', () => {
  it('APP_RATE_LIMIT per user per minute, 429 rate_limited with Retry-After; other users unaffected', async () => {
    const { t, owner, staff } = await w.start({ APP_RATE_LIMIT: '3' });
    for (let i = 0; i < 3; i++) expect((await owner.call('GET', '/balances')).status).toBe(200);
    const r = await owner.call('GET', '/balances');
    expect(r.status).toBe(429);
    expect(r.body.detail).toMatchObject({ code: 'rate_limited', scope: 'app_user', limit: 3, window_seconds: 60 });
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect((await staff.call('GET', '/balances')).status).toBe(200);
    await t.advance(60);
    expect((await owner.call('GET', '/balances')).status).toBe(200);
  });

  it('unknown routes and bad JSON: the contract errors', async () => {
    const { owner } = await w.start();
    const r = await owner.call('GET', '/nope');
    expect(r.status).toBe(404);
    expect(r.body.detail.code).toBe('route_not_found');
    const b = await owner.call('POST', '/orders', '{"type":');
    expect(b.status).toBe(400);
    expect(b.body.detail.code).toBe('bad_json');
  });
});
