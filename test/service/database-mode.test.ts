import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, freePort } from '../helpers.js';
import { processFixtures } from '../ops/service-process.js';
import { COOKIES, FRAGMENT_ADDRESS, FRAGMENT_HASH, PROBE, newMnemonic } from '../fragment/fakes.js';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { MIGRATIONS_FOLDER, registerSqlFunctions } from '../../src/store/db.js';
import { migrationFolders } from '../store/migrations-before.js';

/**
 * Money that cannot go to the wrong place, at start-up (operator-api.md §1), through the real process: one mode
 * per database, the Telegram gift account never beside the sandbox, NODE_ENV=production's rules, and the unedited
 * .env.example.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const { tmp, start: startTracked } = processFixtures('pos-mode-');
const migrationsBefore = migrationFolders('pos-mode-migrations-');

async function run(dir: string, vars: Record<string, string>) {
  const p = startTracked(dir, { PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN, SANDBOX_DEMO: '0', ...vars });
  return p;
}

/** A process that must refuse to start: its exit code and the lines of its stderr. */
async function refused(dir: string, vars: Record<string, string>) {
  const p = await run(dir, vars);
  const code = await p.exited;
  return { code, lines: p.output().split('\n').filter((l) => l.trim() !== '') };
}

async function stop(p: ReturnType<typeof startTracked>) {
  p.signal('SIGTERM');
  expect(await p.exited).toBe(0);
}

/** FRAGMENT_* settings that pass the configuration (the addresses lead nowhere: no purchase is made). */
async function fragmentEnv(): Promise<Record<string, string>> {
  return {
    UPSTREAM: 'fragment',
    FRAGMENT_MNEMONIC: (await newMnemonic()).join(' '),
    FRAGMENT_COOKIES: COOKIES,
    FRAGMENT_HASH,
    FRAGMENT_API_URL: 'http://127.0.0.1:9',
    FRAGMENT_TONCENTER_URL: 'http://127.0.0.1:9',
    FRAGMENT_TON_USD_URL: 'http://127.0.0.1:9/rate',
    FRAGMENT_PAY_ADDRESSES: FRAGMENT_ADDRESS.toString(),
    FRAGMENT_PRICE_PROBE_USERNAME: PROBE,
    WATCHERS: '0',
  };
}

describe('one mode per database', { timeout: 120_000 }, () => {
  it('a sandbox database refuses a live start, naming its mode and UPSTREAM; the sandbox still opens it', async () => {
    const dir = tmp();
    const first = await run(dir, { UPSTREAM: 'sandbox' });
    await first.ready();
    await stop(first);
    const live = await refused(dir, await fragmentEnv());
    expect(live.code).toBe(1);
    expect(live.lines).toEqual([
      `invalid configuration: UPSTREAM: the database ${path.join(dir, 'service.db')} is a sandbox database (play money, made with UPSTREAM=sandbox); UPSTREAM=fragment never opens it: set UPSTREAM=sandbox, or give the live service a database of its own (DATABASE_PATH)`,
    ]);
    const again = await run(dir, {});
    await again.ready();
    await stop(again);
  });

  it('a live database refuses a sandbox start: its balances never meet the sandbox clock and deposit routes', async () => {
    const dir = tmp();
    const first = await run(dir, await fragmentEnv());
    await first.ready();
    // the sandbox's routes do not exist in a live service
    expect((await fetch(`${first.base}/api/admin/v1/sandbox/clock`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(404);
    await stop(first);
    const sandbox = await refused(dir, { UPSTREAM: 'sandbox' });
    expect(sandbox.code).toBe(1);
    expect(sandbox.lines).toHaveLength(1);
    expect(sandbox.lines[0]).toMatch(/^invalid configuration: UPSTREAM: the database .*service\.db is a live database \(real balances\); UPSTREAM=sandbox never opens it/);
  });

  it("a database of the other mode made by an earlier build is refused before it is backed up or migrated", async () => {
    const dir = tmp();
    const file = path.join(dir, 'service.db');
    // a sandbox database one migration behind this build, with data (a start in its own mode would back it up)
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const client = new Database(file);
    registerSqlFunctions(client);
    migrate(drizzle(client), { migrationsFolder: migrationsBefore(journal.entries.at(-1)!.tag) });
    client.prepare("insert into partners (name, status, created_at) values ('Old', 'active', 1)").run();
    client.prepare("insert into kv (key, value, updated_at) values ('database.mode', '\"sandbox\"', 1)").run();
    const applied = () => (client.prepare('select count(*) n from __drizzle_migrations').get() as { n: number }).n;
    const before = applied();
    client.close();
    const live = await refused(dir, await fragmentEnv());
    expect(live.code).toBe(1);
    expect(live.lines).toEqual([
      `invalid configuration: UPSTREAM: the database ${file} is a sandbox database (play money, made with UPSTREAM=sandbox); UPSTREAM=fragment never opens it: set UPSTREAM=sandbox, or give the live service a database of its own (DATABASE_PATH)`,
    ]);
    expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);
    const after = new Database(file, { readonly: true });
    expect((after.prepare('select count(*) n from __drizzle_migrations').get() as { n: number }).n).toBe(before);
    after.close();
  });

  it('GIFTS_UPSTREAM=telegram beside the sandbox stops start-up in one line, before the database is made', async () => {
    const dir = tmp();
    const r = await refused(dir, { GIFTS_UPSTREAM: 'telegram', TELEGRAM_API_ID: '123456', TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef', GIFTS_SESSION: '1BQANOTAREALSESSION' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      'invalid configuration: GIFTS_UPSTREAM: "telegram" is refused with UPSTREAM=sandbox (real gifts are never bought with play money): set UPSTREAM to a live supplier, or GIFTS_UPSTREAM to "sandbox" or "off"',
    ]);
    expect(fs.existsSync(path.join(dir, 'service.db'))).toBe(false);
  });
});

describe('NODE_ENV=production', { timeout: 120_000 }, () => {
  it('without UPSTREAM stops in one line naming it; with UPSTREAM=sandbox it starts without a demo partner', async () => {
    const dir = tmp();
    const r = await refused(dir, { NODE_ENV: 'production', SANDBOX_DEMO: '' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual(['invalid configuration: UPSTREAM: must be set with NODE_ENV=production ("fragment" for real supply, "sandbox" for play money)']);
    const p = await run(dir, { NODE_ENV: 'production', SANDBOX_DEMO: '', UPSTREAM: 'sandbox' });
    await p.ready();
    expect(p.output()).not.toContain('demo partner');
    expect((await fetch(`${p.base}/api/admin/v1/partners/1`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(404);
    await stop(p);
  });

  it('an unedited copy of .env.example starts nothing; with only UPSTREAM=sandbox added it makes no funded demo partner', async () => {
    const dir = tmp();
    fs.copyFileSync(path.join(ROOT, '.env.example'), path.join(dir, '.env'));
    const r = await refused(dir, { SANDBOX_DEMO: '' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual(['invalid configuration: UPSTREAM: must be set with NODE_ENV=production ("fragment" for real supply, "sandbox" for play money)']);
    expect(fs.existsSync(path.join(dir, 'service.db'))).toBe(false);
    const p = await run(dir, { SANDBOX_DEMO: '', UPSTREAM: 'sandbox' });
    await p.ready();
    expect(p.output()).not.toContain('demo partner');
    expect(p.logLines().find((l) => l.msg === 'started')).toMatchObject({ mode: 'sandbox', node_env: 'production' });
    expect((await fetch(`${p.base}/api/admin/v1/partners/1`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(404);
    await stop(p);
  });
});
