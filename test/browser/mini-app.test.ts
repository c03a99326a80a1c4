import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/app/app-access.js';
import { freePort, startReceiver, startService, stopService, type TestPartner, type TestService } from '../helpers.js';
import { BOT_TOKEN, linkUser, type AppUser } from '../app-api/app-helpers.js';
import { ARTIFACTS, backButtonVisible, CHROMIUM, ensureWebappBuilt, launch, mainButton, openInTelegram, rgb, THEMES, type TgPage } from './browser-helpers.js';

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
const closers: (() => Promise<void>)[] = [];

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
  for (const c of closers) await c();
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

    const tiles = page.getByTestId('gift-grid').locator('.tile');
    const gifts = async (q: string) => (await staff.call('GET', `/gifts?${q}`)).body;
    const totalIs = (n: number) => page.getByTestId('gift-total').getByText(new RegExp(`^${n} gifts?$`)).waitFor();
    // paging: "show more" adds the next page of the market, without repeats
    expect(await tiles.count()).toBe(24);
    await page.getByTestId('more-gifts').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=gift-grid] .tile').length === 48);
    const shown = await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(shown).toEqual((await gifts('limit=48')).items.map((g: any) => `gift-${g.gift}`));
    // search by number: the gifts whose number starts with the digits typed
    const probe = (await gifts('limit=1&sort=price_desc')).items[0];
    await page.getByTestId('f-number').fill(String(probe.num));
    await totalIs((await gifts(`number=${probe.num}`)).total);
    await page.getByTestId(`gift-${probe.gift}`).waitFor();
    await page.getByTestId('f-number').fill('');
    await totalIs(750);

    // the filters narrow the grid: collection, a model offered for it, then that gift's backdrop and symbol
    await page.getByTestId('f-collection').selectOption('HomemadeCake');
    await totalIs(150);
    const model = await page.getByTestId('f-model').locator('option').nth(1).evaluate((o) => (o as HTMLOptionElement).value);
    await page.getByTestId('f-model').selectOption(model!);
    const q = new URLSearchParams({ collection: 'HomemadeCake', model });
    const byModel = await gifts(`${q}`);
    await totalIs(byModel.total);
    const { backdrop, symbol } = byModel.items[0].attributes;
    await page.getByTestId('f-backdrop').selectOption(backdrop);
    q.set('backdrop', backdrop);
    await totalIs((await gifts(`${q}`)).total);
    await page.getByTestId('f-symbol').selectOption(symbol);
    q.set('symbol', symbol);
    // sorted by price, the most expensive first
    await page.getByTestId('f-sort').selectOption('price_desc');
    q.set('sort', 'price_desc');
    const expected = await gifts(`${q}&limit=100`);
    expect(expected.total).toBeGreaterThan(0);
    for (const g of expected.items) expect(g.attributes).toMatchObject({ model, backdrop, symbol });
    await totalIs(expected.total);
    await page.waitForFunction((id) => document.querySelector('[data-testid=gift-grid] .tile')?.getAttribute('data-testid') === id, `gift-${expected.items[0].gift}`);
    expect(await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(expected.items.slice(0, 24).map((g: any) => `gift-${g.gift}`));
    // every picture is the sandbox's SVG of that gift, and loads
    const first = expected.items[0];
    // each tile shows the name, the number and the price
    expect(await tiles.first().innerText()).toBe(`${first.name}\n#${first.num}\n${first.partner_price} TON`);
    const img = tiles.first().locator('img');
    expect(await img.getAttribute('src')).toBe(`${base}/sandbox/gifts/${first.gift}.svg`);
    await page.waitForFunction(() => [...document.querySelectorAll('.tile img')].slice(0, 4).every((i) => (i as HTMLImageElement).naturalWidth > 0));
    await app.shot('order-gifts');

    await tiles.first().click();
    await page.getByTestId('gift-title').getByText(`#${first.num}`).waitFor();
    // the detail view lists the attributes
    expect(await page.locator('.section').first().innerText()).toContain(`Model\n${first.attributes.model}`);
    // the recipient is checked as it is typed: not found, cannot receive gifts (no confirmation), found
    await page.getByTestId('recipient').fill('ghost_x1');
    await page.getByTestId('recipient-state').getByText('Not found').waitFor();
    await page.getByTestId('recipient').fill('nogift_carl');
    await page.getByTestId('recipient-state').getByText('Cannot receive gifts').waitFor();
    expect((await mainButton(app))?.is_active).toBe(false);
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
    // Telegram's back button leads back to the page the order was placed from, then hides itself there
    expect(await backButtonVisible(app)).toBe(true);
    await app.pressBack();
    await page.getByTestId('gift-grid').locator('.tile').first().waitFor();
    expect(await page.getByTestId('order-status').count()).toBe(0);
    expect(await backButtonVisible(app)).toBe(false);
    await closeAll(app);
  });

  it('Stars with a preset or a typed amount within the limits, Premium for 3, 6 or 12 months; the main button confirms once', async () => {
    const app = await openInTelegram(browser, t, base, staff.id, 'light');
    const { page } = app;
    await page.getByTestId('tab-order').click();
    await page.getByTestId('product-stars').click();
    // the limits are the service's (GET /products)
    await page.waitForFunction(() => document.querySelector('[data-testid=stars-amount]')?.getAttribute('placeholder') === '50 – 50000');
    await page.getByTestId('recipient').fill('alice_w');
    await page.getByTestId('price').getByText('1.58 USD').waitFor(); // the preset 100
    await page.getByTestId('stars-amount').fill('10');
    await page.getByTestId('amount-error').getByText('The number of stars must be a whole number from 50 to 50000.').waitFor();
    expect(await page.getByTestId('price').count()).toBe(0);
    expect((await mainButton(app))?.is_active).toBe(false);
    await page.getByTestId('stars-amount').fill('250');
    await page.getByTestId('price').getByText('3.94 USD').waitFor();
    await page.waitForFunction(() => (window as any).__tgEvents.filter((e: any) => e[0] === 'web_app_setup_main_button').at(-1)?.[1].is_active);
    expect((await mainButton(app))!.text).toBe('Pay 3.94 USD');
    await app.pressMain();
    await app.pressMain();
    await page.getByTestId('order-status').getByText('Processing').waitFor();
    const stars = (await staff.call('GET', '/orders?type=stars')).body;
    expect(stars.items.filter((o: any) => o.quantity === 250)).toHaveLength(1);
    await t.advance(5);
    await page.getByTestId('order-status').getByText('Completed').waitFor({ timeout: 15_000 });

    await app.pressBack();
    await page.getByTestId('product-premium').click();
    await page.getByTestId('months-12').click();
    await page.getByTestId('recipient').fill('alice_w');
    await page.getByTestId('recipient-state').getByText('Found', { exact: false }).waitFor();
    const price12 = (await staff.call('POST', '/recipient-check', { type: 'premium', username: 'alice_w', months: 12 })).body.price;
    await page.getByTestId('price').getByText(`${price12} USD`).waitFor();
    await page.waitForFunction(() => (window as any).__tgEvents.filter((e: any) => e[0] === 'web_app_setup_main_button').at(-1)?.[1].is_active);
    await app.pressMain();
    await page.getByTestId('order-status').waitFor();
    const premium = (await staff.call('GET', '/orders?type=premium')).body.items;
    expect(premium).toHaveLength(1);
    expect(premium[0]).toMatchObject({ quantity: 12, recipient: 'alice_w', partner_price: price12 });
    await closeAll(app);
  });

  it('an owner issues a key and sets a webhook, and sees the secret once', async () => {
    const app = await openInTelegram(browser, t, base, owner.id, 'dark');
    const { page } = app;
    await page.getByTestId('tab-api').click();
    const before = await page.getByTestId('key-prefix').innerText();
    expect(before).toBe(`${p.key.slice(0, 12)}…`);
    await page.getByTestId('whitelist').fill('127.0.0.1, 203.0.113.0/24');
    // a key exists: reissuing asks first (Telegram's popup); "cancel" changes nothing
    await page.getByTestId('issue-key').click();
    expect((await app.answerPopup('')).message).toMatch(/stops working at once/);
    expect(await page.getByTestId('api-key').count()).toBe(0);
    expect((await t.partnerCall(p.key, 'GET', '/me')).status).toBe(200);
    await page.getByTestId('issue-key').click();
    await app.answerPopup('ok');
    const key = await page.getByTestId('api-key').innerText();
    expect((await t.partnerCall(p.key, 'GET', '/me')).status).toBe(401);
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
    // the events: the three order events are ticked; ticking balance.low opts in
    expect(await page.getByTestId('event-order.completed').isChecked()).toBe(true);
    expect(await page.getByTestId('event-balance.low').isChecked()).toBe(false);
    await page.getByTestId('event-balance.low').check();
    await page.getByTestId('save-webhook').click();
    await expect.poll(async () => (await t.admin('GET', `/partners/${p.id}`)).body.webhook.events).toEqual(['order.completed', 'order.failed', 'order.refunded', 'balance.low']);
    await page.getByText('Saved').waitFor();
    // regenerate: asked first, then a new secret shown once
    await page.getByTestId('regenerate').click();
    await app.answerPopup('ok');
    const secret2 = await page.getByTestId('secret').innerText();
    expect(secret2).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(secret2).not.toBe(secret);
    await page.reload();
    await page.getByTestId('tab-api').click();
    await page.getByTestId('key-prefix').waitFor();
    await page.getByText('A secret is set.').waitFor();
    expect(await page.getByTestId('event-balance.low').isChecked()).toBe(true);
    const html = await page.content();
    for (const s of [key, secret, secret2]) expect(html).not.toContain(s);
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

    // USDT: the network is chosen before anything else can be asked for; then only its address is shown
    await page.getByTestId('all-requests').click();
    await page.getByTestId('currency-USD').click();
    await page.getByTestId('topup-amount').fill('50');
    expect(await page.getByTestId('topup-request').isDisabled()).toBe(true);
    expect((await page.locator('[data-testid^=network-]').allInnerTexts())).toEqual(['USDT (TON network)', 'USDT (TRC-20, TRON network)', 'USDT (BEP-20, BNB Smart Chain)']);
    await app.shot('topup-network');
    await page.getByTestId('network-trc20').click();
    await page.getByTestId('topup-request').click();
    await page.getByTestId('amount-to-send').getByText(/^50\.\d{2} USDT$/).waitFor();
    expect(await page.getByTestId('request-network').innerText()).toBe('USDT (TRC-20, TRON network)');
    expect(await page.getByTestId('address').count()).toBe(1);
    expect(await page.getByTestId('address').innerText()).toMatch(/^T/);
    expect(await page.getByTestId('comment-code').count()).toBe(0);
    expect(await page.getByTestId('ton-link').count()).toBe(0);
    expect(await page.getByTestId('qr').locator('svg').count()).toBe(1);
    await app.shot('topup-usdt');

    // the low-balance thresholds (the bot's /alerts) sit under the form: set one, then clear it
    await page.getByTestId('all-requests').click();
    await page.getByTestId('alert-USD').fill('250');
    await page.getByTestId('save-alerts').click();
    await page.getByTestId('alerts-saved').waitFor();
    expect((await owner.call('GET', '/alerts')).body).toEqual({ USD: '250.00', TON: null });
    expect(await page.getByTestId('alert-USD').inputValue()).toBe('250.00');
    await page.getByTestId('alert-TON').fill('12.3456');
    await page.getByTestId('save-alerts').click();
    await page.getByRole('alert').getByText('This value is not accepted.', { exact: false }).waitFor();
    await page.getByTestId('alert-TON').fill('');
    await page.getByTestId('alert-USD').fill('');
    await page.getByTestId('save-alerts').click();
    await page.getByTestId('alerts-saved').waitFor();
    expect((await owner.call('GET', '/alerts')).body).toEqual({ USD: null, TON: null });
    await closeAll(app);
  });

  it('every page at phone size, light and dark, in Russian too, from 360 to 430 px and on a desktop; colours from themeParams', async () => {
    // a webhook receiver and a few orders to list: completed, failed and refunded, one still processing
    const hook = await startReceiver();
    closers.push(hook.close);
    expect((await owner.call('PUT', '/webhook', { url: hook.url })).status).toBe(200);
    const place = async (type: string, params: Record<string, unknown>, key: string) => {
      const r = await owner.call('POST', '/orders', { type, idempotency_key: key, params });
      expect(r.status).toBe(200);
      return r.body.order_id as string;
    };
    await place('stars', { quantity: 500, recipient: 'alice_w' }, 'screens-0001');
    const failed = await place('stars', { quantity: 100, recipient: 'failstars_bob' }, 'screens-0002');
    await t.advance(5);
    const slow = await place('premium', { months: 3, recipient: 'slow_carol' }, 'screens-0003');
    const leaving = await linkUser(t, p, 'staff');

    const visitAll = async (app: TgPage, width: number, ru = false) => {
      const { page } = app;
      // nothing wider than the screen, and every tab label whole
      const fits = async (what: string) =>
        expect([what, await page.evaluate(() => [document.documentElement.scrollWidth, [...document.querySelectorAll('.tabs button')].filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent)])]).toEqual([what, [width, []]]);
      await page.getByTestId('balances').getByText('USD').waitFor();
      await app.shot('home');
      await fits('home');
      await page.getByTestId('open-ledger').click();
      await page.getByTestId('ledger').locator('.row').first().waitFor();
      await app.shot('ledger');
      await fits('ledger');
      await app.pressBack();
      await page.getByTestId('tab-order').click();
      await page.getByTestId('gift-grid').locator('.tile').first().waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll('.tile img')].slice(0, 6).every((i) => (i as HTMLImageElement).naturalWidth > 0));
      await app.shot('order-gifts');
      await fits('gifts');
      await page.getByTestId('product-stars').click();
      await page.getByTestId('recipient').fill('premium_bob');
      await page.getByTestId('price').waitFor();
      await app.shot('order-stars');
      await fits('stars');
      await page.getByTestId('product-premium').click();
      await page.getByTestId('recipient').fill('premium_bob');
      await page.getByTestId('recipient-state').getByText(ru ? 'Premium уже есть' : 'Already has Premium', { exact: false }).waitFor();
      await app.shot('order-premium');
      await fits('premium');
      await page.getByTestId('tab-orders').click();
      await page.getByTestId(`order-${failed}`).click();
      await page.getByTestId('failure-why').getByText(ru ? 'Звёзды не удалось доставить.' : 'The stars could not be delivered.').waitFor();
      await page.locator('[data-testid^=delivery-]').first().waitFor();
      await app.shot('order-failed');
      await fits('order page');
      await app.pressBack();
      await page.getByTestId(`order-${slow}`).waitFor();
      await app.shot('orders');
      await fits('orders');
      await page.getByTestId('tab-topup').click();
      await page.getByTestId('alert-USD').waitFor();
      await app.shot('topup-form');
      await fits('top-up');
      await page.getByTestId('tab-api').click();
      await page.getByTestId('webhook-url').waitFor();
      await app.shot('api-page');
      await fits('api');
      await page.getByTestId('open-deliveries').click();
      await page.locator('[data-testid^=delivery-]').first().waitFor();
      await app.shot('deliveries');
      await fits('delivery log');
      await app.pressBack();
      await page.getByTestId('tab-team').click();
      await page.getByTestId('invite-staff').click();
      await page.getByTestId('invite-link').getByText(/^https:\/\/t\.me\/your_bot\?start=[A-Za-z0-9_-]{24}$/).waitFor();
      expect(await page.getByTestId('invite-qr').locator('svg').count()).toBe(1);
      await app.shot('team');
      await fits('team');
    };

    for (const scheme of ['light', 'dark'] as const) {
      const app = await openInTelegram(browser, t, base, owner.id, scheme);
      const { page } = app;
      await page.getByTestId('balances').getByText('USD').waitFor();
      // the colours are Telegram's themeParams: the page background, a section, the main accent
      const colours = await page.evaluate(() => ({
        bg: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        card: getComputedStyle(document.querySelector('.card')!).backgroundColor,
        tab: getComputedStyle(document.querySelector('.tabs button.on')!).color,
      }));
      expect(colours).toEqual({ bg: rgb(THEMES[scheme].secondary_bg_color), text: rgb(THEMES[scheme].text_color), card: rgb(THEMES[scheme].section_bg_color), tab: rgb(THEMES[scheme].button_color) });
      await visitAll(app, 390);
      await closeAll(app);
    }

    // Russian: at the narrowest (360, light) and widest (430, dark) phone sizes
    for (const [scheme, width] of [['light', 360], ['dark', 430]] as const) {
      const ru = await openInTelegram(browser, t, base, owner.id, scheme, { language: 'ru', width, height: 800, suffix: `-ru-${width}` });
      await ru.page.getByText('Последние заказы').waitFor();
      await visitAll(ru, width, true);
      await closeAll(ru);
    }

    // the owner's home follows an order's status live; the owner unlinks a member after Telegram's popup
    const app = await openInTelegram(browser, t, base, owner.id, 'light');
    const { page } = app;
    await page.getByTestId(`order-${slow}`).getByText('Processing').waitFor();
    await t.advance(660);
    await page.getByTestId(`order-${slow}`).getByText('Completed').waitFor({ timeout: 15_000 });
    // the webhook block: a test webhook reaches the receiver; the delivery log sends a delivery again
    await page.getByTestId('tab-api').click();
    const before = hook.requests.length;
    await page.getByTestId('test-webhook').click();
    await page.getByTestId('test-result').getByText('The test webhook was delivered.').waitFor();
    expect(hook.requests.length).toBe(before + 1);
    expect(JSON.parse(hook.requests.at(-1)!.raw.toString()).event).toBe('webhook.test');
    await page.getByTestId('open-deliveries').click();
    const log = (await owner.call('GET', '/webhook-deliveries')).body.items;
    expect(log[0].event).toBe('webhook.test');
    const failedHook = log.find((d: any) => d.order_id === failed && d.event === 'order.failed');
    const card = page.getByTestId(`delivery-${failedHook.delivery_id}`);
    await card.locator('.attempts li').first().waitFor();
    expect(await card.locator('.attempts li').count()).toBe(1);
    await card.getByTestId('redeliver').click();
    await card.locator('.attempts li').nth(1).getByText('#2 · sent again by hand · HTTP 200').waitFor();
    expect(hook.requests.at(-1)!.headers['x-webhook-id']).toBe(failedHook.delivery_id);
    await page.getByTestId('deliveries-failed').click();
    await page.getByText('No webhook deliveries.').waitFor();
    await app.pressBack();

    await page.getByTestId('tab-team').click();
    await page.getByTestId(`unlink-${leaving.id}`).click();
    expect((await app.answerPopup('ok')).message).toBe(`Unlink ${leaving.id}? They lose access at once.`);
    await page.getByTestId(`member-${leaving.id}`).waitFor({ state: 'detached' });
    expect((await leaving.call('GET', '/session')).body.detail.code).toBe('not_linked');
    await closeAll(app);

    // outside Telegram: the link from /app signs in once and sets the cookie; a desktop layout
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const desk = await context.newPage();
    const link = createSignInLink(t.deps, owner.id);
    await desk.goto(link.url);
    await desk.getByTestId('signin-yes').click(); // after "Sign in as …?"
    await desk.getByTestId('balances').getByText('USD').waitFor();
    expect(desk.url()).toBe(`${base}/app/`);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'app_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/app/v1' });
    // the tabs span the column at the top, every label whole
    const tabs = await desk.evaluate(() => {
      const bar = document.querySelector('.tabs')!.getBoundingClientRect();
      const cut = [...document.querySelectorAll('.tabs button')].filter((b) => b.scrollWidth > b.clientWidth).length;
      return { top: bar.top, width: bar.width, cut };
    });
    expect(tabs).toEqual({ top: 0, width: 720, cut: 0 });
    await desk.screenshot({ path: `${ARTIFACTS}/desktop-home.png` });
    await desk.getByTestId('tab-order').click();
    await desk.getByTestId('gift-grid').locator('.tile').first().waitFor();
    await desk.waitForFunction(() => [...document.querySelectorAll('.tile img')].slice(0, 8).every((i) => (i as HTMLImageElement).naturalWidth > 0));
    await desk.screenshot({ path: `${ARTIFACTS}/desktop-gifts.png` });
    // a reload keeps the session; the spent link does not sign in again
    await desk.reload();
    await desk.getByTestId('balances').getByText('USD').waitFor();
    const other = await browser.newContext();
    const op = await other.newPage();
    await op.goto(link.url);
    await op.getByTestId('signin').waitFor();
    await other.close();
    await context.close();
  });

  it('past TOPUP_REQUESTS_MAX_OPEN open requests the Top up tab offers no new request and says why; a place taken meanwhile elsewhere is explained; in English and in Russian', async () => {
    // fill the owner's USD places (3 by default) through the Mini App's API, then free one
    let last = '';
    for (let i = 0; i < 5; i++) {
      const r = await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '20' });
      if (r.status === 409) break;
      expect(r.status).toBe(201);
      last = r.body.request_id;
    }
    expect((await owner.call('DELETE', `/topup-requests/${last}`)).status).toBe(200);
    // one place left: the form is offered; the bot (here the API) takes the place before the page asks
    const app = await openInTelegram(browser, t, base, owner.id, 'light', { suffix: '-limit-en' });
    await app.page.getByTestId('tab-topup').click();
    await app.page.getByTestId('currency-USD').click();
    await app.page.getByTestId('network-trc20').click();
    await app.page.getByTestId('topup-amount').fill('20');
    expect((await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '20' })).status).toBe(201);
    await app.page.getByTestId('topup-request').click();
    await app.page
      .getByRole('alert')
      .getByText('You already have 3 open top-up requests in USD, the most at once. Pay one of them (the exact amount it shows), cancel one, or wait until one expires 24 hours after it was made, then ask again.', { exact: true })
      .waitFor();
    expect(await app.page.getByTestId('amount-to-send').count()).toBe(0);
    await closeAll(app);
    // opened with no place left: no form, the reason instead
    for (const [language, text] of [
      ['en', 'You have 3 open requests in USD, the most at once: pay or cancel one to ask for another.'],
      ['ru', 'У вас 3 открытых запроса в USD — больше одновременно нельзя: оплатите или отмените один, чтобы создать новый.'],
    ] as const) {
      const app = await openInTelegram(browser, t, base, owner.id, 'light', { language, suffix: `-limit-${language}` });
      const { page } = app;
      await page.getByTestId('tab-topup').click();
      await page.getByTestId('currency-USD').click();
      await page.getByTestId('no-room').getByText(text, { exact: true }).waitFor();
      expect(await page.getByTestId('topup-amount').count()).toBe(0);
      await closeAll(app);
    }
  });
});
