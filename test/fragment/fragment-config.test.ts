import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { silentLogger } from '../../src/kernel/log.js';
import { createService } from '../../src/service.js';
import { COOKIES, FRAGMENT_ADDRESS, FRAGMENT_HASH, newMnemonic } from './fakes.js';
import { fragmentHarness } from './harness.js';

/** FRAGMENT_* secrets: from variables or files, never echoed, one line per bad one; the hot wallet view. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const start = fragmentHarness();

async function baseEnv(): Promise<Record<string, string>> {
  return {
    UPSTREAM: 'fragment',
    FRAGMENT_MNEMONIC: (await newMnemonic()).join(' '),
    FRAGMENT_COOKIES: COOKIES,
    FRAGMENT_HASH,
    FRAGMENT_PAY_ADDRESSES: FRAGMENT_ADDRESS.toString(),
    FRAGMENT_PRICE_PROBE_USERNAME: 'price_probe',
  };
}

function lines(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).lines;
  }
  throw new Error('accepted');
}

describe('FRAGMENT_* configuration', () => {
  it('accepts a complete set, and reads secrets from files', async () => {
    const env = await baseEnv();
    expect(loadConfig(env).fragment).toMatchObject({ walletVersion: null, batchMax: 255, prepareConcurrency: 8, hash: FRAGMENT_HASH, probeUsername: 'price_probe' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-frag-cfg-'));
    fs.writeFileSync(path.join(dir, 'mnemonic'), `${env.FRAGMENT_MNEMONIC}\n`);
    fs.writeFileSync(path.join(dir, 'cookies'), COOKIES);
    const c = loadConfig({ ...env, FRAGMENT_MNEMONIC: '', FRAGMENT_MNEMONIC_FILE: path.join(dir, 'mnemonic'), FRAGMENT_COOKIES: '', FRAGMENT_COOKIES_FILE: path.join(dir, 'cookies') });
    expect(c.fragment!.mnemonic.join(' ')).toBe(env.FRAGMENT_MNEMONIC);
    expect(c.fragment!.cookies.stel_ton_token).toBe('tontoken-SECRET-3');
    fs.rmSync(dir, { recursive: true, force: true });
    // the sandbox needs none of them
    expect(loadConfig({}).fragment).toBeUndefined();
  });

  it('a missing or malformed secret gives one line naming it, without its value', async () => {
    const env = await baseEnv();
    const words = env.FRAGMENT_MNEMONIC.split(' ');
    const cases: [Record<string, string>, string][] = [
      [{ FRAGMENT_MNEMONIC: '' }, 'FRAGMENT_MNEMONIC'],
      [{ FRAGMENT_MNEMONIC: words.slice(0, 23).join(' ') }, 'FRAGMENT_MNEMONIC'],
      [{ FRAGMENT_MNEMONIC: [...words.slice(0, 23), 'notaword'].join(' ') }, 'FRAGMENT_MNEMONIC'],
      [{ FRAGMENT_COOKIES: 'stel_ssid=ssid-SECRET-1; stel_dt=-180; stel_token=token-SECRET-2' }, 'FRAGMENT_COOKIES'],
      [{ FRAGMENT_HASH: 'not hex!' }, 'FRAGMENT_HASH'],
      [{ FRAGMENT_MNEMONIC_FILE: '/nonexistent/mnemonic' }, 'FRAGMENT_MNEMONIC_FILE'],
      [{ FRAGMENT_PAY_ADDRESSES: 'EQnotanaddress' }, 'FRAGMENT_PAY_ADDRESSES'],
      [{ FRAGMENT_WALLET_VERSION: 'v3r2' }, 'FRAGMENT_WALLET_VERSION'],
      [{ FRAGMENT_HASH: '' }, 'FRAGMENT_HASH'],
      [{ FRAGMENT_COOKIES: '' }, 'FRAGMENT_COOKIES'],
      [{ FRAGMENT_COOKIES_FILE: '/nonexistent/cookies' }, 'FRAGMENT_COOKIES_FILE'],
      [{ FRAGMENT_PAY_ADDRESSES: '' }, 'FRAGMENT_PAY_ADDRESSES'],
      [{ FRAGMENT_PRICE_PROBE_USERNAME: '' }, 'FRAGMENT_PRICE_PROBE_USERNAME'],
      [{ FRAGMENT_WALLET_MIN_TON: 'ten' }, 'FRAGMENT_WALLET_MIN_TON'],
      [{ FRAGMENT_BATCH_MAX: '0' }, 'FRAGMENT_BATCH_MAX'],
      [{ FRAGMENT_BATCH_MAX: '256' }, 'FRAGMENT_BATCH_MAX'],
      [{ FRAGMENT_PREPARE_CONCURRENCY: '0' }, 'FRAGMENT_PREPARE_CONCURRENCY'],
    ];
    for (const [over, name] of cases) {
      const l = lines({ ...env, ...over });
      expect(l, name).toHaveLength(1);
      expect(l[0]).toMatch(new RegExp(`\\b${name}\\b`));
      // no two consecutive words of the mnemonic (a single word may be an ordinary English word of the message)
      for (let i = 0; i < 23; i++) expect(l[0]).not.toContain(`${words[i]} ${words[i + 1]}`);
      expect(l[0]).not.toContain('notaword');
      expect(l[0]).not.toContain('SECRET');
    }
  });

  it('a mnemonic whose TON checksum is wrong stops the service with one line naming FRAGMENT_MNEMONIC', async () => {
    const env = await baseEnv();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-frag-mn-'));
    try {
      const config = loadConfig({ ...env, FRAGMENT_MNEMONIC: Array(24).fill('abandon').join(' '), DATABASE_PATH: path.join(dir, 'db.sqlite') });
      const err = await createService({ config, log: silentLogger, startWorkers: false }).catch((e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).lines).toEqual(['invalid configuration: FRAGMENT_MNEMONIC: not a valid TON mnemonic (value not shown)']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('start-up stops with one line naming the missing variable', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(FRAGMENT_.*|UPSTREAM|PORT|DATABASE_PATH|NODE_OPTIONS|VITEST.*)$/.test(k)) env[k] = v;
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-frag-start-'));
    Object.assign(env, await baseEnv(), { FRAGMENT_COOKIES: '', DATABASE_PATH: path.join(cwd, 'service.db') });
    try {
      const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, 'src', 'main.ts')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(code).toBe(1);
      const l = stderr.split('\n').filter((x) => x.trim());
      expect(l).toHaveLength(1);
      expect(l[0]).toMatch(/\bFRAGMENT_COOKIES\b/);
      expect(fs.existsSync(env.DATABASE_PATH)).toBe(false);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('FRAGMENT_WALLET_VERSION unset: V5R1 for a new wallet; a database that already paid from the V4R2 wallet of the mnemonic keeps it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-frag-ver-'));
    try {
      const { HotWallet } = await import('../../src/suppliers/fragment/wallet.js');
      const env: Record<string, string> = { ...(await baseEnv()), DATABASE_PATH: path.join(dir, 'db.sqlite') };
      const words = env.FRAGMENT_MNEMONIC.split(' ');
      const v4 = await HotWallet.fromMnemonic(words, 'v4r2');
      const open = async () => createService({ config: loadConfig(env), log: silentLogger, startWorkers: false });
      let svc = await open();
      expect(svc.fragment!.wallet.version).toBe('v5r1');
      expect(svc.fragment!.wallet.maxMessages).toBe(255);
      // a payment made from the V4R2 wallet before (the former default)
      svc.db.$client
        .prepare("insert into fragment_batches (batch_id, wallet, seqno, valid_until, norm_hash, boc, state, orders, messages, amount_nano, created_at, updated_at) values ('b', ?, 0, 0, 'h', 'x', 'done', 1, 1, '1', 0, 0)")
        .run(v4.address.toRawString());
      await svc.close();
      svc = await open();
      expect(svc.fragment!.wallet.version).toBe('v4r2');
      expect(svc.fragment!.wallet.friendlyAddress).toBe(v4.friendlyAddress);
      expect(svc.fragment!.wallet.maxMessages).toBe(4);
      await svc.close();
      env.FRAGMENT_WALLET_VERSION = 'v5r1';
      svc = await open();
      expect(svc.fragment!.wallet.version).toBe('v5r1');
      await svc.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the operator API shows the hot wallet (address, balance, threshold) and no secret; sandbox routes are off', async () => {
    const e = await start({ fundTon: '12.5' });
    const w = await e.t.admin('GET', '/fragment/wallet');
    expect(w.status).toBe(200);
    expect(w.body).toMatchObject({
      address: e.t.fragment!.wallet.friendlyAddress,
      version: 'v5r1',
      balance_ton: expect.stringMatching(/^12\.\d{9}$/),
      min_ton: '2.000000000',
      below_min: false,
      funds_low: null,
      fragment: { ok: true, problem: null },
    });
    const raw = JSON.stringify(w.body);
    for (const secret of [e.mnemonic.slice(0, 2).join(' '), 'SECRET', FRAGMENT_HASH]) expect(raw).not.toContain(secret);
    expect((await e.t.admin('GET', '/fragment/wallet')).status).toBe(200);
    expect((await e.t.admin('GET', '/sandbox/clock')).status).toBe(404);
    expect((await e.t.admin('GET', '/fragment/payments/PA-999')).status).toBe(404);
    // a live service never shows the simulator's gifts: GIFTS_UPSTREAM defaults to off beside Fragment
    const p = await e.t.newPartner();
    const cols = await p.call('GET', '/nft/collections');
    expect(cols.status).toBe(503);
    expect(cols.raw).toContain('product_disabled');
    expect((await p.call('GET', '/products')).body.nft?.available).toBe(false);
  });
});

describe('npm run fragment:check', () => {
  it('checks the wallet, the session, a recipient and the prices, buys nothing and prints no secret', { timeout: 60_000 }, async () => {
    const { startFakeFragment, startFakeToncenter, startFakeRate } = await import('./fakes.js');
    const { fragmentEnvFor } = await import('./harness.js');
    const { HotWallet } = await import('../../src/suppliers/fragment/wallet.js');
    const now = () => Math.floor(Date.now() / 1000);
    const fragment = await startFakeFragment(now);
    const ton = await startFakeToncenter(now);
    const rate = await startFakeRate('3.00');
    try {
      fragment.users.set('alice_fan', { name: 'Alice', premium: false });
      const mnemonic = await newMnemonic();
      await ton.fund((await HotWallet.fromMnemonic(mnemonic, 'v5r1')).address, '3');
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(FRAGMENT_.*|UPSTREAM|NODE_OPTIONS|VITEST.*)$/.test(k)) env[k] = v;
      Object.assign(env, fragmentEnvFor(fragment, ton, rate.url, mnemonic));
      const run = async (args: string[]) => {
        const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, 'src', 'suppliers', 'fragment', 'check.ts'), ...args], { cwd: os.tmpdir(), env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.stderr.on('data', (c) => (out += c));
        const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
        return { code, out };
      };
      const good = await run(['@alice_fan']);
      expect(good.out).toContain('stars recipient @alice_fan: found (Alice)');
      expect(good.out).toContain('balance 3.000000000 TON');
      expect(good.out).toContain('price of 1000 stars: 5.2 TON ≈ 15.60 USD');
      expect(good.code).toBe(0);
      expect(fragment.calls.some((c) => c.method.startsWith('get'))).toBe(false);
      expect(ton.received).toHaveLength(0);
      for (const secret of [mnemonic.slice(0, 2).join(' '), 'SECRET', FRAGMENT_HASH]) expect(good.out).not.toContain(secret);
      fragment.mode = 'session_expired';
      const bad = await run([]);
      expect(bad.code).toBe(1);
      expect(bad.out).toContain('Fragment: session_expired');
    } finally {
      await fragment.close();
      await ton.close();
      await rate.close();
    }
  });
});
