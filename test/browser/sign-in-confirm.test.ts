import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/app/app-access.js';
import { redeemInvite } from '../../src/app/invites.js';
import { stopService, type TestService } from '../helpers.js';
import { CHROMIUM, startStand } from './browser-helpers.js';

/**
 * Outside Telegram, a one-time sign-in link first asks "Sign in as <name>?" (in the browser's language):
 * Cancel spends nothing and sets no cookie; Sign in opens the dashboard.
 */
const have = fs.existsSync(CHROMIUM);

let t: TestService;
let browser: Browser;
let base: string;
const USER = 880001;

beforeAll(async () => {
  if (!have) return;
  ({ t, base, browser } = await startStand());
  const p = await t.newPartner();
  const inv = await t.admin('POST', `/partners/${p.id}/invites`, { role: 'owner' });
  redeemInvite(t.deps, inv.body.code, USER, USER, 'en', 'Alice Liddell');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopService(t);
});

describe.runIf(have)('sign-in link confirmation', { timeout: 120_000 }, () => {
  it('English: asks first; Cancel leaves the link unspent and no cookie; Sign in opens the dashboard', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const link = createSignInLink(t.deps, USER);
    await page.goto(link.url);
    const ask = page.getByTestId('signin-confirm');
    await ask.getByRole('heading', { name: 'Sign in as Alice Liddell?' }).waitFor();
    expect(await ask.innerText()).toContain('You will work in the dashboard of Test partner.');
    expect(await ask.innerText()).toContain('Go on only if you asked for this link yourself: in the bot, or printed by the service\'s demo start.');
    expect(page.url()).toBe(`${base}/app/`); // the token left the address bar
    await page.getByTestId('signin-no').click();
    await page.getByTestId('signin').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'app_session')).toBeUndefined();

    // the link opened again (a new tab: the same page would only change its fragment)
    const again = await context.newPage();
    await again.goto(link.url);
    await again.getByTestId('signin-yes').click();
    await again.getByTestId('balances').getByText('USD').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'app_session')).toBeDefined();
    await context.close();
  });

  it('Russian: «Войти как …?»', async () => {
    const context = await browser.newContext({ locale: 'ru-RU' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(createSignInLink(t.deps, USER).url);
    await page.getByTestId('signin-confirm').getByRole('heading', { name: 'Войти как Alice Liddell?' }).waitFor();
    expect(await page.getByTestId('signin-yes').innerText()).toBe('Войти');
    expect(await page.getByTestId('signin-no').innerText()).toBe('Отмена');
    await context.close();
  });
});
