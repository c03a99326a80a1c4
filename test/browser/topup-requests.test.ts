import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopService, type TestPartner, type TestService } from '../helpers.js';
import { linkUser, type AppUser } from '../app-api/app-helpers.js';
import { CHROMIUM, openInTelegram, startStand } from './browser-helpers.js';

/**
 * The Mini App's top-up page in Chromium: the open requests come first (amount to send, networks, time
 * left) with "Show again" and "Cancel", and a new request is offered only while the currency has room under
 * TOPUP_REQUESTS_MAX_OPEN (2 here).
 */
const have = fs.existsSync(CHROMIUM);
if (!have) console.warn(`skipping the browser tests: ${CHROMIUM} is missing (.ci/run installs the chromium package)`);

let t: TestService;
let p: TestPartner;
let owner: AppUser;
let browser: Browser;
let base: string;

beforeAll(async () => {
  if (!have) return;
  ({ t, base, browser } = await startStand({ TOPUP_REQUESTS_MAX_OPEN: '2', APP_RATE_LIMIT: '100000' }));
  p = await t.newPartner();
  owner = await linkUser(t, p, 'owner');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopService(t);
});

describe.runIf(have)('the top-up page in Chromium', { timeout: 120_000 }, () => {
  it('lists the open requests with time left; shows one again; cancels one; offers a new request only with room', async () => {
    const usd1 = (await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '20' })).body;
    await t.advance(3600);
    const usd2 = (await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '35' })).body;
    await t.advance(60);
    const ton = (await owner.call('POST', '/topup-requests', { currency: 'TON', amount: '15' })).body;
    await t.advance(90);

    const app = await openInTelegram(browser, t, base, owner.id, 'light');
    const { page } = app;
    await page.getByTestId('tab-topup').click();
    await page.getByTestId(`open-request-${usd1.request_id}`).waitFor();
    // newest first, each with its amount, its networks and the time left
    const rows = page.locator('[data-testid^=open-request-]');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual([
      `open-request-${ton.request_id}`,
      `open-request-${usd2.request_id}`,
      `open-request-${usd1.request_id}`,
    ]);
    const row = (id: string) => page.getByTestId(`open-request-${id}`);
    expect(await row(usd1.request_id).getByTestId('open-amount').innerText()).toBe(`${usd1.amount_to_send} USDT`);
    expect(await row(usd1.request_id).getByTestId('open-networks').innerText()).toBe('USDT: TON, TRC-20, BEP-20');
    expect(await row(usd1.request_id).getByTestId('open-left').innerText()).toBe('22 h 57 min left');
    expect(await row(ton.request_id).getByTestId('open-amount').innerText()).toBe(`${ton.amount_to_send} TON`);
    expect(await row(ton.request_id).getByTestId('open-networks').innerText()).toBe('TON coin');
    expect(await row(ton.request_id).getByTestId('open-left').innerText()).toBe('23 h 58 min left');
    // USD has no room (2 of 2): no form, the reason instead; TON has room
    await page.getByTestId('no-room').getByText('You have 2 open requests in USD, the most at once: pay or cancel one to ask for another.').waitFor();
    expect(await page.getByTestId('topup-amount').count()).toBe(0);
    await app.shot('topup-open-requests');
    await page.getByTestId('currency-TON').click();
    await page.getByTestId('topup-amount').waitFor();
    expect(await page.getByTestId('no-room').count()).toBe(0);

    // "Show again": the exact amount and, once the network is picked, that network's address
    await page.getByTestId(`show-${usd1.request_id}`).click();
    await page.getByTestId('amount-to-send').getByText(`${usd1.amount_to_send} USDT`).waitFor();
    expect(await page.getByTestId('address').count()).toBe(0);
    await page.getByTestId('network-bep20').click();
    expect(await page.getByTestId('request-network').innerText()).toBe('USDT (BEP-20, BNB Smart Chain)');
    expect(await page.getByTestId('address').innerText()).toBe(usd1.addresses.find((a: { network: string }) => a.network === 'bep20').address);
    await app.shot('topup-show-again');
    await page.getByTestId('all-requests').click();

    // "Cancel" in the list: asked first; "no" keeps it
    await page.getByTestId(`cancel-${usd2.request_id}`).click();
    const asked = await app.answerPopup('cancel');
    expect(asked.message).toBe(`Cancel the request for ${usd2.amount_to_send} USDT? Do not send this amount afterwards: a payment of a canceled request is not credited automatically.`);
    expect((await owner.call('GET', `/topup-requests/${usd2.request_id}`)).body.status).toBe('open');
    await page.getByTestId(`cancel-${usd2.request_id}`).click();
    await app.answerPopup('ok');
    await row(usd2.request_id).waitFor({ state: 'detached' });
    expect((await owner.call('GET', `/topup-requests/${usd2.request_id}`)).body.status).toBe('canceled');
    // USD has room again: the form is back
    await page.getByTestId('currency-USD').click();
    await page.getByTestId('topup-amount').waitFor();
    expect(await page.getByTestId('no-room').count()).toBe(0);

    // canceled from the request's own view too; then it reads canceled, with no address left to pay
    await page.getByTestId(`show-${ton.request_id}`).click();
    await page.getByTestId('comment-code').getByText(ton.comment_code).waitFor();
    await page.getByTestId('cancel-request').click();
    await app.answerPopup('ok');
    await page.getByTestId('request-status').getByText('Canceled').waitFor();
    expect(await page.getByTestId('address').count()).toBe(0);
    expect(await page.getByTestId('cancel-request').count()).toBe(0);
    await page.getByTestId('all-requests').click();
    await row(ton.request_id).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1);
    await page.getByTestId(`open-request-${usd1.request_id}`).waitFor();
    const audits = t.db.$client.prepare("select actor from audit_log where action = 'topup_request.cancel'").pluck().all();
    expect(audits).toEqual([`telegram:${owner.id}`, `telegram:${owner.id}`]);
    await app.context.close();
  });

  it('in Russian, in the dark', async () => {
    const app = await openInTelegram(browser, t, base, owner.id, 'dark', { language: 'ru' });
    const { page } = app;
    await page.getByTestId('tab-topup').click();
    const first = page.locator('[data-testid^=open-request-]').first();
    await first.waitFor();
    expect(await first.getByTestId('open-left').innerText()).toMatch(/^осталось \d+ ч \d+ мин$/);
    await first.getByText('Показать снова').waitFor();
    await first.getByText('Отменить').waitFor();
    await app.shot('topup-open-requests-ru');
    await app.context.close();
  });
});
