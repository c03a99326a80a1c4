import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';

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
    expect(c.TRUST_PROXY).toBe(false);
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
    expect(c.TRUST_PROXY).toBe(true);
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
    ['TRUST_PROXY', '2'],
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
      expect(lines[0]).toContain('abc');
      expect(stdout).toBe('');
      // Nothing was opened: the database was never created.
      expect(fs.existsSync(env.DATABASE_PATH)).toBe(false);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
