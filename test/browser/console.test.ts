import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/app/app-access.js';
import { freePort, startService, stopService, type TestPartner, type TestService } from '../helpers.js';
import { asUser, BOT_TOKEN, linkUser, type AppUser } from '../app-api/app-helpers.js';
import { FakeGiftMarket } from '../gifts/fake-gateway.js';
import { ARTIFACTS, CHROMIUM, ensureWebappBuilt, launch, openInTelegram, rgb, THEMES, type TgPage } from './browser-helpers.js';

/**
 * The operator's console and the partner's finished home screen in a real headless Chromium: an operator
 * (ADMIN_CHAT_IDS) onboards a partner, sees coverage, settles a review and a deposit and switches a product,
 * in light and dark, English and Russian, at phone size and on a desktop; screenshots go to test/artifacts.
 */
const have = fs.existsSync(CHROMIUM);
const OPERATOR = 990_001;

let t: TestService;
let p: TestPartner;
let owner: AppUser;
let browser: Browser;
let base: string;
let reviewId: string;

beforeAll(async () => {
  if (!have) return;
  ensureWebappBuilt();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startService({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, PUBLIC_BASE_URL: base, APP_RATE_LIMIT: '100000', ADMIN_CHAT_IDS: String(OPERATOR), API_RATE_LIMIT: '100000', API_RATE_BURST: '100000' });
  await t.app.listen({ port, host: '127.0.0.1' });
  p = await t.newPartner();
  owner = await linkUser(t, p, 'owner');
  // some business: a completed Stars order, a Premium order, a gift stuck at its transfer, an unmatched deposit
  await p.order('stars', { quantity: 500, recipient: '@console_fan' });
  await p.order('premium', { months: 3, recipient: '@console_prem' });
  const gift = (await p.call('GET', '/nft/gifts?collection=LootBag&limit=1')).body.items[0].gift;
  await t.admin('PUT', `/sandbox/gifts/${gift}`, { outcome: 'stuck_transfer' });
  reviewId = (await p.order('nft', { gift, recipient: '@console_gift', max_price: '1000' })).body.order_id;
  await t.advance(120);
  const req = await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '20.00' });
  const to = req.body.addresses.find((a: { network: string }) => a.network === 'trc20').address;
  await t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '19.99', to, tx_hash: 'console-browser-1' });
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (t) await stopService(t);
});

/** Nothing is wider than the screen, and every tab label is whole. */
async function fits(page: Page, width: number) {
  const r = await page.evaluate(() => ({
    wide: document.documentElement.scrollWidth,
    over: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5).map((e) => `${e.tagName}.${e.className}:${(e.textContent ?? "").slice(0, 20)}@${e.getBoundingClientRect().left.toFixed(1)}-${e.getBoundingClientRect().right.toFixed(1)}`).slice(0, 5),
    cut: [...document.querySelectorAll('.tabs button')].filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent),
  }));
  expect(r).toEqual({ wide: width, over: [], cut: [] });
}

/** Waits until the last closing-behaviour set-up the app sent to Telegram asks (or does not ask) before closing. */
function closingAsks(page: Page, on: boolean) {
  return page.waitForFunction((want) => {
    const ev = (window as unknown as { __tgEvents: [string, { need_confirmation?: boolean }][] }).__tgEvents.filter(([e]) => e === 'web_app_setup_closing_behavior');
    return ev.at(-1)?.[1]?.need_confirmation === want;
  }, on);
}

const CONSOLE_TABS = ['op-overview', 'op-partners', 'op-reviews', 'op-deposits', 'op-products'] as const;
const READY: Record<(typeof CONSOLE_TABS)[number], string> = {
  'op-overview': 'hour-chart',
  'op-partners': 'partner-search',
  'op-reviews': 'reviews-list',
  'op-deposits': 'deposits-unmatched',
  'op-products': 'switch-stars',
};

/** Opens each console tab, waits for its content, checks the layout and screenshots it. */
async function visitConsole(app: TgPage, width: number) {
  for (const tab of CONSOLE_TABS) {
    await app.page.getByTestId(`tab-${tab}`).click();
    await app.page.getByTestId(READY[tab]).first().waitFor();
    await fits(app.page, width);
    await app.shot(`console-${tab.slice(3)}`);
  }
}

describe.runIf(have)('the operator console in Chromium', { timeout: 120_000 }, () => {
  it('an operator sees coverage, onboards a partner, settles a review and a deposit and switches a product', async () => {
    const app = await openInTelegram(browser, t, base, OPERATOR, 'light');
    const { page } = app;
    // the operator's first screen is the overview: liabilities, what waits, the chart in the theme's colours
    await page.getByTestId('liabilities').getByText('979.53').waitFor();
    expect(await page.getByTestId('fig-reviews').locator('b').innerText()).toBe('1');
    expect(await page.getByTestId('fig-deposits').locator('b').innerText()).toBe('1');
    expect(await page.getByTestId('coverage-warning').count()).toBe(0);
    // completed: 500 Stars (7.88 less the stored cost 7.50) and Premium 3 months (12.59 less 11.99); the gift waits in review
    expect(await page.getByTestId('margin').innerText()).toBe('0.98 USD · 0.000 TON');
    expect(await page.getByTestId('margin-without-cost').count()).toBe(0);
    const bars = await page.getByTestId('hour-chart').locator('rect').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-count'))));
    expect([bars.length, bars.reduce((a, b) => a + b, 0)]).toEqual([24, 3]);
    expect(await page.getByTestId('hour-chart').locator('rect').first().evaluate((r) => getComputedStyle(r).fill)).toBe(rgb(THEMES.light.button_color));
    // a partner's tabs are not an operator's (this operator belongs to no partner)
    expect(await page.getByTestId('tab-home').count()).toBe(0);
    await app.shot('console-overview');

    // partners: create one, its owner invite as a t.me link, a QR code and a copy button
    await page.getByTestId('tab-op-partners').click();
    await page.getByTestId(`partner-${p.id}`).waitFor();
    await page.getByTestId('new-partner-name').fill('Delta Market');
    await closingAsks(page, true);
    await page.getByTestId('create-partner').click();
    const link = await page.getByTestId('invite-link').innerText();
    expect(link).toMatch(/^https:\/\/t\.me\/\w+\?start=[A-Za-z0-9_-]{24}$/);
    expect(await page.getByTestId('invite-qr').locator('svg').count()).toBe(1);
    expect(await page.getByTestId('invite').getByRole('button').count()).toBe(1);
    await closingAsks(page, false);
    const created = (await t.admin('GET', '/partners/2')).body;
    expect(created).toMatchObject({ name: 'Delta Market', status: 'inactive' });
    await page.getByTestId('partner-search').fill('delta');
    await page.getByTestId(`partner-${p.id}`).waitFor({ state: 'detached' });
    await app.shot('console-partners-created');
    // a partner's page, then back
    await page.getByTestId('partner-2').click();
    await page.getByTestId('partner-name').getByText('Delta Market').waitFor();
    await app.pressBack();
    // the partner with business: its orders and ledger, and its exports through Telegram's download prompt
    await page.getByTestId('partner-search').fill('');
    await page.getByTestId(`partner-${p.id}`).click();
    await page.getByTestId('partner-name').getByText('Test partner').waitFor();
    const rows = page.getByTestId('partner-orders').locator('.row');
    await rows.nth(2).waitFor();
    expect(await rows.count()).toBe(3);
    // a top-up in each currency and the three debits
    expect(await page.getByTestId('partner-ledger').locator('.row').count()).toBe(5);
    await page.getByTestId('export-orders').click();
    const dl = await page.waitForFunction(() => (window as any).__tgEvents.find((e: [string]) => e[0] === 'web_app_request_file_download')?.[1]);
    const { url, file_name } = (await dl.jsonValue()) as { url: string; file_name: string };
    expect(file_name).toMatch(new RegExp(`^orders-${p.id}-\\d{4}-\\d\\d-\\d\\d\\.csv$`));
    const csv = await (await fetch(url)).text();
    expect(csv.split('\r\n').filter(Boolean).map((l) => l.split(',')[3])).toEqual(['status', 'processing', 'completed', 'completed']);
    await app.shot('console-partner');
    await app.pressBack();

    // reviews: refund behind Telegram's popup; "cancel" changes nothing
    await page.getByTestId('tab-op-reviews').click();
    const card = page.getByTestId(`review-${reviewId}`);
    await card.getByTestId('review-stage').waitFor();
    // the supplier's evidence: the purchase was paid (its receipt), the market sent no transfer
    expect(await card.getByTestId('ev-purchase').innerText()).toBe('paid');
    expect(await card.getByTestId('ev-receipt').innerText()).toMatch(/^sandbox-payment-[0-9a-f]{16}$/);
    expect(await card.getByTestId('ev-transfer').innerText()).toBe('not sent');
    await app.shot('console-reviews');
    await card.getByTestId('refund').click();
    expect((await app.answerPopup('')).message).toMatch(/goes back to the partner's balance/);
    expect((await t.admin('GET', `/orders/${reviewId}`)).body.review).not.toBeNull();
    await card.getByTestId('refund').click();
    await app.answerPopup('ok');
    await card.waitFor({ state: 'detached' });
    expect((await t.admin('GET', `/orders/${reviewId}`)).body).toMatchObject({ status: 'failed', refunded: true, review: null });
    expect((await app.events()).some(([e, d]) => e === 'web_app_trigger_haptic_feedback' && d?.notification_type === 'success')).toBe(true);

    // deposits: credit the unmatched transfer to the partner found by name
    await page.getByTestId('tab-op-deposits').click();
    const dep = page.locator('[data-testid^=deposit-]').first();
    await dep.getByTestId('credit').click();
    await dep.getByTestId('credit-search').fill('Test');
    await dep.getByTestId(`credit-to-${p.id}`).click();
    expect((await app.answerPopup('ok')).message).toBe('Credit 19.99 USDT to Test partner?');
    await page.getByText('Nothing here.').waitFor();
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe(String((1000 - 7.88 - 12.59 + 19.99).toFixed(2)));

    // products: switching Stars off asks first, then partners get product_disabled
    await page.getByTestId('tab-op-products').click();
    await page.getByTestId('switch-stars').click();
    expect((await app.answerPopup('ok')).message).toMatch(/^Switch Stars off\?/);
    await page.waitForFunction(() => !(document.querySelector('[data-testid=switch-stars]') as HTMLInputElement).checked);
    expect((await t.admin('GET', '/settings')).body.products.stars.enabled).toBe(false);
    await app.shot('console-products');
    await page.getByTestId('switch-stars').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid=switch-stars]') as HTMLInputElement).checked);
    expect((await t.admin('GET', '/settings')).body.products.stars.enabled).toBe(true);

    // the header follows the theme
    expect((await app.events()).filter(([e]) => e === 'web_app_set_header_color').at(-1)?.[1]).toEqual({ color_key: 'secondary_bg_color' });
    await app.context.close();
  });

  it('every console page in dark and Russian at 360 and 430 px, and on a desktop in both themes', async () => {
    // the coverage warning: the gift account cannot pay for what partners hold in TON
    await t.admin('PUT', '/sandbox/faults', { purchase_funds_low: true });
    for (const [scheme, width] of [['dark', 360], ['light', 430]] as const) {
      const ru = await openInTelegram(browser, t, base, OPERATOR, scheme, { language: 'ru', width, height: 800, suffix: `-ru-${width}` });
      await ru.page.getByTestId('coverage-warning').waitFor();
      expect(await ru.page.getByTestId('tab-op-partners').innerText()).toBe('Партнёры');
      if (scheme === 'dark') expect(await ru.page.getByTestId('hour-chart').locator('rect').first().evaluate((r) => getComputedStyle(r).fill)).toBe(rgb(THEMES.dark.button_color));
      await visitConsole(ru, width);
      await ru.context.close();
    }
    await t.admin('PUT', '/sandbox/faults', { purchase_funds_low: false });

    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme, acceptDownloads: true });
      const desk = await context.newPage();
      await desk.goto(createSignInLink(t.deps, OPERATOR).url);
      await desk.getByTestId('signin-yes').click(); // after "Sign in as …?"
      await desk.getByTestId('hour-chart').waitFor();
      const bar = await desk.evaluate(() => document.querySelector('.tabs')!.getBoundingClientRect().width);
      expect(bar).toBe(720);
      await desk.screenshot({ path: `${ARTIFACTS}/console-desktop-${scheme}.png` });
      if (scheme === 'light') {
        // outside Telegram an export is an ordinary download of the link
        await desk.getByTestId('tab-op-partners').click();
        await desk.getByTestId(`partner-${p.id}`).click();
        await desk.getByTestId('partner-ledger').locator('.row').first().waitFor();
        const [download] = await Promise.all([desk.waitForEvent('download'), desk.getByTestId('export-ledger').click()]);
        expect(download.suggestedFilename()).toMatch(new RegExp(`^ledger-${p.id}-\\d{4}-\\d\\d-\\d\\d\\.csv$`));
        const text = fs.readFileSync((await download.path())!, 'utf8');
        expect(text.split('\r\n')[0]).toBe('entry_id,created_at,currency,kind,amount,balance_after,order_id,topup_id,note');
        await desk.screenshot({ path: `${ARTIFACTS}/console-partner-desktop-${scheme}.png`, fullPage: true });
      }
      await context.close();
    }
  });

  it("Telegram's SDK: the page keeps clear of the safe areas as they change, and the header follows a theme change", async () => {
    const app = await openInTelegram(browser, t, base, owner.id, 'light', { safeArea: { top: 47, bottom: 34, left: 0, right: 0 }, contentSafeArea: { top: 46, bottom: 0, left: 0, right: 0 } });
    const { page } = app;
    await page.getByTestId('spend-USD').waitFor();
    const pads = () =>
      page.evaluate(() => {
        const cs = (sel: string) => getComputedStyle(document.querySelector(sel)!);
        return { body: [cs('body').paddingTop, cs('body').paddingLeft, cs('body').paddingRight], pageTop: cs('.page').paddingTop, tabs: cs('.tabs').paddingBottom };
      });
    await page.waitForFunction(() => getComputedStyle(document.body).paddingTop === '47px');
    expect(await pads()).toEqual({ body: ['47px', '0px', '0px'], pageTop: '58px', tabs: '34px' });
    // the phone turns: the notch moves to the sides
    await page.evaluate(() => (window as any).Telegram.WebView.receiveEvent('safe_area_changed', { top: 0, bottom: 21, left: 59, right: 59 }));
    await page.waitForFunction(() => getComputedStyle(document.body).paddingLeft === '59px');
    expect(await pads()).toEqual({ body: ['0px', '59px', '59px'], pageTop: '58px', tabs: '21px' });
    await fits(page, 390);
    // the app said it is ready, asked to expand and asked for the safe areas
    const sent = (await app.events()).map(([e]) => e);
    for (const e of ['web_app_ready', 'web_app_expand', 'web_app_request_safe_area', 'web_app_request_content_safe_area']) expect(sent).toContain(e);

    // the user switches Telegram to its dark theme: the page follows; the header keeps the theme's key (Telegram
    // repaints it from the new theme), the window background is sent again in the new theme's colour
    await page.evaluate((dark) => (window as any).Telegram.WebView.receiveEvent('theme_changed', { theme_params: dark }), THEMES.dark);
    await page.waitForFunction(() => document.documentElement.dataset.scheme === 'dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(rgb(THEMES.dark.secondary_bg_color));
    const colours = (await app.events()).filter(([e]) => e === 'web_app_set_header_color' || e === 'web_app_set_background_color');
    expect(colours).toEqual([
      ['web_app_set_header_color', { color_key: 'secondary_bg_color' }],
      ['web_app_set_background_color', { color: THEMES.light.secondary_bg_color }],
      ['web_app_set_background_color', { color: THEMES.dark.secondary_bg_color }],
    ]);
    await app.context.close();
  });

  it("a partner's home: quick actions, the last 7 days' spend, titles in the user's language with the label beneath", async () => {
    const app = await openInTelegram(browser, t, base, owner.id, 'light');
    const { page } = app;
    await page.getByTestId('spend-USD').waitFor();
    // Stars 7.88 + Premium 12.59 (processing) + the refunded gift: net USD spend 20.47
    expect(await page.getByTestId('spend-USD').locator('b').innerText()).toBe('20.47');
    const title = page.getByTestId('order-title').first();
    await title.waitFor();
    const titles = await page.getByTestId('order-title').allInnerTexts();
    expect(titles).toContain('500 Telegram Stars for @console_fan');
    expect(await page.getByTestId('order-label').allInnerTexts()).toContain('500 звёзд Telegram для @console_fan');
    await app.shot('home-quick');
    // a quick action opens the order form on its product, with a haptic tap
    await page.getByTestId('quick-premium').click();
    await page.getByTestId('months-3').waitFor();
    expect((await app.events()).some(([e, d]) => e === 'web_app_trigger_haptic_feedback' && d?.type === 'selection_change')).toBe(true);
    await app.context.close();

    const ru = await openInTelegram(browser, t, base, owner.id, 'dark', { language: 'ru', width: 360, height: 800, suffix: '-ru-360' });
    await ru.page.getByTestId('order-title').first().waitFor();
    expect(await ru.page.getByTestId('order-title').allInnerTexts()).toContain('500 звёзд Telegram для @console_fan');
    expect(await ru.page.getByTestId('order-label').count()).toBe(0);
    await fits(ru.page, 360);
    await ru.shot('home-quick');
    await ru.context.close();
    // an owner who is not an operator has no console
    expect((await owner.call('GET', '/operator/overview')).status).toBe(403);
    void asUser;
  });
  it('the partner page corrects a balance: a signed amount and a note, asked once more, then the entry in its ledger', async () => {
    const before = (await t.admin('GET', `/partners/${p.id}`)).body.balances.USD as string;
    const entries = async () => (await t.admin('GET', `/partners/${p.id}/ledger?limit=500`)).body.items.length as number;
    const n = await entries();
    const app = await openInTelegram(browser, t, base, OPERATOR, 'light');
    const { page } = app;
    await page.getByTestId('tab-op-partners').click();
    await page.getByTestId(`partner-${p.id}`).click();
    await page.getByTestId('partner-name').getByText('Test partner').waitFor();
    await page.getByTestId('adjust').click();
    await page.getByTestId('adjust-amount').fill('-2.50');
    expect(await page.getByTestId('adjust-confirm').isDisabled()).toBe(true); // no note yet
    await page.getByTestId('adjust-note').fill('Fee agreed by mail');
    await page.getByTestId('adjust-confirm').click();
    expect((await app.answerPopup('')).message).toBe('Post a correction of -2.50 USD? The partner sees it in the ledger with your note.');
    expect(await entries()).toBe(n);
    await page.getByTestId('adjust-confirm').click();
    await app.answerPopup('ok');
    await page.getByTestId('adjust-form').waitFor({ state: 'detached' });
    const after = (Number(before) - 2.5).toFixed(2);
    await page.getByText(after, { exact: true }).waitFor();
    expect(await entries()).toBe(n + 1);
    const row = page.getByTestId('partner-ledger').locator('.row').filter({ hasText: 'Fee agreed by mail' });
    expect(await row.innerText()).toMatch(/^Correction by support\n.* · Fee agreed by mail\n-2\.50 USD$/);
    // more than the balance: refused in the form, nothing posted
    await page.getByTestId('adjust').click();
    await page.getByTestId('adjust-amount').fill('-100000');
    await page.getByTestId('adjust-note').fill('too much');
    await page.getByTestId('adjust-confirm').click();
    await app.answerPopup('ok');
    const refusal = page.getByTestId('adjust-form').locator('.error');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(`Not posted: the USD balance is ${after} USD, and this correction would make it negative.`);
    expect(await entries()).toBe(n + 1);
    await app.shot('console-partner-adjust');
    await app.context.close();
  });
});

describe.runIf(have)("the console with Telegram's gift account (GIFTS_UPSTREAM=telegram)", { timeout: 120_000 }, () => {
  it("the overview shows the account's TON and Stars beside the other funds, and warns when its TON cannot cover the partners' TON", async () => {
    let now = () => 0;
    const market = new FakeGiftMarket(() => now());
    market.balanceNano = 123_456_789_123n;
    market.stars = '250';
    const port = await freePort();
    const gbase = `http://127.0.0.1:${port}`;
    const gt = await startService(
      {
        GIFTS_UPSTREAM: 'telegram',
        TELEGRAM_API_ID: '123456',
        TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
        GIFTS_SESSION: '1BQANOTAREALSESSION',
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        PUBLIC_BASE_URL: gbase,
        ADMIN_CHAT_IDS: String(OPERATOR),
        APP_RATE_LIMIT: '100000',
      },
      { giftGateway: market },
    );
    now = () => gt.deps.clock.now();
    try {
      await gt.app.listen({ port, host: '127.0.0.1' });
      await gt.newPartner({ ton: '100.000', usd: '10.00' });
      await gt.telegramGifts!.refresh();
      const app = await openInTelegram(browser, gt, gbase, OPERATOR, 'light');
      const { page } = app;
      const funds = page.getByTestId('supplier-funds');
      await funds.getByText('123.456 TON').waitFor();
      expect(await funds.locator('.row').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^Telegram gift account\n.*\n123\.456 TON$/), expect.stringMatching(/^Telegram gift account\n.*\n250 STARS$/)]));
      expect(await page.getByTestId('coverage-telegram_gifts-TON').innerText()).toMatch(/^Telegram gift account\n123\.456 \/ 100\.000 TON\ncovered$/);
      expect(await page.getByTestId('coverage-warning').count()).toBe(0);
      await app.shot('console-overview-gift-account');
      await app.context.close();

      // the account drops below what partners hold in TON: the warning names it
      market.balanceNano = 99_999_999_999n;
      await gt.advance(60);
      await gt.telegramGifts!.refresh();
      const ru = await openInTelegram(browser, gt, gbase, OPERATOR, 'dark', { language: 'ru', width: 360, height: 800, suffix: '-ru-360' });
      await ru.page.getByTestId('coverage-warning').getByText(/^Аккаунт подарков Telegram: не хватит/).waitFor();
      expect(await ru.page.getByTestId('coverage-telegram_gifts-TON').innerText()).toMatch(/99\.999 \/ 100\.000 TON\nНЕ покрыто$/);
      await fits(ru.page, 360);
      await ru.shot('console-overview-gift-account');
      await ru.context.close();
    } finally {
      await stopService(gt);
    }
  });
});
