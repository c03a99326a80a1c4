import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { validateInitData } from '../../src/domain/init-data.js';

/**
 * Telegram Mini App initData (core.telegram.org/bots/webapps, "Validating data received via the Mini
 * App"): secret_key = HMAC-SHA-256(key "WebAppData", message bot token); data-check-string = every
 * received field except `hash`, as `key=value` sorted by key, joined by "\n"; hash = hex
 * HMAC-SHA-256(key secret_key, message data-check-string). The signer below is written from that text with
 * node:crypto, independently of the service's code.
 */
const TOKEN = '7000000001:AAH-test-token-of-the-mini-app-0123456';
const OTHER_TOKEN = '7000000002:AAH-another-bot-token-0123456789abcd';
const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS / 1000;
const MAX_AGE = 86_400;

const USER = { id: 279058397, first_name: 'Влад', last_name: 'K', username: 'vdkfrost', language_code: 'ru' };

type Pairs = [string, string][];

function telegramHash(pairs: Pairs, token: string): string {
  const secretKey = crypto.createHmac('sha256', 'WebAppData').update(token, 'utf8').digest();
  const check = [...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  return crypto.createHmac('sha256', secretKey).update(check, 'utf8').digest('hex');
}

/** Query string as the Telegram client sends it: the fields, then `hash`. */
function signed(pairs: Pairs, token = TOKEN): string {
  return new URLSearchParams([...pairs, ['hash', telegramHash(pairs, token)]]).toString();
}

const fields = (over: Record<string, string | null> = {}): Pairs => {
  const base: Record<string, string> = {
    query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
    user: JSON.stringify(USER),
    auth_date: String(NOW - 10),
  };
  return Object.entries({ ...base, ...over }).filter((e): e is [string, string] => e[1] !== null);
};

const check = (raw: string) => validateInitData(raw, TOKEN, NOW_MS, MAX_AGE);

describe('valid initData', () => {
  it.each([
    ['the usual fields', fields(), NOW - 10],
    ['with chat fields and start_param', fields({ chat_instance: '-3788475317572404878', chat_type: 'private', start_param: 'ref_42' }), NOW - 10],
    ['with the newer Ed25519 `signature` field (covered by the hash like any other field)', fields({ signature: 'abc-_DEF' }), NOW - 10],
    ['signed right now', fields({ auth_date: String(NOW) }), NOW],
    ['exactly maxAge old', fields({ auth_date: String(NOW - MAX_AGE) }), NOW - MAX_AGE],
    ['60 s in the future (clock skew)', fields({ auth_date: String(NOW + 60) }), NOW + 60],
    ['a user with only an id', fields({ user: '{"id":5}' }), NOW - 10],
  ])('%s → ok', (_name, pairs, authDate) => {
    const r = check(signed(pairs));
    expect(r).toEqual({ ok: true, user: JSON.parse(pairs.find(([k]) => k === 'user')![1]), authDate });
  });

  it('does not depend on where `hash` sits in the query string', () => {
    const pairs = fields();
    const raw = new URLSearchParams([['hash', telegramHash(pairs, TOKEN)], ...pairs]).toString();
    expect(check(raw)).toMatchObject({ ok: true, user: USER });
  });

  it('reads %20 as well as + for spaces', () => {
    const pairs = fields({ user: JSON.stringify({ ...USER, first_name: 'Anna Maria' }) });
    const raw = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') + `&hash=${telegramHash(pairs, TOKEN)}`;
    expect(raw).toContain('%20');
    expect(check(raw)).toMatchObject({ ok: true, user: { first_name: 'Anna Maria' } });
  });
});

describe('bad hash', () => {
  const good = signed(fields());
  const hashOf = (raw: string) => new URLSearchParams(raw).get('hash')!;
  const withHash = (pairs: Pairs, hash: string) => new URLSearchParams([...pairs, ['hash', hash]]).toString();

  it.each([
    ['another bot token', signed(fields(), OTHER_TOKEN)],
    ['user id changed after signing', good.replace(encodeURIComponent(String(USER.id)), '1')],
    ['auth_date changed after signing', withHash(fields({ auth_date: String(NOW - 5) }), hashOf(good))],
    ['a field added after signing', `${good}&start_param=x`],
    ['a field removed after signing', withHash(fields({ query_id: null }), hashOf(good))],
    ['one hex digit of the hash changed', good.replace(/hash=(.)/, (_m, c: string) => `hash=${c === '0' ? '1' : '0'}`)],
    [
      'hash keyed with the bot token itself (skipping the WebAppData step)',
      withHash(fields(), crypto.createHmac('sha256', TOKEN).update(fields().sort().map(([k, v]) => `${k}=${v}`).join('\n')).digest('hex')),
    ],
    [
      'secret key with the HMAC arguments swapped',
      withHash(
        fields(),
        crypto
          .createHmac('sha256', crypto.createHmac('sha256', TOKEN).update('WebAppData').digest())
          .update(fields().sort().map(([k, v]) => `${k}=${v}`).join('\n'))
          .digest('hex'),
      ),
    ],
    [
      'fields joined with & instead of \\n',
      withHash(fields(), crypto.createHmac('sha256', crypto.createHmac('sha256', 'WebAppData').update(TOKEN).digest()).update(fields().sort().map(([k, v]) => `${k}=${v}`).join('&')).digest('hex')),
    ],
  ])('%s → bad_hash', (_name, raw) => {
    expect(check(raw)).toEqual({ ok: false, reason: 'bad_hash' });
  });

  it('an expired date with a bad hash reads bad_hash (nothing unsigned is judged)', () => {
    expect(check(signed(fields({ auth_date: String(NOW - MAX_AGE - 1) }), OTHER_TOKEN))).toEqual({ ok: false, reason: 'bad_hash' });
  });
});

describe('expired', () => {
  it.each([
    ['one second older than maxAge', NOW - MAX_AGE - 1],
    ['a week old', NOW - 7 * 86_400],
    ['61 s in the future', NOW + 61],
    ['an hour in the future', NOW + 3600],
  ])('%s → expired', (_name, authDate) => {
    expect(check(signed(fields({ auth_date: String(authDate) })))).toEqual({ ok: false, reason: 'expired' });
  });

  it.each([
    [60, NOW - 60, true],
    [60, NOW - 61, false],
    [3600, NOW - 3600, true],
    [3600, NOW - 3601, false],
  ])('maxAge %d s, auth_date now − %d → ok %s', (maxAge, authDate, ok) => {
    expect(validateInitData(signed(fields({ auth_date: String(authDate) })), TOKEN, NOW_MS, maxAge).ok).toBe(ok);
  });
});

describe('malformed', () => {
  const pairs = fields();
  const hash = telegramHash(pairs, TOKEN);
  it.each([
    ['empty', ''],
    ['no hash', new URLSearchParams(pairs).toString()],
    ['an empty hash', new URLSearchParams([...pairs, ['hash', '']]).toString()],
    ['an uppercase hash', new URLSearchParams([...pairs, ['hash', hash.toUpperCase()]]).toString()],
    ['a short hash', new URLSearchParams([...pairs, ['hash', hash.slice(1)]]).toString()],
    ['two hashes', new URLSearchParams([...pairs, ['hash', hash], ['hash', hash]]).toString()],
    ['a repeated field', `${new URLSearchParams([...pairs, ['hash', hash]]).toString()}&query_id=x`],
    ['longer than 8192 characters', signed(fields({ start_param: 'x'.repeat(8200) }))],
    ['no auth_date (correctly signed)', signed(fields({ auth_date: null }))],
    ['auth_date 0', signed(fields({ auth_date: '0' }))],
    ['auth_date not a number', signed(fields({ auth_date: 'yesterday' }))],
    ['auth_date with a fraction', signed(fields({ auth_date: `${NOW - 10}.5` }))],
    ['user not JSON', signed(fields({ user: '{id:5' }))],
  ])('%s → malformed', (_name, raw) => {
    expect(check(raw)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('no user', () => {
  it.each([
    ['no user field', fields({ user: null })],
    ['user null', fields({ user: 'null' })],
    ['user without id', fields({ user: '{"first_name":"A"}' })],
    ['user id 0', fields({ user: '{"id":0}' })],
    ['user id negative', fields({ user: '{"id":-5}' })],
    ['user id as a string', fields({ user: '{"id":"5"}' })],
    ['user id fractional', fields({ user: '{"id":5.5}' })],
    ['user is a number', fields({ user: '5' })],
  ])('%s → no_user', (_name, pairs) => {
    expect(check(signed(pairs))).toEqual({ ok: false, reason: 'no_user' });
  });
});
