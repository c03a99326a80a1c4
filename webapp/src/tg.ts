import WebApp from '@twa-dev/sdk';

/**
 * The Telegram side of the app, through Telegram's own web-app script (bundled by @twa-dev/sdk, so
 * nothing is loaded from a CDN): init data, theme, language, the back and main buttons. Outside
 * Telegram (a desktop browser signed in with a link) every call is a harmless no-op.
 */
export const tg = WebApp;
export const inTelegram = typeof WebApp.initData === 'string' && WebApp.initData.length > 0;

export function initData(): string {
  return inTelegram ? WebApp.initData : '';
}

export function language(): 'ru' | 'en' {
  const code = (inTelegram ? WebApp.initDataUnsafe.user?.language_code : navigator.language) ?? 'en';
  return code.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

/**
 * Telegram's colour scheme, or the browser's outside Telegram; inside Telegram the header and the window
 * background take the page's own background (the theme's secondary colour), on every theme change.
 */
export function applyScheme(): void {
  const dark = inTelegram ? WebApp.colorScheme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.scheme = dark ? 'dark' : 'light';
  document.documentElement.dataset.tg = inTelegram ? '1' : '0';
  if (inTelegram) {
    WebApp.setHeaderColor('secondary_bg_color');
    WebApp.setBackgroundColor('secondary_bg_color');
  }
}

export function ready(): void {
  applyScheme();
  if (!inTelegram) return;
  WebApp.onEvent('themeChanged', applyScheme);
  WebApp.ready();
  WebApp.expand();
}

let backHandler: (() => void) | null = null;
/** Telegram's back button: shown while `fn` is set. */
export function setBack(fn: (() => void) | null): void {
  if (!inTelegram) return;
  if (backHandler) WebApp.BackButton.offClick(backHandler);
  backHandler = fn;
  if (fn) {
    WebApp.BackButton.onClick(fn);
    WebApp.BackButton.show();
  } else WebApp.BackButton.hide();
}

let mainHandler: (() => void) | null = null;
/** Telegram's main button (the confirmation of a screen); null hides it. */
export function setMain(b: { text: string; onClick: () => void; busy?: boolean; disabled?: boolean } | null): void {
  if (!inTelegram) return;
  if (mainHandler) WebApp.MainButton.offClick(mainHandler);
  mainHandler = b ? b.onClick : null;
  if (!b) {
    WebApp.MainButton.hide();
    return;
  }
  WebApp.MainButton.onClick(b.onClick);
  // the progress first: Telegram's hideProgress() makes the button active again
  if (b.busy) WebApp.MainButton.showProgress(false);
  else WebApp.MainButton.hideProgress();
  WebApp.MainButton.setParams({ text: b.text, is_active: !b.disabled && !b.busy, is_visible: true });
}

/** Haptic feedback: the outcome of an action (success, error), or a light tap when a choice changes. */
export function haptic(kind: 'success' | 'error' | 'tap'): void {
  if (!inTelegram) return;
  if (kind === 'tap') WebApp.HapticFeedback.selectionChanged();
  else WebApp.HapticFeedback.notificationOccurred(kind);
}

/** Closing confirmation: while on, Telegram asks before the app is closed (a form holds unsaved input). */
let closingAsks = 0;
export function holdClosing(on: boolean): void {
  closingAsks = Math.max(0, closingAsks + (on ? 1 : -1));
  if (!inTelegram) return;
  if (closingAsks > 0) WebApp.enableClosingConfirmation();
  else WebApp.disableClosingConfirmation();
}

/** A yes/no question before a change that cannot be undone: Telegram's own popup, or the browser's outside it. */
export function confirmDialog(text: string): Promise<boolean> {
  if (!inTelegram) return Promise.resolve(window.confirm(text));
  return new Promise((resolve) => WebApp.showConfirm(text, (ok) => resolve(ok)));
}
