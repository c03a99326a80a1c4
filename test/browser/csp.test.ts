import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopService, type TestService } from '../helpers.js';
import { linkUser, type AppUser } from '../app-api/app-helpers.js';
import { CHROMIUM, startStand, openInTelegram } from './browser-helpers.js';

/**
 * The pages work under their Content-Security-Policy in a real Chromium: the Mini App renders and calls its
 * API, Swagger UI renders the document, and the browser reports no refused script, style or request.
 */
const have = fs.existsSync(CHROMIUM);

let t: TestService;
let owner: AppUser;
let browser: Browser;
let base: string;

beforeAll(async () => {
  if (!have) return;
  ({ t, base, browser } = await startStand());
  owner = await linkUser(t, await t.newPartner(), 'owner');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopService(t);
});

describe.runIf(have)('pages under their Content-Security-Policy', { timeout: 120_000 }, () => {
  it('the Mini App renders and loads its data with nothing refused', async () => {
    const app = await openInTelegram(browser, t, base, owner.id, 'light');
    const refused: string[] = [];
    app.page.on('console', (m) => /Content Security Policy|Refused to/i.test(m.text()) && refused.push(m.text()));
    await app.page.reload();
    await app.page.getByTestId('balances').getByText('1000.000').waitFor();
    expect(refused).toEqual([]);
    await app.context.close();
  });

  it('Swagger UI renders the document and can call the API with nothing refused', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => /Content Security Policy|Refused to/i.test(m.text()) && refused.push(m.text()));
    const res = await page.goto(`${base}/docs`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 20_000 });
    expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(5);
    // what "Try it out" does: a fetch to the API from the page
    const status = await page.evaluate(async (u) => (await fetch(u)).status, `${base}/api/partner/v1/openapi.json`);
    expect(status).toBe(200);
    expect(refused).toEqual([]);
    await context.close();
  });
});
