import crypto from 'node:crypto';

/**
 * Validation of Telegram Mini App init data, exactly as Telegram specifies
 * (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
 * secret_key = HMAC-SHA-256(key "WebAppData", message bot token); the data-check string is every
 * `key=value` pair except `hash`, sorted by key, joined with "\n"; `hash` is the hex HMAC-SHA-256 of it
 * keyed with secret_key. Written here rather than taken from a library because it must run on the
 * service clock (the sandbox moves it) and report why data was refused; it is pure (no I/O, no clock).
 */

export interface InitDataUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export type InitDataResult =
  | { ok: true; user: InitDataUser; authDate: number }
  | { ok: false; reason: 'malformed' | 'bad_hash' | 'expired' | 'no_user' };

const MAX_LENGTH = 8192;

export function initDataSecret(botToken: string): Buffer {
  return crypto.createHmac('sha256', 'WebAppData').update(botToken).digest();
}

/** The data-check string of parsed pairs (every pair except `hash`, sorted by key). */
export function dataCheckString(params: URLSearchParams): string {
  const lines: string[] = [];
  for (const [k, v] of params) if (k !== 'hash') lines.push(`${k}=${v}`);
  return lines.sort().join('\n');
}

/**
 * @param nowMs the service clock
 * @param maxAgeSec data whose auth_date is older than this is `expired` (a date in the future by more
 *   than a minute is refused too: the clocks of Telegram and the service may differ a little, not more)
 */
export function validateInitData(raw: string, botToken: string, nowMs: number, maxAgeSec: number): InitDataResult {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return { ok: false, reason: 'malformed' };
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(raw);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const hash = params.get('hash');
  if (!hash || !/^[0-9a-f]{64}$/.test(hash) || params.getAll('hash').length !== 1) return { ok: false, reason: 'malformed' };
  const keys = [...params.keys()];
  if (new Set(keys).size !== keys.length) return { ok: false, reason: 'malformed' };
  const expected = crypto.createHmac('sha256', initDataSecret(botToken)).update(dataCheckString(params)).digest();
  if (!crypto.timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return { ok: false, reason: 'bad_hash' };
  const authDate = Number(params.get('auth_date'));
  if (!Number.isSafeInteger(authDate) || authDate <= 0) return { ok: false, reason: 'malformed' };
  const nowSec = Math.floor(nowMs / 1000);
  if (nowSec - authDate > maxAgeSec || authDate - nowSec > 60) return { ok: false, reason: 'expired' };
  let user: InitDataUser;
  try {
    user = JSON.parse(params.get('user') ?? 'null');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!user || typeof user !== 'object' || !Number.isSafeInteger(user.id) || user.id <= 0) return { ok: false, reason: 'no_user' };
  return { ok: true, user, authDate };
}
