import fs from 'node:fs';

/**
 * GIFTS_UPSTREAM and the Telegram gift account (operator-api.md §1, docs/gifts.md). Read by hand rather than
 * through the zod schema of env.ts because two of these values are secrets (the api hash, the session
 * string): an error line names the variable and the rule, never a value.
 */

export type GiftsUpstream = 'off' | 'sandbox' | 'telegram';

export interface TelegramGiftsConfig {
  apiId: number;
  /** secret */
  apiHash: string;
  /** secret: an mtcute session string (GIFTS_SESSION) … */
  session?: string;
  /** … or the path of mtcute's SQLite session storage written by `npm run gifts:login` (GIFTS_SESSION_FILE). */
  sessionFile?: string;
  /** Collections offered (their slug prefix, e.g. `PlushPepe`); empty: every collection with resale listings. */
  collections: string[];
  /** Alert operators when the account's TON balance is below this (nanoTON). */
  balanceMinNano: bigint;
}

export interface GiftsConfig {
  upstream: GiftsUpstream;
  telegram?: TelegramGiftsConfig;
}

/** Every variable read here (env.ts passes them through untouched). */
export const GIFTS_ENV_NAMES = [
  'GIFTS_UPSTREAM',
  'GIFTS_COLLECTIONS',
  'GIFTS_BALANCE_MIN_TON',
  'GIFTS_SESSION',
  'GIFTS_SESSION_FILE',
  'TELEGRAM_API_ID',
  'TELEGRAM_API_HASH',
];

const TON = /^\d+(\.\d{1,9})?$/;

function tonToNano(s: string): bigint {
  const [whole, frac = ''] = s.split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt((frac + '000000000').slice(0, 9));
}

/** TELEGRAM_API_ID and TELEGRAM_API_HASH (my.telegram.org), or the error lines added to `lines`. */
export function loadTelegramApp(env: Record<string, string | undefined>, lines: string[]): { apiId: number; apiHash: string } | null {
  const apiIdRaw = env.TELEGRAM_API_ID?.trim();
  const apiHash = env.TELEGRAM_API_HASH?.trim();
  const before = lines.length;
  if (!apiIdRaw) lines.push('invalid configuration: TELEGRAM_API_ID: must be set when GIFTS_UPSTREAM=telegram');
  else if (!/^\d{1,12}$/.test(apiIdRaw) || Number(apiIdRaw) <= 0) lines.push('invalid configuration: TELEGRAM_API_ID: must be a positive whole number (value not shown)');
  if (!apiHash) lines.push('invalid configuration: TELEGRAM_API_HASH: must be set when GIFTS_UPSTREAM=telegram');
  else if (!/^[0-9a-f]{32}$/i.test(apiHash)) lines.push('invalid configuration: TELEGRAM_API_HASH: must be 32 hex characters (value not shown)');
  return lines.length === before ? { apiId: Number(apiIdRaw), apiHash: apiHash! } : null;
}

/** Parses the gift settings for an UPSTREAM; returns the config or the error lines (one per variable). */
export function loadGiftsConfig(env: Record<string, string | undefined>, upstream: string): { config?: GiftsConfig; lines: string[] } {
  const get = (k: string) => {
    const v = env[k]?.trim();
    return v ? v : undefined;
  };
  const lines: string[] = [];
  const raw = get('GIFTS_UPSTREAM') ?? (upstream === 'sandbox' ? 'sandbox' : 'off');
  if (raw !== 'off' && raw !== 'sandbox' && raw !== 'telegram') return { lines: ['invalid configuration: GIFTS_UPSTREAM: must be "off", "sandbox" or "telegram"'] };
  // the simulator's gifts are never sold by a live service
  if (raw === 'sandbox' && upstream !== 'sandbox') return { lines: ['invalid configuration: GIFTS_UPSTREAM: "sandbox" is allowed only with UPSTREAM=sandbox (use "telegram" or "off")'] };
  if (raw !== 'telegram') return { lines, config: { upstream: raw } };

  const account = loadTelegramApp(env, lines);
  const session = get('GIFTS_SESSION');
  const sessionFile = get('GIFTS_SESSION_FILE');
  if (!session && !sessionFile)
    lines.push('invalid configuration: GIFTS_SESSION: must be set (or GIFTS_SESSION_FILE) when GIFTS_UPSTREAM=telegram; create one with npm run gifts:login');
  else if (!session && sessionFile) {
    try {
      fs.accessSync(sessionFile, fs.constants.R_OK | fs.constants.W_OK);
    } catch {
      lines.push('invalid configuration: GIFTS_SESSION_FILE: cannot be read and written (create it with npm run gifts:login)');
    }
  }
  const minRaw = get('GIFTS_BALANCE_MIN_TON') ?? '10';
  if (!TON.test(minRaw)) lines.push('invalid configuration: GIFTS_BALANCE_MIN_TON: must be a TON amount like 10 or 2.5');
  const collections = (get('GIFTS_COLLECTIONS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!collections.every((c) => /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(c)))
    lines.push('invalid configuration: GIFTS_COLLECTIONS: must be comma-separated collection names as in gift ids (PlushPepe,DurovsCap)');
  if (lines.length) return { lines };
  return {
    lines,
    config: {
      upstream: 'telegram',
      telegram: {
        apiId: account!.apiId,
        apiHash: account!.apiHash,
        ...(session ? { session } : { sessionFile }),
        collections,
        balanceMinNano: tonToNano(minRaw),
      },
    },
  };
}
