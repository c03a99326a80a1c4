import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/app/app-access.js';
import { stopService, type TestService } from '../helpers.js';
import { linkUser, type AppUser } from '../app-api/app-helpers.js';
import { CHROMIUM, startStand } from './browser-helpers.js';

/**
 * The service writes `created_at` as UTC wall-clock time without an offset; the Mini App shows it in the
 * browser's own zone: an order placed at 12:00 UTC reads 9:00 PM in a browser set to Asia/Tokyo.
 */
const have = fs.existsSync(CHROMIUM);

let t: TestService;
let owner: AppUser;
let browser: Browser;

beforeAll(async () => {
  if (!have) return;
  ({ t, browser } = await startStand());
  const p = await t.newPartner();
  owner = await linkUser(t, p, 'owner');
  const o = await p.order('stars', { quantity: 100, recipient: '@tokyo_user' });
  expect(o.body.created_at).toBe('2026-03-01T12:00:00.000000');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopService(t);
});

describe.runIf(have)('times in the Mini App', { timeout: 120_000 }, () => {
  it("shows an order's time in the browser's zone (Asia/Tokyo: 12:00 UTC is 21:00)", async () => {
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(createSignInLink(t.deps, owner.id).url);
    await page.getByTestId('signin-yes').click(); // a desktop browser: the sign-in link, so the context's zone applies
    await page.getByText('9:00 PM').first().waitFor();
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Asia/Tokyo');
    await context.close();
  });
});
