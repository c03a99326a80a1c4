import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort, startService, type TestService } from '../helpers.js';
import { BOT_TOKEN, initData } from '../app-api/app-helpers.js';

/**
 * Debian's Chromium (/usr/bin/chromium; .ci/run installs the package when it is missing) driven by
 * playwright-core, with a Telegram WebApp environment: the launch parameters Telegram puts in the URL
 * fragment (real signed initData, theme, version, platform) and a TelegramWebviewProxy that records what
 * the app asks of Telegram (main button, back button).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'artifacts');
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export const THEMES = {
  light: { bg_color: '#ffffff', secondary_bg_color: '#efeff4', section_bg_color: '#ffffff', text_color: '#000000', hint_color: '#8e8e93', link_color: '#2481cc', button_color: '#2481cc', button_text_color: '#ffffff', section_header_text_color: '#6d6d72', destructive_text_color: '#e53935' },
  dark: { bg_color: '#212121', secondary_bg_color: '#0f0f0f', section_bg_color: '#1c1c1d', text_color: '#ffffff', hint_color: '#aaaaaa', link_color: '#8774e1', button_color: '#8774e1', button_text_color: '#ffffff', section_header_text_color: '#aaaaaa', destructive_text_color: '#ee686f' },
};

/** Builds webapp/dist when it is missing or older than its sources, once even when test files start together. */
export function ensureWebappBuilt(): void {
  const script = path.join(import.meta.dirname, 'build-webapp.mjs');
  execSync(`flock ${JSON.stringify(path.join(os.tmpdir(), 'webapp-build.lock'))} ${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`, { stdio: 'inherit' });
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** The usual stand: the Mini App built, the service listening on a free port as its PUBLIC_BASE_URL, a browser. */
export async function startStand(env: Record<string, string> = {}): Promise<{ t: TestService; base: string; browser: Browser }> {
  ensureWebappBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startService({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, PUBLIC_BASE_URL: base, ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base, browser: await launch() };
}

export interface TgPage {
  page: Page;
  context: BrowserContext;
  /** postEvent calls the app made to Telegram: [type, data]. */
  events(): Promise<[string, any][]>;
  pressMain(): Promise<void>;
  pressBack(): Promise<void>;
  /** Waits for the app to open a Telegram popup (showConfirm) and closes it with `buttonId` ('ok', or '' for cancel). */
  answerPopup(buttonId: string): Promise<any>;
  shot(name: string): Promise<void>;
}

export type Insets = { top: number; bottom: number; left: number; right: number };
const NO_INSETS: Insets = { top: 0, bottom: 0, left: 0, right: 0 };

export async function openInTelegram(
  browser: Browser,
  t: TestService,
  base: string,
  userId: number,
  scheme: 'light' | 'dark',
  /** `query`: the launch URL's query (`?collection=…`), as a web_app button's URL may carry one. */
  opts: { width?: number; height?: number; language?: string; suffix?: string; safeArea?: Insets; contentSafeArea?: Insets; query?: string; initData?: string } = {},
): Promise<TgPage> {
  const width = opts.width ?? 390;
  const height = opts.height ?? 844;
  const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme, deviceScaleFactor: 1 });
  // Telegram's client answers the app's questions about the viewport and its safe areas, as a phone would
  const answers: Record<string, [string, unknown]> = {
    web_app_request_viewport: ['viewport_changed', { height, width, is_expanded: true, is_state_stable: true }],
    web_app_request_safe_area: ['safe_area_changed', opts.safeArea ?? NO_INSETS],
    web_app_request_content_safe_area: ['content_safe_area_changed', opts.contentSafeArea ?? NO_INSETS],
    // the user lets the file download (the test fetches the URL itself)
    web_app_request_file_download: ['file_download_requested', { status: 'downloading' }],
  };
  await context.addInitScript((answers) => {
    const w = window as any;
    w.__tgEvents = [];
    w.TelegramWebviewProxy = {
      postEvent: (type: string, data: string) => {
        w.__tgEvents.push([type, data ? JSON.parse(data) : null]);
        const a = answers[type];
        if (a) setTimeout(() => w.Telegram.WebView.receiveEvent(a[0], a[1]), 0);
      },
    };
  }, answers);
  const page = await context.newPage();
  // a step that cannot happen fails with its locator named, well before the test's own time limit
  page.setDefaultTimeout(10_000);
  const data = opts.initData ?? initData(userId, { authDate: t.deps.clock.now(), language: opts.language ?? 'en' });
  const hash = new URLSearchParams({ tgWebAppData: data, tgWebAppVersion: '8.0', tgWebAppPlatform: 'tdesktop', tgWebAppThemeParams: JSON.stringify(THEMES[scheme]) });
  await page.goto(`${base}/app/${opts.query ?? ''}#${hash.toString().replace(/\+/g, '%20')}`);
  return {
    page,
    context,
    events: () => page.evaluate(() => (window as any).__tgEvents),
    pressMain: () => page.evaluate(() => (window as any).Telegram.WebView.receiveEvent('main_button_pressed')),
    // as a person can: only once the app has shown Telegram's back button (right after a page changes, the
    // app sets its back button in an effect that may not have run yet)
    pressBack: async () => {
      await page.waitForFunction(() => (window as any).__tgEvents.filter((e: any) => e[0] === 'web_app_setup_back_button').at(-1)?.[1]?.is_visible === true);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
      await page.evaluate(() => (window as any).Telegram.WebView.receiveEvent('back_button_pressed'));
    },
    answerPopup: async (buttonId: string) => {
      const popup = await page.waitForFunction(() => {
        const w = window as any;
        const i = w.__tgEvents.findIndex((e: any) => e[0] === 'web_app_open_popup');
        if (i < 0) return null;
        // taken from the list: the next popup is waited for afresh
        return w.__tgEvents.splice(i, 1)[0][1];
      });
      const params = await popup.jsonValue();
      await page.evaluate((id) => (window as any).Telegram.WebView.receiveEvent('popup_closed', { button_id: id }), buttonId);
      return params;
    },
    shot: async (name: string) => {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}${opts.suffix ?? ''}-${scheme}.png`), fullPage: false });
    },
  };
}

/** The last back-button set-up the app sent to Telegram: shown or not. */
export async function backButtonVisible(p: TgPage): Promise<boolean | undefined> {
  const ev = (await p.events()).filter(([type]) => type === 'web_app_setup_back_button');
  return ev.at(-1)?.[1]?.is_visible;
}

/** '#rrggbb' as the browser writes a computed colour. */
export function rgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** The last main-button set-up the app sent to Telegram. */
export async function mainButton(p: TgPage): Promise<{ is_visible: boolean; is_active: boolean; text: string } | undefined> {
  const ev = (await p.events()).filter(([type]) => type === 'web_app_setup_main_button');
  return ev.at(-1)?.[1];
}
