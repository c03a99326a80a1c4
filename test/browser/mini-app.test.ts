import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/app/app-access.js';
import { freePort, startService, stopService, type TestPartner, type TestService } from '../helpers.js';
import { BOT_TOKEN, linkUser, type AppUser } from '../app/app-helpers.js';
import { CHROMIUM, ensureWebappBuilt, launch, mainButton, openInTelegram, type TgPage } from './browser-helpers.js';

/**
 * The Mini App end to end in a real headless Chromium (Debian's package, driven by playwright-core):
 * the built pages served by the service, opened with a Telegram WebApp environment and real signed initData.
 */
const have = fs.existsSync(CHROMIUM);
if (!have) console.warn(`skipping the browser tests: ${CHROMIUM} is missing (.ci/run installs the chromium package)`);

let t: TestService;
let p: TestPartner;
let owner: AppUser;
let staff: AppUser;
let browser: Browser;
let base: string;

beforeAll(async () => {
  if (!have) return;
  ensureWebappBuilt();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startService({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, PUBLIC_BASE_URL: base, APP_RATE_LIMIT: '100000' });
  await t.app.listen({ port, host: '127.0.0.1' });
  p = await t.newPartner();
  owner = await linkUser(t, p, 'owner');
  staff = await linkUser(t, p, 'staff');
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopService(t);
});

async function closeAll(...pages: TgPage[]) {
  for (const x of pages) await x.context.close();
}

describe.runIf(have)('the Mini App in Chromium', { timeout: 120_000 }, () => {
  it('a staff member finds a gift through the filters, buys it and sees it complete', async () => {
    const app = await openInTelegram(browser, t, base, staff.id, 'light');
    const { page } = app;
    await page.getByTestId('balances').getByText('1000.000').waitFor();
    await app.shot('home');
    // staff see no owner tabs
    expect(await page.getByTestId('tab-api').count()).toBe(0);
    await page.getByTestId('tab-order').click();
    await page.getByTestId('gift-grid').locator('.tile').first().waitFor();
    const total = Number((await page.getByTestId('gift-total').innerText()).match(/\d+/)![0]);
    expect(total).toBe(750);

    // the filters narrow the grid: collection, then a model and a backdrop offered for it
    await page.getByTestId('f-collection').selectOption('HomemadeCake');
    await page.getByTestId('gift-total').getByText('150').waitFor();
    const model = await page.getByTestId('f-model').locator('option').nth(1).evaluate((o) => (o as HTMLOptionElement).value);
    await page.getByTestId('f-model').selectOption(model!);
    await page.waitForFunction((m) => [...document.querySelectorAll('[data-testid=gift-total]')].some((e) => !/\b150\b/.test(e.textContent ?? '')), model);
    const filtered = await t.app.inject({ method: 'GET', url: `/api/app/v1/gifts?collection=HomemadeCake&model=${encodeURIComponent(model!)}&limit=100`, headers: { authorization: `tma ${staff.tma}` } });
    const expected = JSON.parse(filtered.body);
    await page.getByTestId('gift-total').getByText(String(expected.total)).waitFor();
    const tiles = page.getByTestId('gift-grid').locator('.tile');
    expect(await tiles.count()).toBe(Math.min(24, expected.total));
    // every picture is the sandbox's SVG of that gift, and loads
    const first = expected.items[0];
    const img = tiles.first().locator('img');
    expect(await img.getAttribute('src')).toBe(`${base}/sandbox/gifts/${first.gift}.svg`);
    await page.waitForFunction(() => [...document.querySelectorAll('.tile img')].slice(0, 4).every((i) => (i as HTMLImageElement).naturalWidth > 0));
    await app.shot('order-gifts');

    await tiles.first().click();
    await page.getByTestId('gift-title').getByText(`#${first.num}`).waitFor();
    await page.getByTestId('recipient').fill('alice_w');
    await page.getByTestId('recipient-state').getByText('Found').waitFor();
    await page.getByTestId('price').getByText(`${first.partner_price} TON`).waitFor();
    await page.getByTestId('tolerance').selectOption('5');
    const maxPrice = (Math.ceil(Math.round(Number(first.partner_price) * 1000) * 1.05) / 1000).toFixed(3);
    await page.getByTestId('max-price').getByText(`${maxPrice} TON`).waitFor();
    // the confirmation is Telegram's main button
    await page.waitForFunction(() => {
      const ev = (window as any).__tgEvents.filter((e: any) => e[0] === 'web_app_setup_main_button').at(-1);
      return ev && ev[1].is_visible && ev[1].is_active;
    });
    expect((await mainButton(app))!.text).toBe(`Buy · ${first.partner_price} TON`);
    await app.shot('gift-detail');
    // a double tap: one order
    await app.pressMain();
    await app.pressMain();
    await page.getByTestId('order-status').waitFor();
    const orders = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/app/v1/orders?type=nft', headers: { authorization: `tma ${staff.tma}` } })).body);
    expect(orders.count).toBe(1);
    expect(orders.items[0]).toMatchObject({ status: 'processing', gift: { gift: first.gift } });
    expect(orders.items[0].partner_price).toBe(first.partner_price);

    // the sandbox clock moves; the page follows the order to its end
    for (let i = 0; i < 10; i++) await t.advance(5);
    await page.getByTestId('order-status').getByText('Completed').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('timeline').locator('li.done').count()).toBe(9);
    await app.shot('order-detail');
    // Telegram's back button leads back
    await app.pressBack();
    await closeAll(app);
  });

  it('an owner issues a key and sets a webhook, and sees the secret once', async () => {
    const app = await openInTelegram(browser, t, base, owner.id, 'dark');
    const { page } = app;
    await page.getByTestId('tab-api').click();
    await page.getByTestId('whitelist').fill('127.0.0.1, 203.0.113.0/24');
    await page.getByTestId('issue-key').click();
    const key = await page.getByTestId('api-key').innerText();
    expect(key).toMatch(/^pk_live_/);
    const me = await t.partnerCall(key, 'GET', '/me');
    expect(me.status).toBe(200);
    await page.getByTestId('key-prefix').getByText(key.slice(0, 12)).waitFor();

    await page.getByTestId('webhook-url').fill('https://hooks.example.com/partner');
    await page.getByTestId('save-webhook').click();
    const secret = await page.getByTestId('secret').innerText();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    await app.shot('api');
    // saved again: no secret; opened again: neither the key nor the secret is anywhere on the page
    await page.getByTestId('save-webhook').click();
    await page.getByText('Saved').waitFor();
    expect(await page.getByTestId('secret').count()).toBe(0);
    // the events (issue 15): the three order events are ticked; ticking balance.low opts in
    expect(await page.getByTestId('event-order.completed').isChecked()).toBe(true);
    expect(await page.getByTestId('event-balance.low').isChecked()).toBe(false);
    await page.getByTestId('event-balance.low').check();
    await page.getByTestId('save-webhook').click();
    await page.getByText('Saved').waitFor();
    const view = await t.admin('GET', `/partners/${p.id}`);
    expect(view.body.webhook.events).toEqual(['order.completed', 'order.failed', 'order.refunded', 'balance.low']);
    await page.reload();
    await page.getByTestId('tab-api').click();
    await page.getByTestId('key-prefix').waitFor();
    expect(await page.getByTestId('event-balance.low').isChecked()).toBe(true);
    const html = await page.content();
    expect(html).not.toContain(key);
    expect(html).not.toContain(secret);
    await closeAll(app);
  });

  it('a top-up request shows the exact amount, the address, the QR code and the wallet link; USDT asks the network first', async () => {
    const app = await openInTelegram(browser, t, base, owner.id, 'light');
    const { page } = app;
    await page.getByTestId('tab-topup').click();
    await page.getByTestId('currency-TON').click();
    await page.getByTestId('topup-amount').fill('25');
    await page.getByTestId('topup-request').click();
    await page.getByTestId('amount-to-send').waitFor();
    const amount = (await page.getByTestId('amount-to-send').innerText()).split(' ')[0];
    expect(amount).toMatch(/^25\.\d{3}$/);
    const code = await page.getByTestId('comment-code').innerText();
    const address = await page.getByTestId('address').innerText();
    const nanotons = String(Math.round(Number(amount) * 1000)) + '000000';
    expect(await page.getByTestId('ton-link').getAttribute('href')).toBe(`ton://transfer/${address}?amount=${nanotons}&text=${encodeURIComponent(code)}`);
    expect(await page.getByTestId('qr').locator('svg').count()).toBe(1);
    await page.getByTestId('request-status').getByText('Waiting for the payment').waitFor();
    await app.shot('topup');
    // the payment arrives: the page shows it credited
    await t.admin('POST', '/sandbox/deposits', { network: 'ton', asset: 'TON', amount, to: address, tx_hash: 'browser-tx-1', comment: code });
    await page.getByTestId('request-status').getByText('Credited').waitFor({ timeout: 15_000 });

    await page.getByText('New request').click();
    await page.getByTestId('currency-USD').click();
    await page.getByTestId('topup-amount').fill('50');
    await page.getByTestId('topup-request').click();
    await page.getByTestId('network-trc20').waitFor();
    expect(await page.getByTestId('address').count()).toBe(0);
    await page.getByTestId('network-trc20').click();
    expect(await page.getByTestId('address').innerText()).toMatch(/^T/);
    expect(await page.getByTestId('qr').locator('svg').count()).toBe(1);
    await closeAll(app);
  });

  it('every page at phone size, light and dark, in Russian too; a desktop browser signs in with the one-time link', async () => {
    // a few orders to list: one completed, one failed and refunded, one still processing
    await p.order('stars', { quantity: 500, recipient: 'alice_w' });
    await p.order('stars', { quantity: 100, recipient: 'failstars_bob' });
    await t.advance(5);
    await p.order('premium', { months: 3, recipient: 'slow_carol' });
    for (const scheme of ['light', 'dark'] as const) {
      const app = await openInTelegram(browser, t, base, owner.id, scheme);
      const { page } = app;
      await page.getByTestId('balances').getByText('USD').waitFor();
      await app.shot('home');
      await page.getByTestId('tab-order').click();
      await page.getByTestId('gift-grid').locator('.tile').first().waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll('.tile img')].slice(0, 6).every((i) => (i as HTMLImageElement).naturalWidth > 0));
      await app.shot('order-gifts');
      await page.getByTestId('product-stars').click();
      await page.getByTestId('recipient').fill('premium_bob');
      await page.getByTestId('price').waitFor();
      await app.shot('order-stars');
      await page.getByTestId('product-premium').click();
      await page.getByTestId('recipient').fill('premium_bob');
      await page.getByTestId('recipient-state').getByText('Already has Premium', { exact: false }).waitFor();
      await app.shot('order-premium');
      await page.getByTestId('tab-orders').click();
      await page.locator('.row.tap').first().waitFor();
      await app.shot('orders');
      await page.getByTestId('tab-topup').click();
      await page.getByTestId('topup-amount').waitFor();
      await app.shot('topup-form');
      await page.getByTestId('tab-api').click();
      await page.getByTestId('webhook-url').waitFor();
      await app.shot('api-page');
      await page.getByTestId('tab-team').click();
      await page.getByTestId('invite-staff').click();
      await page.getByTestId('invite-link').waitFor();
      await app.shot('team');
      // nothing wider than the screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await closeAll(app);
    }
    const ru = await openInTelegram(browser, t, base, staff.id, 'light', { language: 'ru', width: 360, height: 740 });
    await ru.page.getByText('Последние заказы').waitFor();
    expect(await ru.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await ru.shot('home-ru-360');
    await closeAll(ru);

    // outside Telegram: the link from /app signs in once and sets the cookie
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const link = createSignInLink(t.deps, owner.id);
    await page.goto(link.url);
    await page.getByTestId('balances').getByText('USD').waitFor();
    expect(page.url()).toBe(`${base}/app/`);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'app_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/app/v1' });
    await page.screenshot({ path: 'test/artifacts/desktop-home.png' });
    // a reload keeps the session; the spent link does not sign in again
    await page.reload();
    await page.getByTestId('balances').getByText('USD').waitFor();
    const other = await browser.newContext();
    const op = await other.newPage();
    await op.goto(link.url);
    await op.getByTestId('signin').waitFor();
    await other.close();
    await context.close();
  });
});
