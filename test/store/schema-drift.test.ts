import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import drizzleConfig from '../../drizzle.config.js';
import { MIGRATIONS_FOLDER, openDatabase } from '../../src/store/db.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DRIZZLE_KIT = path.join(ROOT, 'node_modules', '.bin', 'drizzle-kit');
const tmpDirs: string[] = [];

function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}

afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

// The project's own drizzle.config.ts decides which schema files and dialect `npm run db:generate` uses.
const cfg = drizzleConfig as unknown as { dialect: string; schema: string | string[]; out: string };

/**
 * Runs `drizzle-kit generate` with drizzle.config.ts's schema and dialect against a copy of its `out`
 * folder, so the real migrations are never touched. drizzle-kit prefixes `--out` with "./", so it gets a
 * path relative to the project root.
 */
async function generateInto(out: string): Promise<string> {
  const rel = path.relative(ROOT, out);
  const schemaArgs = (Array.isArray(cfg.schema) ? cfg.schema : [cfg.schema]).flatMap((s) => ['--schema', s]);
  const r = await run(DRIZZLE_KIT, ['generate', '--name', 'drift_check', '--dialect', cfg.dialect, ...schemaArgs, '--out', rel], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return `${r.stdout}\n${r.stderr}`;
}

function sqlFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
}

describe('schema drift', () => {
  it('the schema files of drizzle.config.ts and the generated migrations in drizzle/ agree', async () => {
    const out = tmp('pos-drift-');
    fs.cpSync(path.resolve(ROOT, cfg.out), out, { recursive: true });
    const before = sqlFiles(out);
    const output = await generateInto(out);
    const added = sqlFiles(out).filter((f) => !before.includes(f));
    const generated = added.map((f) => fs.readFileSync(path.join(out, f), 'utf8')).join('\n');
    expect(output, `the schema changed without \`npm run db:generate\`; drizzle-kit would generate:\n${generated}`).toContain('No schema changes');
    expect(added).toEqual([]);
  });

  it('the check is not vacuous: a snapshot missing a table is reported as drift', async () => {
    const out = tmp('pos-drift-');
    fs.cpSync(path.resolve(ROOT, cfg.out), out, { recursive: true });
    const journal = JSON.parse(fs.readFileSync(path.join(out, 'meta', '_journal.json'), 'utf8'));
    const lastTag = journal.entries[journal.entries.length - 1].tag as string;
    const snapFile = path.join(out, 'meta', `${lastTag.split('_')[0]}_snapshot.json`);
    const snap = JSON.parse(fs.readFileSync(snapFile, 'utf8'));
    expect(snap.tables.kv).toBeDefined();
    delete snap.tables.kv;
    fs.writeFileSync(snapFile, JSON.stringify(snap, null, 2));
    const before = sqlFiles(out);
    const output = await generateInto(out);
    expect(output).not.toContain('No schema changes');
    const added = sqlFiles(out).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/drift_check\.sql$/);
    expect(fs.readFileSync(path.join(out, added[0]), 'utf8')).toMatch(/CREATE TABLE `kv`/);
  });
});

describe('opening a fresh database', () => {
  it('creates the folder, applies every migration, sets WAL mode and a busy timeout', () => {
    const dir = tmp('pos-db-');
    const file = path.join(dir, 'nested', 'deeper', 'service.db');
    const db = openDatabase(file);
    try {
      expect(fs.existsSync(file)).toBe(true);
      const c = db.$client;
      expect(c.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(c.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      expect(c.pragma('foreign_keys', { simple: true })).toBe(1);

      // Every migration of the journal is recorded as applied.
      const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'));
      const applied = c.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number };
      expect(applied.n).toBe(journal.entries.length);

      // Every table of the latest snapshot exists with every column.
      const lastTag = journal.entries[journal.entries.length - 1].tag as string;
      const snap = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', `${lastTag.split('_')[0]}_snapshot.json`), 'utf8'));
      const tables = (c.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name);
      const expected = Object.keys(snap.tables);
      expect(expected.length).toBeGreaterThan(5);
      for (const t of ['partners', 'api_keys', 'accounts', 'ledger_entries', 'topups', 'orders', 'jobs', 'kv', 'audit_log', 'webhook_deliveries'])
        expect(expected).toContain(t);
      for (const t of expected) {
        expect(tables).toContain(t);
        const cols = (c.prepare(`pragma table_info(\`${t}\`)`).all() as { name: string }[]).map((r) => r.name).sort();
        expect(cols, `columns of ${t}`).toEqual(Object.keys(snap.tables[t].columns).sort());
      }
    } finally {
      db.$client.close();
    }
  });

  it('opening the same file again applies nothing twice and keeps the data', () => {
    const dir = tmp('pos-db-');
    const file = path.join(dir, 'service.db');
    const a = openDatabase(file);
    a.$client.prepare("insert into kv (key, value, updated_at) values ('x', '1', 0)").run();
    const n1 = (a.$client.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n;
    a.$client.close();
    const b = openDatabase(file);
    try {
      expect((b.$client.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n).toBe(n1);
      expect(b.$client.prepare("select key from kv where key = 'x'").get()).toEqual({ key: 'x' });
      expect(b.$client.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      b.$client.close();
    }
  });
});
