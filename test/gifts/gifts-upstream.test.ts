import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { loadGiftsConfig } from '../../src/config/gifts.js';
import { codeOf, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

const API_HASH = '0123456789abcdef0123456789abcdef';
const SESSION = '1BQANOTAREALSESSIONSTRINGxyzSECRET';

function linesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.lines;
    throw e;
  }
  return [];
}

describe('GIFTS_UPSTREAM', () => {
  it('defaults to the sandbox market in sandbox mode and to off with a live upstream', () => {
    expect(loadConfig({}).gifts).toEqual({ upstream: 'sandbox' });
    expect(loadGiftsConfig({}, 'fragment')).toEqual({ lines: [], config: { upstream: 'off' } });
    expect(loadConfig({ GIFTS_UPSTREAM: 'off' }).gifts).toEqual({ upstream: 'off' });
  });

  it('refuses the simulator beside a live upstream and names an unknown value without echoing it', () => {
    expect(loadGiftsConfig({ GIFTS_UPSTREAM: 'sandbox' }, 'fragment').lines).toEqual([
      'invalid configuration: GIFTS_UPSTREAM: "sandbox" is allowed only with UPSTREAM=sandbox (use "telegram" or "off")',
    ]);
    const l = linesOf({ GIFTS_UPSTREAM: 'fragmentxyz' });
    expect(l).toHaveLength(1);
    expect(l[0]).toMatch(/^invalid configuration: GIFTS_UPSTREAM: /);
    expect(l[0]).not.toContain('fragmentxyz');
  });

  it('with telegram, names every missing setting, one line each', () => {
    expect(linesOf({ GIFTS_UPSTREAM: 'telegram' })).toEqual([
      'invalid configuration: TELEGRAM_API_ID: must be set when GIFTS_UPSTREAM=telegram',
      'invalid configuration: TELEGRAM_API_HASH: must be set when GIFTS_UPSTREAM=telegram',
      'invalid configuration: GIFTS_SESSION: must be set (or GIFTS_SESSION_FILE) when GIFTS_UPSTREAM=telegram; create one with npm run gifts:login',
    ]);
  });

  it('with telegram, bad values are named and never printed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gifts-cfg-'));
    const l = linesOf({ GIFTS_UPSTREAM: 'telegram', TELEGRAM_API_ID: 'x12', TELEGRAM_API_HASH: 'SECRETHASH', GIFTS_SESSION_FILE: path.join(dir, 'missing.session'), GIFTS_BALANCE_MIN_TON: 'lots' });
    expect(l.map((x) => x.split(':')[1].trim())).toEqual(['TELEGRAM_API_ID', 'TELEGRAM_API_HASH', 'GIFTS_SESSION_FILE', 'GIFTS_BALANCE_MIN_TON']);
    for (const x of l) for (const secret of ['SECRETHASH', 'x12', dir]) expect(x).not.toContain(secret);
  });

  it('with telegram and complete settings, the account settings are read (session string or storage file)', () => {
    // beside a live upstream: with UPSTREAM=sandbox the pairing is refused (test/service/database-mode.test.ts)
    const c = loadGiftsConfig({ GIFTS_UPSTREAM: 'telegram', TELEGRAM_API_ID: '12345', TELEGRAM_API_HASH: API_HASH, GIFTS_SESSION: SESSION, GIFTS_COLLECTIONS: 'PlushPepe, DurovsCap', GIFTS_BALANCE_MIN_TON: '2.5' }, 'fragment');
    expect(c.lines).toEqual([]);
    expect(c.config).toEqual({ upstream: 'telegram', telegram: { apiId: 12345, apiHash: API_HASH, session: SESSION, collections: ['PlushPepe', 'DurovsCap'], balanceMinNano: 2_500_000_000n } });
  });
});

describe('with GIFTS_UPSTREAM=off in sandbox mode', () => {
  let t: TestService;
  let p: TestPartner;
  beforeAll(async () => {
    t = await startService({ GIFTS_UPSTREAM: 'off' });
    p = await t.newPartner({ usd: '100.00', ton: '100.000' });
  });
  afterAll(() => stopService(t));

  it('GET /products shows nft.available false, Stars and Premium unchanged', async () => {
    const r = await p.call('GET', '/products');
    expect(r.status).toBe(200);
    expect(r.body.nft.available).toBe(false);
    expect(r.body.stars.available).toBe(true);
  });

  it.each(['/nft/collections', '/nft/gifts?collection=PlushPepe', '/nft/gifts/PlushPepe-1'])('GET %s answers 503 product_unavailable, product_disabled', async (url) => {
    const r = await p.call('GET', url);
    expect(r.status).toBe(503);
    expect(codeOf(r)).toBe('product_unavailable');
    expect(JSON.stringify(r.body)).toContain('"reason":"product_disabled"');
    expect(r.raw).not.toContain('PlushPepe-');
  });

  it('an nft order answers 503 product_disabled and debits nothing', async () => {
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { recipient: 'alice_fan', gift: 'PlushPepe-1', max_price: '1000.000' });
    expect(r.status).toBe(503);
    expect(codeOf(r)).toBe('product_unavailable');
    expect(JSON.stringify(r.body)).toContain('"reason":"product_disabled"');
    expect((await p.call('GET', '/me')).body.nft_balance).toBe(before);
    expect((await t.admin('GET', '/ledger/check')).body.ok).toBe(true);
  });

  it('a Stars order still goes through', async () => {
    const r = await p.order('stars', { recipient: 'alice_fan', quantity: 100 });
    expect(r.status).toBe(200);
  });
});

describe('npm run gifts:check', () => {
  it('without credentials exits non-zero with one line naming the missing variable, and contacts nobody', { timeout: 90_000 }, async () => {
    const { spawn } = await import('node:child_process');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(TELEGRAM_.*|GIFTS_.*|NODE_OPTIONS|VITEST.*)$/.test(k)) env[k] = v;
    env.TELEGRAM_API_HASH = API_HASH;
    const root = path.resolve(__dirname, '..', '..');
    const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, 'src', 'suppliers', 'telegram-gifts', 'check.ts')], { cwd: os.tmpdir(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe('invalid configuration: TELEGRAM_API_ID: must be set when GIFTS_UPSTREAM=telegram\n');
    expect(err).not.toContain(API_HASH);
  });
});
