import { describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/app/app-access.js';
import { redeemInvite } from '../../src/app/invites.js';
import { codeOf } from '../helpers.js';
import { appWorld, raw } from './app-helpers.js';

/**
 * The Mini App's origin check trusts PUBLIC_BASE_URL only (never the request's own Host or
 * X-Forwarded-Host), and a sign-in link says whom it signs in as before it is spent.
 */
const w = appWorld();
const ORIGIN = 'http://127.0.0.1:8080'; // PUBLIC_BASE_URL's origin in the tests

describe('Mini App origin check', () => {
  it("a request whose Origin matches only its own Host is refused, with or without a trusted proxy's X-Forwarded-Host", async () => {
    for (const env of [{}, { TRUST_PROXY: '1' }] as Record<string, string>[]) {
      const { t, owner } = await w.start(env);
      const token = createSignInLink(t.deps, owner.id).token;
      for (const headers of [
        { host: 'evil.example', origin: 'http://evil.example' } as Record<string, string>,
        { host: 'evil.example:8080', origin: 'http://evil.example:8080' },
        { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', origin: 'https://evil.example' },
      ]) {
        for (const path of ['/sign-in', '/sign-in/preview']) {
          const r = await raw(t, 'POST', path, { token }, headers);
          expect(r.status, `${path} ${JSON.stringify(headers)} ${JSON.stringify(env)}`).toBe(403);
          expect(codeOf(r)).toBe('forbidden');
        }
      }
      // the link was not spent by the refused attempts
      const ok = await raw(t, 'POST', '/sign-in', { token }, { origin: ORIGIN });
      expect(ok.status, ok.raw).toBe(200);
      // a cookie-authenticated write from a page claiming the request's own Host is refused too
      const cookie = String(([] as string[]).concat(ok.headers['set-cookie'] as string)[0]).split(';')[0];
      const forged = await raw(t, 'POST', '/sign-out', {}, { cookie, host: 'evil.example', origin: 'http://evil.example' });
      expect(forged.status).toBe(403);
      expect((await raw(t, 'GET', '/session', undefined, { cookie })).status).toBe(200);
    }
  });
});

describe('sign-in link preview', () => {
  it('names the person and the partner without spending the link; the link then signs in once', async () => {
    const { t, p } = await w.start();
    const inv = await t.admin('POST', `/partners/${p.id}/invites`, { role: 'owner' });
    redeemInvite(t.deps, inv.body.code, 777001, 777001, 'en', 'Alice Liddell (@alice)');
    const token = createSignInLink(t.deps, 777001).token;
    for (let i = 0; i < 2; i++) {
      const v = await raw(t, 'POST', '/sign-in/preview', { token }, { origin: ORIGIN });
      expect(v.status, v.raw).toBe(200);
      expect(v.body).toEqual({ user: { telegram_id: 777001, name: 'Alice Liddell (@alice)' }, partner: { name: 'Test partner' } });
      expect(v.headers['set-cookie']).toBeUndefined();
    }
    const s = await raw(t, 'POST', '/sign-in', { token }, { origin: ORIGIN });
    expect(s.status).toBe(200);
    expect(s.body.user.telegram_id).toBe(777001);
    // spent: the preview now refuses it like the sign-in
    expect(codeOf(await raw(t, 'POST', '/sign-in/preview', { token }, { origin: ORIGIN }))).toBe('unauthorized');
  });

  it('an unknown person is named by id; expired and bad links are 401; it needs the Origin', async () => {
    const { t, owner } = await w.start();
    const link = createSignInLink(t.deps, owner.id);
    const v = await raw(t, 'POST', '/sign-in/preview', { token: link.token }, { origin: ORIGIN });
    expect(v.body).toEqual({ user: { telegram_id: owner.id, name: null }, partner: { name: 'Test partner' } });
    expect(codeOf(await raw(t, 'POST', '/sign-in/preview', { token: link.token }))).toBe('forbidden');
    for (const token of [undefined, 5, 'short', 'a'.repeat(32)]) expect(codeOf(await raw(t, 'POST', '/sign-in/preview', { token }, { origin: ORIGIN }))).toBe('unauthorized');
    await t.advance(600);
    expect(codeOf(await raw(t, 'POST', '/sign-in/preview', { token: link.token }, { origin: ORIGIN }))).toBe('unauthorized');
  });
});
