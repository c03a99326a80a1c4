import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config/env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const MAIN = path.join(ROOT, 'src', 'main.ts');

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('accepts an empty environment with the documented defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.DATABASE_PATH).toBe('./data/service.db');
    expect(c.ADMIN_TOKEN).toBeUndefined();
    expect(c.UPSTREAM).toBe('sandbox');
    expect(c.SANDBOX_DEMO).toBe(true);
    expect(c.publicBaseUrl).toBe('http://127.0.0.1:8080');
    expect(c.TRUST_PROXY).toBe(0);
    expect(c.HTTP_REQUEST_TIMEOUT_SECONDS).toBe(30);
    expect(c.API_RATE_LIMIT).toBe(120);
    expect(c.API_RATE_BURST).toBe(30);
    expect(c.NFT_CATALOG_RATE_LIMIT).toBe(30);
    expect(c.NFT_ORDERS_RATE_LIMIT).toBe(60);
    expect(c.VALIDATE_RECIPIENT_RATE_LIMIT).toBe(60);
    expect(c.STARS_MIN_PER_ORDER).toBe(50);
    expect(c.STARS_MAX_PER_ORDER).toBe(50000);
    expect(c.WEBHOOK_TIMEOUT_MS).toBe(10000);
    expect(c.WEBHOOK_REQUIRE_HTTPS).toBe(false);
    expect(c.WEBHOOK_STANDARD_PORTS_ONLY).toBe(false);
    expect(c.WEBHOOK_URL_MAX_LENGTH).toBe(2048);
    expect(c.WEBHOOK_ALLOW_SUBNETS).toEqual([]);
    expect(c.DEPOSIT_ADDRESS_USDT_TON).toBeUndefined();
    expect(c.TELEGRAM_BOT_TOKEN).toBeUndefined();
    expect(c.TELEGRAM_API_ROOT).toBe('https://api.telegram.org');
    expect(c.ADMIN_CHAT_IDS).toEqual([]);
  });

  it('accepts valid explicit values', () => {
    const c = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      TRUST_PROXY: '1',
      API_RATE_LIMIT: '600',
      API_RATE_BURST: '100',
      WEBHOOK_REQUIRE_HTTPS: '1',
      WEBHOOK_ALLOW_SUBNETS: '10.0.0.0/8, 127.0.0.2/32,::1',
      TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
      ADMIN_CHAT_IDS: '123,-100456',
      PUBLIC_BASE_URL: 'https://api.example.com/',
    });
    expect(c.PORT).toBe(9090);
    expect(c.TRUST_PROXY).toBe(1);
    expect(c.API_RATE_LIMIT).toBe(600);
    expect(c.API_RATE_BURST).toBe(100);
    expect(c.WEBHOOK_REQUIRE_HTTPS).toBe(true);
    expect(c.WEBHOOK_ALLOW_SUBNETS).toEqual(['10.0.0.0/8', '127.0.0.2/32', '::1']);
    expect(c.TELEGRAM_API_ROOT).toBe('http://127.0.0.1:8081');
    expect(c.ADMIN_CHAT_IDS).toEqual(['123', '-100456']);
    expect(c.publicBaseUrl).toBe('https://api.example.com');
  });

  it('reads BACKUP_CPU_SHARE as a share of one CPU, 0.25 by default', () => {
    expect(loadConfig({}).BACKUP_CPU_SHARE).toBe(0.25);
    expect(loadConfig({ BACKUP_CPU_SHARE: '0.5' }).BACKUP_CPU_SHARE).toBe(0.5);
    expect(loadConfig({ BACKUP_CPU_SHARE: '1' }).BACKUP_CPU_SHARE).toBe(1);
  });

  const bad: [name: string, value: string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['API_RATE_LIMIT', '0'],
    ['API_RATE_BURST', '1.5'],
    ['VALIDATE_RECIPIENT_RATE_LIMIT', 'many'],
    ['WEBHOOK_REQUIRE_HTTPS', 'yes'],
    ['WEBHOOK_STANDARD_PORTS_ONLY', 'true'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '-1'],
    ['HTTP_REQUEST_TIMEOUT_SECONDS', '0'],
    ['SANDBOX_DEMO', 'on'],
    ['WEBHOOK_ALLOW_SUBNETS', 'notacidr'],
    ['WEBHOOK_ALLOW_SUBNETS', '10.0.0.0/8,10.0.0.0/99'],
    ['UPSTREAM', 'real'],
    ['TELEGRAM_API_ROOT', 'notaurl'],
    ['TELEGRAM_API_ROOT', 'ftp://example.com'],
    ['PUBLIC_BASE_URL', 'example.com'],
    ['ADMIN_TOKEN', 'short'],
    ['ADMIN_CHAT_IDS', 'abc'],
    ['WEBHOOK_TIMEOUT_MS', '10s'],
    ['BACKUP_CPU_SHARE', '0'],
    ['BACKUP_CPU_SHARE', '0.01'],
    ['BACKUP_CPU_SHARE', '1.5'],
    ['BACKUP_CPU_SHARE', 'half'],
  ];
  for (const [name, value] of bad) {
    it(`rejects ${name}=${value} with one line naming the variable`, () => {
      const e = configError({ [name]: value });
      expect(e.lines).toHaveLength(1);
      expect(e.lines[0]).toContain(name);
      expect(e.lines[0]).not.toContain(`${name}=`);
      if (value.length > 3) expect(e.lines[0]).not.toContain(value);
      expect(e.lines[0]).not.toContain('\n');
      expect(e.message).toBe(e.lines[0]);
    });
  }

  it('gives one line per bad variable, each naming its variable', () => {
    const env = {
      PORT: 'abc',
      API_RATE_LIMIT: '0',
      WEBHOOK_REQUIRE_HTTPS: 'yes',
      WEBHOOK_ALLOW_SUBNETS: 'notacidr',
      UPSTREAM: 'real',
      TELEGRAM_API_ROOT: 'notaurl',
      HOST: '127.0.0.1', // a good one among them
    };
    const e = configError(env);
    const badNames = ['PORT', 'API_RATE_LIMIT', 'WEBHOOK_REQUIRE_HTTPS', 'WEBHOOK_ALLOW_SUBNETS', 'UPSTREAM', 'TELEGRAM_API_ROOT'];
    expect(e.lines).toHaveLength(badNames.length);
    for (const name of badNames) expect(e.lines.filter((l) => new RegExp(`\\b${name}\\b`).test(l))).toHaveLength(1);
    for (const l of e.lines) expect(l).not.toContain('\n');
    expect(e.lines.join('\n')).not.toMatch(/\bHOST\b/);
  });

  it('never prints a value: every variable set to a bad secret-like value is named with its rule only', () => {
    const secret = 'Zq9-not-valid-s3cr3t';
    const env: Record<string, string> = {};
    for (const name of CONFIG_VARIABLES) env[name] = secret;
    const e = configError(env);
    expect(e.lines.length).toBeGreaterThan(30);
    for (const line of e.lines) {
      expect(line).toMatch(/^invalid configuration: [A-Z0-9_]+: \S/);
      expect(line).not.toContain(secret);
      expect(line).not.toContain('s3cr3t');
    }
    // a value that is only slightly wrong (a short token, an almost-URL) is not shown either
    for (const [name, value] of [
      ['ADMIN_TOKEN', 'short-secret-1'],
      ['METRICS_TOKEN', 'short-secret-2'],
      ['SECRET_ENCRYPTION_KEY', 'ab'.repeat(31)],
      ['BSC_RPC_URL', 'wss://bsc.example.com/v1/k3y-s3cr3t'],
      ['TON_API_URL', 'toncenter.com/?api_key=k3y-s3cr3t'],
      ['STARS_MIN_PER_ORDER', '900001'],
    ]) {
      const line = configError({ [name]: value, STARS_MAX_PER_ORDER: '900000' }).lines.join('\n');
      expect(line).toContain(name);
      expect(line).not.toContain(value);
    }
  });

  it('names FRAGMENT_* variables and their rules without their values', () => {
    const secret = 'Zq9-not-valid-s3cr3t';
    const e = configError({
      UPSTREAM: 'fragment',
      FRAGMENT_API_URL: `ftp://${secret}`,
      FRAGMENT_PAY_ADDRESSES: secret,
      FRAGMENT_PRICE_PROBE_USERNAME: `${secret}!`,
      FRAGMENT_MNEMONIC: `${secret} word`,
      FRAGMENT_COOKIES: `stel_ssid=${secret}`,
      FRAGMENT_HASH: secret,
      FRAGMENT_TONCENTER_API_KEY_FILE: `/nonexistent/${secret}`,
    });
    const text = e.lines.join('\n');
    for (const name of ['FRAGMENT_API_URL', 'FRAGMENT_PAY_ADDRESSES', 'FRAGMENT_PRICE_PROBE_USERNAME', 'FRAGMENT_MNEMONIC', 'FRAGMENT_COOKIES', 'FRAGMENT_HASH', 'FRAGMENT_TONCENTER_API_KEY_FILE'])
      expect(text).toContain(name);
    expect(text).not.toContain('s3cr3t');
  });

  it('treats empty strings as unset', () => {
    const c = loadConfig({ PORT: '', ADMIN_TOKEN: '', WEBHOOK_ALLOW_SUBNETS: '' });
    expect(c.PORT).toBe(8080);
    expect(c.ADMIN_TOKEN).toBeUndefined();
    expect(c.WEBHOOK_ALLOW_SUBNETS).toEqual([]);
  });

  it('rejects STARS_MIN_PER_ORDER above STARS_MAX_PER_ORDER naming the variable', () => {
    const e = configError({ STARS_MIN_PER_ORDER: '100', STARS_MAX_PER_ORDER: '50' });
    expect(e.lines).toHaveLength(1);
    expect(e.lines[0]).toContain('STARS_MIN_PER_ORDER');
  });
});

describe('start-up with a bad variable', () => {
  it('exits non-zero with a one-line message naming PORT on stderr', async () => {
    // The local tsx binary (what `npx tsx` runs) in an empty folder: no .env file and no npm notices interfere.
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-cfg-'));
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(PORT|DATABASE_PATH|ADMIN_TOKEN|SANDBOX_DEMO|NODE_OPTIONS|VITEST.*)$/.test(k)) env[k] = v;
    env.PORT = 'abc';
    env.DATABASE_PATH = path.join(cwd, 'service.db');
    try {
      const child = spawn(TSX, [MAIN], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      const lines = stderr.split('\n').filter((l) => l.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/\bPORT\b/);
      expect(lines[0]).toContain('must be a whole number');
      expect(lines[0]).not.toContain('abc');
      expect(stdout).toBe('');
      // Nothing was opened: the database was never created.
      expect(fs.existsSync(env.DATABASE_PATH)).toBe(false);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
