import fs from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { csv, httpUrl, int } from './fields.js';
import { toNano } from '../domain/money.js';

/**
 * FRAGMENT_* variables (README "Going live with Fragment"), read only when UPSTREAM=fragment. Each secret
 * comes from the variable itself or from a file named by `<NAME>_FILE` (the file wins when both are set).
 * Error lines name the variable and never echo a secret's value.
 */

// Only the word list of @ton/crypto (its index loads every primitive, slow for a start-up that needs none).
const { wordlist } = createRequire(import.meta.url)('@ton/crypto/dist/mnemonic/wordlist') as { wordlist: string[] };
const WORDS = new Set(wordlist);

const SECRET_NAMES = ['FRAGMENT_MNEMONIC', 'FRAGMENT_COOKIES', 'FRAGMENT_HASH', 'FRAGMENT_TONCENTER_API_KEY'] as const;
type SecretName = (typeof SECRET_NAMES)[number];
export const REQUIRED_COOKIES = ['stel_ssid', 'stel_dt', 'stel_token', 'stel_ton_token'] as const;

const tonAmount = z
  .string()
  .regex(/^\d+(\.\d{1,9})?$/, 'must be a TON amount like 5 or 0.25')
  .transform((s) => toNano(s));
const percent = z
  .string()
  .regex(/^\d+(\.\d{1,2})?$/, 'must be a percentage like 2 or 0.5')
  .transform((s) => Math.round(Number(s) * 100)); // basis points
const tonAddressList = csv.refine((items) => items.length > 0 && items.every(isTonAddress), 'must be a comma-separated list of TON addresses');

const plainShape = {
  /** Unset: V5R1, unless this database already paid from the mnemonic's V4R2 wallet (docs/fragment.md). */
  FRAGMENT_WALLET_VERSION: z.enum(['v4r2', 'v5r1'], { error: 'must be "v4r2" or "v5r1"' }).optional(),
  FRAGMENT_API_URL: httpUrl.default('https://fragment.com'),
  FRAGMENT_TONCENTER_URL: httpUrl.default('https://toncenter.com'),
  /** Where the TON/USD rate comes from: CoinGecko's simple price API (README "Prices"). */
  FRAGMENT_TON_USD_URL: httpUrl.default('https://api.coingecko.com/api/v3/simple/price?ids=the-open-network&vs_currencies=usd'),
  /** Fragment's receiving addresses: a payment to any other address is refused before signing. */
  FRAGMENT_PAY_ADDRESSES: tonAddressList,
  /** A Telegram account without Premium used to read Fragment's prices (nothing is bought for it). */
  FRAGMENT_PRICE_PROBE_USERNAME: z.string().regex(/^@?[A-Za-z][A-Za-z0-9_]{3,31}$/, 'must be a Telegram username'),
  FRAGMENT_PRICE_TTL_SEC: int(5, 3600).default(60),
  /** How far the amount Fragment asks may exceed the cached cost (price movement between quote and payment). */
  FRAGMENT_AMOUNT_TOLERANCE_PCT: percent.default(2_00),
  /** A transaction whose validUntil is further away than this is refused (Fragment gives a few minutes). */
  FRAGMENT_MAX_VALID_SEC: int(30, 3600).default(900),
  /** The signed message expires this soon (it is never valid longer than Fragment's validUntil). */
  FRAGMENT_SEND_TTL_SEC: int(30, 600).default(120),
  /** How long after the message expired an unsettled payment waits for the chain before manual review. */
  FRAGMENT_LOOKUP_BOUND_SEC: int(30, 86_400).default(600),
  /** Kept on the wallet for network fees on top of each payment. */
  FRAGMENT_FEE_RESERVE_TON: tonAmount.default(50_000_000n),
  FRAGMENT_WALLET_MIN_TON: tonAmount.default(10_000_000_000n),
  /** Most orders paid by one signed transfer (1: one order per transfer); the wallet's own limit applies too. */
  FRAGMENT_BATCH_MAX: int(1, 255).default(255),
  /** Fragment purchase requests (search, request, link) prepared at once. */
  FRAGMENT_PREPARE_CONCURRENCY: int(1, 64).default(8),
};

/** Every FRAGMENT_* variable name, for the check that .env.example lists them (test/ops/env-example.test.ts). */
export const FRAGMENT_VARIABLES: readonly string[] = [...Object.keys(plainShape), ...SECRET_NAMES.flatMap((n) => [n, `${n}_FILE`])];

export interface FragmentConfig {
  /** null: not set (V5R1 for a new wallet, V4R2 for one this database already paid from) */
  walletVersion: 'v4r2' | 'v5r1' | null;
  mnemonic: string[];
  cookies: Record<string, string>;
  hash: string;
  toncenterApiKey?: string;
  apiUrl: string;
  toncenterUrl: string;
  tonUsdUrl: string;
  payAddresses: string[];
  probeUsername: string;
  priceTtlSec: number;
  toleranceBps: number;
  maxValidSec: number;
  sendTtlSec: number;
  lookupBoundSec: number;
  feeReserveNano: bigint;
  walletMinNano: bigint;
  batchMax: number;
  prepareConcurrency: number;
}

/**
 * Reads one secret from `NAME` or the file `NAME_FILE`; the file's trailing newline is dropped. null: the
 * file could not be read (already reported).
 */
function readSecret(env: Record<string, string | undefined>, name: SecretName, lines: string[]): string | undefined | null {
  const file = env[`${name}_FILE`]?.trim();
  if (file) {
    try {
      return fs.readFileSync(file, 'utf8').trim() || undefined;
    } catch {
      lines.push(`invalid configuration: ${name}_FILE: cannot be read`);
      return null;
    }
  }
  const v = env[name]?.trim();
  return v ? v : undefined;
}

export function parseCookies(raw: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of raw.split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return REQUIRED_COOKIES.every((c) => out[c]) ? out : null;
}

/**
 * A TON address in raw (`0:<64 hex>`) or user-friendly (48 base64 characters) form. A shape check, so
 * that loading the configuration needs no TON library; checkPayment parses them fully.
 */
export function isTonAddress(s: string): boolean {
  return /^-?\d{1,3}:[0-9a-fA-F]{64}$/.test(s) || /^[A-Za-z0-9_\-+/]{48}$/.test(s);
}

/** Parses the FRAGMENT_* variables; returns the config or the error lines (one per variable). */
export function loadFragmentConfig(env: Record<string, string | undefined>): { config?: FragmentConfig; lines: string[] } {
  const lines: string[] = [];
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(plainShape)) {
    const v = env[key];
    if (v !== undefined && v.trim() !== '') cleaned[key] = v.trim();
  }
  const parsed = z.object(plainShape).safeParse(cleaned);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      if (seen.has(name)) continue;
      seen.add(name);
      lines.push(`invalid configuration: ${name}: ${issue.message}`);
    }
  }
  const mnemonicRaw = readSecret(env, 'FRAGMENT_MNEMONIC', lines);
  const words = mnemonicRaw?.split(/\s+/).map((w) => w.toLowerCase()) ?? [];
  if (mnemonicRaw === null) {
    /* reported */
  } else if (!mnemonicRaw) lines.push('invalid configuration: FRAGMENT_MNEMONIC: must be set (or FRAGMENT_MNEMONIC_FILE) when UPSTREAM=fragment');
  else if (words.length !== 24 || !words.every((w) => WORDS.has(w)))
    lines.push('invalid configuration: FRAGMENT_MNEMONIC: must be 24 words of the TON mnemonic word list (value not shown)');
  const cookiesRaw = readSecret(env, 'FRAGMENT_COOKIES', lines);
  const cookies = cookiesRaw ? parseCookies(cookiesRaw) : null;
  if (cookiesRaw === null) {
    /* reported */
  } else if (!cookiesRaw) lines.push('invalid configuration: FRAGMENT_COOKIES: must be set (or FRAGMENT_COOKIES_FILE) when UPSTREAM=fragment');
  else if (!cookies) lines.push(`invalid configuration: FRAGMENT_COOKIES: must hold the cookies ${REQUIRED_COOKIES.join(', ')} as name=value; pairs (value not shown)`);
  const hash = readSecret(env, 'FRAGMENT_HASH', lines);
  if (hash === null) {
    /* reported */
  } else if (!hash) lines.push('invalid configuration: FRAGMENT_HASH: must be set (or FRAGMENT_HASH_FILE) when UPSTREAM=fragment');
  else if (!/^[0-9a-f]{8,64}$/i.test(hash)) lines.push('invalid configuration: FRAGMENT_HASH: must be the hex api hash of a fragment.com page (value not shown)');
  const apiKey = readSecret(env, 'FRAGMENT_TONCENTER_API_KEY', lines);
  if (lines.length || !parsed.success) return { lines };
  const c = parsed.data;
  return {
    lines,
    config: {
      walletVersion: c.FRAGMENT_WALLET_VERSION ?? null,
      mnemonic: words,
      cookies: cookies!,
      hash: hash!,
      toncenterApiKey: apiKey ?? undefined,
      apiUrl: c.FRAGMENT_API_URL.replace(/\/$/, ''),
      toncenterUrl: c.FRAGMENT_TONCENTER_URL.replace(/\/$/, ''),
      tonUsdUrl: c.FRAGMENT_TON_USD_URL,
      payAddresses: c.FRAGMENT_PAY_ADDRESSES,
      probeUsername: c.FRAGMENT_PRICE_PROBE_USERNAME.replace(/^@/, ''),
      priceTtlSec: c.FRAGMENT_PRICE_TTL_SEC,
      toleranceBps: c.FRAGMENT_AMOUNT_TOLERANCE_PCT,
      maxValidSec: c.FRAGMENT_MAX_VALID_SEC,
      sendTtlSec: c.FRAGMENT_SEND_TTL_SEC,
      lookupBoundSec: c.FRAGMENT_LOOKUP_BOUND_SEC,
      feeReserveNano: c.FRAGMENT_FEE_RESERVE_TON,
      walletMinNano: c.FRAGMENT_WALLET_MIN_TON,
      batchMax: c.FRAGMENT_BATCH_MAX,
      prepareConcurrency: c.FRAGMENT_PREPARE_CONCURRENCY,
    },
  };
}

/** nanoTON conversions (src/domain/money.ts), where the Fragment adapter has always found them. */
export { fromNano, toNano } from '../domain/money.js';

/** Names of every FRAGMENT_* variable (the base config passes them through untouched). */
export const FRAGMENT_ENV_NAMES = [...Object.keys(plainShape), ...SECRET_NAMES.flatMap((n) => [n, `${n}_FILE`])];
