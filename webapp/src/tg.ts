import {
  backButton,
  closingBehavior,
  downloadFile as tgDownloadFile,
  hapticFeedback,
  init,
  isTMA,
  mainButton,
  miniApp,
  mockTelegramEnv,
  on,
  popup,
  retrieveLaunchParams,
  retrieveRawInitData,
  themeParams,
  viewport,
} from '@tma.js/sdk';

/**
 * The Telegram side of the app, through @tma.js/sdk (the maintained Mini Apps SDK, typed, bundled into the
 * build so nothing is loaded from a CDN): init data, theme, language, safe areas, the back and main buttons,
 * haptics, popups, the closing confirmation and downloads. Outside Telegram (a desktop browser signed in
 * with a link) every call is a harmless no-op or the browser's own equivalent.
 */

/** Where this page keeps the launch parameters it was opened with (a reload may lose them from the address). */
const LAUNCH_KEY = 'app/launch-params';

/**
 * The launch parameters as Telegram wrote them into the page's address (`#tgWebAppData=…&tgWebAppVersion=…`),
 * read leniently: from the address, the navigation entry, or this tab's first load. Written by hand because
 * the SDK's strict parser refuses init data without a `signature` field, which older Telegram clients do not
 * send; the service checks the data's `hash` either way, so the page must not be stricter than that.
 */
function lenientLaunchParams(): URLSearchParams | null {
  const fromUrl = (url: string | undefined) => (url ? url.replace(/^[^?#]*[?#]/, '').replace(/[?#]/g, '&') : '');
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  let stored: string | null = null;
  try {
    stored = sessionStorage.getItem(LAUNCH_KEY);
  } catch {
    // storage refused (a privacy setting): the address is the only source
  }
  for (const raw of [fromUrl(window.location.href), fromUrl(nav?.name), stored ?? '']) {
    const params = new URLSearchParams(raw);
    if (!params.get('tgWebAppData')) continue;
    try {
      sessionStorage.setItem(LAUNCH_KEY, params.toString());
    } catch {
      // kept in the address only
    }
    return params;
  }
  return null;
}

/**
 * The raw init data Telegram launched the app with, or '' outside Telegram. The SDK's reading first; when it
 * refuses launch parameters an older client sends (init data without `signature`), the same data read
 * leniently, and the SDK is given a copy it accepts (a blank `signature`) so that its theme, viewport and
 * buttons work; the service is sent the data exactly as Telegram signed it.
 */
function launchData(): string {
  try {
    const data = isTMA() ? (retrieveRawInitData() ?? '') : '';
    if (data) return data;
  } catch {
    // launch parameters the SDK does not accept: read them leniently below
  }
  const params = lenientLaunchParams();
  const data = params?.get('tgWebAppData') ?? '';
  if (!params || !data) return '';
  const init = new URLSearchParams(data);
  if (!init.has('signature')) {
    init.set('signature', '');
    const forSdk = new URLSearchParams(params);
    forSdk.set('tgWebAppData', init.toString());
    try {
      mockTelegramEnv({ launchParams: forSdk.toString() });
    } catch {
      // the SDK refuses them still: the page works without Telegram's buttons and theme
    }
  }
  return data;
}
const rawInitData = launchData();
export const inTelegram = rawInitData.length > 0;

export function initData(): string {
  return rawInitData;
}

export function language(): 'ru' | 'en' {
  let code: string | undefined;
  if (inTelegram) {
    try {
      code = retrieveLaunchParams().tgWebAppData?.user?.language_code;
    } catch {
      // launch parameters the SDK does not accept: the user as the init data names them
      code = (JSON.parse(new URLSearchParams(rawInitData).get('user') ?? '{}') as { language_code?: string }).language_code;
    }
  }
  code ??= navigator.language ?? 'en';
  return code.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

/**
 * Telegram's colour scheme, or the browser's outside Telegram; inside Telegram the header and the window
 * background take the page's own background (the theme's secondary colour, by its key, so Telegram
 * repaints them with the theme), set again on every theme change.
 */
export function applyScheme(): void {
  const dark = inTelegram ? themeParams.isDark() : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.scheme = dark ? 'dark' : 'light';
  document.documentElement.dataset.tg = inTelegram ? '1' : '0';
  if (inTelegram) {
    // a client whose theme lacks the key keeps its own colours: the SDK throws on an unknown key, and a
    // throw here would leave the page blank
    try {
      miniApp.setHeaderColor('secondary_bg_color');
      miniApp.setBgColor('secondary_bg_color');
    } catch {
      /* keep the client's colours */
    }
  }
}

/**
 * Starts the SDK: the theme's colours as --tg-theme-* variables, the safe areas (the device's notch and
 * home bar, and Telegram's own controls in full screen) as --tg-viewport-*safe-area-inset-* variables the
 * page pads itself with, the buttons and the closing behaviour mounted; then tells Telegram the app is ready.
 */
export function ready(): void {
  if (!inTelegram) {
    applyScheme();
    return;
  }
  init();
  themeParams.mount();
  themeParams.bindCssVars();
  miniApp.mount();
  backButton.mount();
  mainButton.mount();
  closingBehavior.mount();
  applyScheme();
  on('theme_changed', () => applyScheme());
  // the viewport asks Telegram for its size and insets; the page lays out meanwhile without them
  viewport
    .mount()
    .then(() => {
      viewport.bindCssVars(cssVarOf);
      viewport.expand();
    })
    .catch(() => {});
  miniApp.ready();
}

/**
 * The viewport's CSS variables under the names Telegram's own script uses (styles.css pads the page with
 * them): --tg-safe-area-inset-* (the device: notch, home bar), --tg-content-safe-area-inset-* (Telegram's
 * controls over the app in full screen), --tg-viewport-height and --tg-viewport-stable-height.
 */
function cssVarOf(key: string): string | null {
  if (key === 'width') return null;
  if (key === 'height' || key === 'stableHeight') return `--tg-viewport-${key === 'height' ? 'height' : 'stable-height'}`;
  const m = /^(content)?(?:S|s)afeAreaInset(Top|Bottom|Left|Right)$/.exec(key);
  return m ? `--tg-${m[1] ? 'content-' : ''}safe-area-inset-${m[2].toLowerCase()}` : null;
}

let backHandler: (() => void) | null = null;
/** Telegram's back button: shown while `fn` is set. */
export function setBack(fn: (() => void) | null): void {
  if (!inTelegram) return;
  if (backHandler) backButton.offClick(backHandler);
  backHandler = fn;
  if (fn) {
    backButton.onClick(fn);
    backButton.show();
  } else backButton.hide();
}

let mainHandler: (() => void) | null = null;
/** Telegram's main button (the confirmation of a screen); null hides it. */
export function setMain(b: { text: string; onClick: () => void; busy?: boolean; disabled?: boolean } | null): void {
  if (!inTelegram) return;
  if (mainHandler) mainButton.offClick(mainHandler);
  mainHandler = b ? b.onClick : null;
  if (!b) {
    mainButton.setParams({ isVisible: false, isLoaderVisible: false });
    return;
  }
  mainButton.onClick(b.onClick);
  mainButton.setParams({ text: b.text, isEnabled: !b.disabled && !b.busy, isLoaderVisible: !!b.busy, isVisible: true });
}

/** Haptic feedback: the outcome of an action (success, error), or a light tap when a choice changes. */
export function haptic(kind: 'success' | 'error' | 'tap'): void {
  if (!inTelegram || !hapticFeedback.isSupported()) return;
  if (kind === 'tap') hapticFeedback.selectionChanged();
  else hapticFeedback.notificationOccurred(kind);
}

/** Closing confirmation: while on, Telegram asks before the app is closed (a form holds unsaved input). */
let closingAsks = 0;
export function holdClosing(on: boolean): void {
  closingAsks = Math.max(0, closingAsks + (on ? 1 : -1));
  if (!inTelegram) return;
  if (closingAsks > 0) closingBehavior.enableConfirmation();
  else closingBehavior.disableConfirmation();
}

/** A yes/no question before a change that cannot be undone: Telegram's own popup, or the browser's outside it. */
export async function confirmDialog(text: string): Promise<boolean> {
  if (!inTelegram || !popup.isSupported()) return window.confirm(text);
  const id = await popup.show({ message: text, buttons: [{ id: 'ok', type: 'ok' }, { id: 'cancel', type: 'cancel' }] });
  return id === 'ok';
}

/**
 * Saves a file the service made (a CSV export) from its URL: Telegram's own download prompt inside Telegram
 * (which fetches the URL itself), a plain download link outside it.
 */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  if (inTelegram && tgDownloadFile.isAvailable()) {
    await tgDownloadFile(url, fileName);
    return;
  }
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
