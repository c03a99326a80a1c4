import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopService, type TestService } from '../helpers.js';
import { BOT_TOKEN, linkUser, type AppUser } from '../app-api/app-helpers.js';
import { CHROMIUM, openInTelegram, startStand } from './browser-helpers.js';

/**
 * Older Telegram clients send initData without a `signature` field (it came with Ed25519 third-party
 * validation); the service checks the `hash` either way, and the page signs in with such data instead of
 * saying "Open the dashboard from the bot". The data is signed here by hand (Telegram's algorithm).
 */
const have = fs.existsSync(CHROMIUM);

let t: TestService;
let base: string;
let staff: AppUser;
let browser: Browser;

beforeAll(async () => {
  if (!have) return;
  ({ t, base, browser } = await startStand());
  const p = await t.newPartner();
  staff = await linkUser(t, p, 'staff');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (t) await stopService(t);
});

/** initData as an older client sends it: no `signature`, only the fields and their HMAC `hash`. */
function withoutSignature(userId: number, authDateMs: number, language: string): string {
  const pairs: [string, string][] = [
    ['auth_date', String(Math.floor(authDateMs / 1000))],
    ['query_id', 'AAH-older-client'],
    ['user', JSON.stringify({ id: userId, first_name: `User${userId}`, language_code: language })],
  ];
  const key = crypto.createHmac('sha256', 'WebAppData').update(BOT_TOKEN).digest();
  const hash = crypto.createHmac('sha256', key).update(pairs.map(([k, v]) => `${k}=${v}`).join('\n')).digest('hex');
  return new URLSearchParams([...pairs, ['hash', hash]]).toString();
}

describe.runIf(have)('an older Telegram client (no signature in initData)', { timeout: 120_000 }, () => {
  it('the Mini App signs in and works, in the user’s language; the service checked the hash', async () => {
    const data = withoutSignature(staff.id, t.deps.clock.now(), 'ru');
    expect(data).not.toContain('signature');
    const r = await t.app.inject({ method: 'GET', url: '/api/app/v1/session', headers: { authorization: `tma ${data}` } });
    expect(r.statusCode).toBe(200);
    const tampered = data.replace('User', 'Usr');
    expect((await t.app.inject({ method: 'GET', url: '/api/app/v1/session', headers: { authorization: `tma ${tampered}` } })).statusCode).toBe(401);

    const app = await openInTelegram(browser, t, base, staff.id, 'light', { initData: data });
    const { page } = app;
    await page.getByTestId('balances').getByText('1000.000').waitFor();
    expect(await page.getByText('Open the dashboard from the bot').count()).toBe(0);
    // the user's language from the init data, and Telegram's buttons still driven by the SDK
    expect(await page.getByTestId('tab-order').innerText()).toMatch(/[а-яё]/i);
    expect((await app.events()).some(([type]) => type === 'web_app_ready')).toBe(true);
    await app.context.close();
  });
});
