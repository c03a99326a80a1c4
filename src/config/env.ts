import { z } from 'zod';
import { isCidr } from '../domain/cidr.js';
import { bool01, csv, httpUrl, int, optionalString } from './fields.js';
import { topupEnvShape } from './topups.js';
import { adminChatIds, adminChatLanguages } from './admin-chats.js';
import { appEnvShape } from './app.js';
import { opsEnvShape } from './ops.js';
import { orderWaitEnvShape } from './order-wait.js';
import { loadFragmentConfig, type FragmentConfig } from './fragment.js';
import { GIFTS_ENV_NAMES, loadGiftsConfig, type GiftsConfig } from './gifts.js';
import { FRAGMENT_VARIABLES } from './fragment.js';
import { SECRET_VARIABLES, withSecretFiles } from './secret-files.js';
import { unknownVariables, unknownVariablesLine } from './unknown-variables.js';

/** Environment variables of operator-api.md section 1, validated once at start-up. */

const cidrList = csv.refine(
  (items) => items.every((c) => isCidr(c)),
  'must be a comma-separated list of CIDRs or IP addresses',
);

const httpsUrlWithPath = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' && u.pathname.length > 1 && !u.search && !u.hash;
  } catch {
    return false;
  }
}, 'must be an https URL with a path (https://host/path), without query or fragment');

/** Exported for the check that .env.example lists every variable (test/ops/env-example.test.ts). */
export const envSchema = z.object({
  PORT: int(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_PATH: z.string().min(1).default('./data/service.db'),
  ADMIN_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  UPSTREAM: z.enum(['sandbox', 'fragment'], { error: 'must be "sandbox" or "fragment"' }).default('sandbox'),
  SANDBOX_DEMO: bool01.default(true),
  PUBLIC_BASE_URL: optionalString.pipe(httpUrl.optional()),
  /** Proxy hops in front of the service: the caller is the N-th X-Forwarded-For entry from the end (src/http/client-ip.ts). */
  TRUST_PROXY: int(0, 16).default(0),
  /** A request whose headers and body have not arrived in full by then is cut off (408 or closed). */
  HTTP_REQUEST_TIMEOUT_SECONDS: int(1, 3600).default(30),
  API_RATE_LIMIT: int(1, 10_000_000).default(120),
  API_RATE_BURST: int(1, 10_000_000).default(30),
  NFT_CATALOG_RATE_LIMIT: int(1, 10_000_000).default(30),
  NFT_ORDERS_RATE_LIMIT: int(1, 10_000_000).default(60),
  VALIDATE_RECIPIENT_RATE_LIMIT: int(1, 10_000_000).default(60),
  STARS_MIN_PER_ORDER: int(1, 10_000_000).default(50),
  STARS_MAX_PER_ORDER: int(1, 10_000_000).default(50000),
  WEBHOOK_TIMEOUT_MS: int(100, 600_000).default(10000),
  WEBHOOK_REQUIRE_HTTPS: bool01.default(false),
  WEBHOOK_STANDARD_PORTS_ONLY: bool01.default(false),
  WEBHOOK_URL_MAX_LENGTH: int(16, 1_000_000).default(2048),
  WEBHOOK_ALLOW_SUBNETS: cidrList.default([]),
  DEPOSIT_ADDRESS_USDT_TON: optionalString,
  DEPOSIT_ADDRESS_USDT_TRC20: optionalString,
  DEPOSIT_ADDRESS_USDT_BEP20: optionalString,
  DEPOSIT_ADDRESS_TON: optionalString,
  TELEGRAM_BOT_TOKEN: optionalString,
  TELEGRAM_API_ROOT: httpUrl.default('https://api.telegram.org'),
  /** Unset: the bot long-polls. Set: Telegram posts updates to this URL, served by the API (src/app/bot-webhook.ts). */
  TELEGRAM_WEBHOOK_URL: optionalString.pipe(httpsUrlWithPath.optional()),
  /** The X-Telegram-Bot-Api-Secret-Token Telegram sends; unset: derived from the bot token (src/app/bot-webhook.ts). */
  TELEGRAM_WEBHOOK_SECRET: optionalString.pipe(
    z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be 1-256 characters of A-Z, a-z, 0-9, _ and -').optional(),
  ),
  ADMIN_CHAT_IDS: adminChatIds.default([]),
  /** An operator case (an order in review, an unmatched deposit) waiting this long is reminded once in the bot; 0: never. */
  BOT_CASE_REMINDER_HOURS: int(0, 720).default(4),
  /** Key protecting webhook secrets at rest (64 hex chars); default: a key file beside the database. */
  SECRET_ENCRYPTION_KEY: optionalString.pipe(
    z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters').optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Chain watchers of automatic top-ups (src/config/topups.ts). */
  ...topupEnvShape,
  /** Metrics, drain, backups (src/config/ops.ts). */
  ...opsEnvShape,
  /** The Mini App (src/config/app.ts). */
  ...appEnvShape,
  /** Waiting for an order's outcome (src/config/order-wait.ts). */
  ...orderWaitEnvShape,
});

/** The fewest stars Fragment sells in one purchase. */
const FRAGMENT_MIN_STARS = 50;

/** Every variable the service reads (besides FRAGMENT_*). NODE_ENV=production changes two defaults (loadConfig). */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(envSchema.shape), ...GIFTS_ENV_NAMES, 'NODE_ENV'];

/** Every name the service reads, `NAME_FILE` of each secret included (for the warning about unknown ones). */
export const KNOWN_VARIABLES: readonly string[] = [...new Set([...CONFIG_VARIABLES, ...FRAGMENT_VARIABLES, ...SECRET_VARIABLES.map((n) => `${n}_FILE`)])];

/** The one warning line naming variables with the service's prefixes that it does not read, or null. */
export function unknownVariablesWarning(env: Record<string, string | undefined>): string | null {
  return unknownVariablesLine(unknownVariables(env, KNOWN_VARIABLES));
}

/** `fragment`: the FRAGMENT_* settings, present exactly when UPSTREAM=fragment (src/config/fragment.ts). */
export type Config = z.output<typeof envSchema> & {
  publicBaseUrl: string;
  fragment?: FragmentConfig;
  gifts: GiftsConfig;
  /** The languages ADMIN_CHAT_IDS entries carry (`123456:ru`), by chat id. */
  operatorLanguages?: Record<string, 'ru' | 'en'>;
};

export class ConfigError extends Error {
  constructor(public readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/** Parses the environment; throws ConfigError with one line per bad variable. */
export function loadConfig(rawEnv: Record<string, string | undefined>): Config {
  // secrets from NAME_FILE or systemd credentials (src/config/secret-files.ts)
  const { env, lines: fileLines } = withSecretFiles(rawEnv);
  // Empty strings mean "unset", as shells and .env files commonly write them.
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') cleaned[key] = v;
  }
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const seen = new Set<string>();
    const lines: string[] = [...fileLines];
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      if (seen.has(name)) continue;
      seen.add(name);
      // The variable and the rule only, never the value: it may be a secret (a token, a key-bearing URL).
      lines.push(`invalid configuration: ${name}: ${issue.message}`);
    }
    throw new ConfigError(lines);
  }
  const c = parsed.data;
  const extra: string[] = [...fileLines];
  // operator-api.md §1: a production start names its supplier (no silent sandbox) and makes no demo partner
  const production = env.NODE_ENV?.trim() === 'production';
  const upstreamMissing = production && cleaned.UPSTREAM === undefined;
  if (upstreamMissing)
    extra.push('invalid configuration: UPSTREAM: must be set with NODE_ENV=production ("fragment" for real supply, "sandbox" for play money)');
  if (production && cleaned.SANDBOX_DEMO === undefined) c.SANDBOX_DEMO = false;
  if (c.STARS_MIN_PER_ORDER > c.STARS_MAX_PER_ORDER)
    extra.push('invalid configuration: STARS_MIN_PER_ORDER: must not exceed STARS_MAX_PER_ORDER');
  // Fragment sells no fewer than 50 stars: a smaller order would be accepted, debited and then refused
  if (c.UPSTREAM === 'fragment' && c.STARS_MIN_PER_ORDER < FRAGMENT_MIN_STARS)
    extra.push(`invalid configuration: STARS_MIN_PER_ORDER: must be at least ${FRAGMENT_MIN_STARS} with UPSTREAM=fragment (Fragment's minimum)`);
  const fragment = c.UPSTREAM === 'fragment' ? loadFragmentConfig(env) : undefined;
  if (fragment) extra.push(...fragment.lines);
  const gifts = loadGiftsConfig(env, c.UPSTREAM);
  extra.push(...gifts.lines);
  // play money never buys real gifts: the sandbox's balances, deposits and movable clock stay away from a real account
  if (gifts.config?.upstream === 'telegram' && c.UPSTREAM === 'sandbox' && !upstreamMissing)
    extra.push('invalid configuration: GIFTS_UPSTREAM: "telegram" is refused with UPSTREAM=sandbox (real gifts are never bought with play money): set UPSTREAM to a live supplier, or GIFTS_UPSTREAM to "sandbox" or "off"');
  // a secret file that cannot be read is reported here and by the Fragment settings' own reader: once
  if (extra.length) throw new ConfigError([...new Set(extra)]);
  const publicBaseUrl = (c.PUBLIC_BASE_URL ?? `http://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.PORT}`).replace(/\/$/, '');
  return { ...c, publicBaseUrl, gifts: gifts.config!, operatorLanguages: adminChatLanguages(cleaned.ADMIN_CHAT_IDS), ...(fragment?.config ? { fragment: fragment.config } : {}) };
}
