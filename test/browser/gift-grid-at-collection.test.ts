import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftGridUrl } from '../../bot/app-urls.js';
import { stopService, type TestService } from '../helpers.js';
import { linkUser, type AppUser } from '../app-api/app-helpers.js';
import { backButtonVisible, CHROMIUM, openInTelegram, startStand } from './browser-helpers.js';

/**
 * The bot's "Open in the app" under a collection's gifts opens the Mini App at that collection's gift grid:
 * the very URL the bot puts on its web_app button, opened in a real headless Chromium with Telegram's
 * launch parameters.
 */
const have = fs.existsSync(CHROMIUM);

let t: TestService;
let base: string;
let staff: AppUser;
let browser: Browser;

beforeAll(async () => {
  if (!have) return;
  ({ t, base, browser } = await startStand({ APP_RATE_LIMIT: '100000' }));
  const p = await t.newPartner();
  staff = await linkUser(t, p, 'staff');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (t) await stopService(t);
});

describe.runIf(have)('the Mini App opened at a collection', { timeout: 120_000 }, () => {
  it("opens on the gift grid filtered to the bot button's collection; the filter can still be changed, and the Order tab opens all gifts", async () => {
    const url = new URL(giftGridUrl(t.deps.config, 'HomemadeCake'));
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/app/`);
    expect(url.search).toBe('?collection=HomemadeCake');
    const app = await openInTelegram(browser, t, base, staff.id, 'light', { query: url.search });
    const { page } = app;

    await page.locator('main[data-page=order]').waitFor();
    await page.getByTestId('gift-total').getByText(/^150 gifts$/).waitFor();
    expect(await page.getByTestId('f-collection').inputValue()).toBe('HomemadeCake');
    const tiles = page.getByTestId('gift-grid').locator('.tile');
    const shown = await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    const expected = (await staff.call('GET', '/gifts?collection=HomemadeCake&limit=24&sort=price_asc')).body.items.map((g: { gift: string }) => `gift-${g.gift}`);
    expect(expected).toHaveLength(24);
    expect(shown).toEqual(expected);
    // the start page is the Order tab itself: nothing to go back to
    expect(await backButtonVisible(app)).not.toBe(true);
    await app.shot('gift-grid-at-collection');

    // still the whole market one choice away
    await page.getByTestId('f-collection').selectOption('');
    await page.getByTestId('gift-total').getByText(/^750 gifts$/).waitFor();
    await page.getByTestId('f-collection').selectOption('SignetRing');
    await page.getByTestId('gift-total').getByText(/^150 gifts$/).waitFor();
    await page.getByTestId('tab-home').click();
    await page.locator('main[data-page=home]').waitFor();
    await page.getByTestId('tab-order').click();
    await page.getByTestId('gift-total').getByText(/^750 gifts$/).waitFor();
    expect(await page.getByTestId('f-collection').inputValue()).toBe('');
    await app.context.close();
  });

  it('without a collection in its URL the app starts at home as before', async () => {
    const app = await openInTelegram(browser, t, base, staff.id, 'light');
    await app.page.locator('main[data-page=home]').waitFor();
    await app.context.close();
  });
});
