import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { previewInvite, redeemInvite } from '../../src/app/invites.js';
import { sha256Hex } from '../../src/domain/secret-hash.js';
import { MIGRATIONS_FOLDER, openDatabase, registerSqlFunctions, type Db } from '../../src/store/db.js';
import { restoreDatabase } from '../../src/store/restore.js';
import { snapshotDatabase } from '../../src/store/snapshot.js';
import { startService, stopService, type TestService } from '../helpers.js';

/**
 * What is at rest stays private: invite codes are kept only as their SHA-256 (an upgrade hashes the plain
 * codes of earlier versions and leaves none of them in the file or its WAL), and the database, its -wal and
 * -shm and every backup are 0600 whatever the umask.
 */

/** The migration that hashes the invite codes of earlier versions. */
const HASHING_MIGRATION = '0022_invite_code_hashes';
const dirs: string[] = [];
const closers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-private-'));
  dirs.push(d);
  return d;
}
const modeOf = (f: string) => fs.statSync(f).mode & 0o777;
/** Runs `fn` under a umask that lets everyone read new files (the default outside a hardened unit). */
async function withUmask<T>(mask: number, fn: () => Promise<T> | T): Promise<T> {
  const before = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(before);
  }
}
/** Every byte of the database's files on disk, as Latin-1 text to search in. */
const bytesOf = (file: string) =>
  ['', '-wal', '-shm']
    .map((s) => file + s)
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');

describe('invite codes at rest', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await stopService(t);
    t = undefined;
  });

  it('only the SHA-256 of a code is stored; the code still links once', async () => {
    t = await startService();
    const p = (await t.admin('POST', '/partners', { name: 'Hashed' })).body.partner_id as number;
    const made = await t.admin('POST', `/partners/${p}/invites`, { role: 'owner' });
    expect(made.status).toBe(201);
    const code = made.body.code as string;
    expect(made.body.link).toContain(`start=${code}`);
    const rows = t.db.$client.prepare('select * from invites').all() as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).toBe(sha256Hex(code));
    expect(Object.values(rows[0])).not.toContain(code);
    expect(bytesOf(path.join(t.dir, 'service.db'))).not.toContain(code);
    expect(previewInvite(t.deps, code)).toEqual({ partnerId: p, role: 'owner' });
    expect(previewInvite(t.deps, sha256Hex(code))).toBeNull();
    // the hash itself is no code
    expect(() => redeemInvite(t!.deps, sha256Hex(code).slice(0, 64), 42, 42, 'en')).toThrow(/invite/i);
    expect(redeemInvite(t.deps, code, 42, 42, 'en')).toEqual({ partnerId: p, role: 'owner' });
    expect(() => redeemInvite(t!.deps, code, 43, 43, 'en')).toThrow(/invite/i);
    expect(previewInvite(t.deps, code)).toBeNull();
  });

  it('an upgrade hashes the plain codes of an earlier version: an unused one still works, and none is left in the file or its WAL', async () => {
    const dir = tmp();
    const file = path.join(dir, 'service.db');
    // the database as the previous version left it: the migrations before the one that hashes, codes in plain text
    const old = path.join(dir, 'migrations-before');
    fs.cpSync(MIGRATIONS_FOLDER, old, { recursive: true });
    const journal = JSON.parse(fs.readFileSync(path.join(old, 'meta/_journal.json'), 'utf8'));
    const at = journal.entries.findIndex((e: { tag: string }) => e.tag === HASHING_MIGRATION);
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(path.join(old, 'meta/_journal.json'), JSON.stringify(journal));
    const before = new Database(file);
    registerSqlFunctions(before);
    before.pragma('journal_mode = WAL');
    // keep what follows in the WAL, as a running service would have it
    before.pragma('wal_autocheckpoint = 0');
    migrate(drizzle(before), { migrationsFolder: old });
    const now = Date.now();
    before.prepare("insert into partners (name, status, created_at) values ('Before', 'inactive', ?)").run(now);
    const pid = before.prepare('select max(partner_id) from partners').pluck().get() as number;
    const unused = 'UnusedPlainCode_0123456789';
    const used = 'UsedPlainCode_abcdefghijkl';
    const insert = before.prepare('insert into invites (code, partner_id, role, created_at, expires_at, used_at, used_by) values (?, ?, ?, ?, ?, ?, ?)');
    insert.run(unused, pid, 'owner', now, now + 86_400_000, null, null);
    insert.run(used, pid, 'staff', now - 1000, now + 86_400_000, now - 500, 7);
    expect(bytesOf(file)).toContain(unused);
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);

    const db: Db = openDatabase(file);
    closers.push(() => void db.$client.close());
    before.close();
    const rows = db.$client.prepare('select code_hash, role, used_by from invites order by created_at').all();
    expect(rows).toEqual([
      { code_hash: sha256Hex(used), role: 'staff', used_by: 7 },
      { code_hash: sha256Hex(unused), role: 'owner', used_by: null },
    ]);
    const disk = bytesOf(file);
    expect(disk).not.toContain(unused);
    expect(disk).not.toContain(used);
    // the unused invite sent before the upgrade still links, once
    const deps = { db, clock: { now: () => now + 1000 } } as never;
    expect(redeemInvite(deps, unused, 77, 77, 'en')).toEqual({ partnerId: pid, role: 'owner' });
    expect(() => redeemInvite(deps, unused, 78, 78, 'en')).toThrow(/invite/i);
    expect(() => redeemInvite(deps, used, 79, 79, 'en')).toThrow(/invite/i);
  });
});

describe('the database, its WAL and every backup are 0600 whatever the umask', () => {
  it('a new database, its -wal and -shm, a backup, a restore and the file it replaced', async () => {
    const dir = tmp();
    const file = path.join(dir, 'data', 'service.db');
    await withUmask(0o022, async () => {
      // a new file of this process would be 0644 under this umask
      fs.writeFileSync(path.join(dir, 'probe'), 'x');
      expect(modeOf(path.join(dir, 'probe'))).toBe(0o644);

      const db = openDatabase(file);
      db.$client.prepare("insert into partners (name, status, created_at) values ('Mode', 'inactive', 0)").run();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, modeOf(f)]).toEqual([f, 0o600]);

      const backup = path.join(dir, 'backups', 'service-1.db');
      const report = await snapshotDatabase(file, backup);
      expect(report.file).toBe(backup);
      expect(modeOf(backup)).toBe(0o600);
      expect(fs.readdirSync(path.dirname(backup))).toEqual(['service-1.db']);
      db.$client.close();

      const r = restoreDatabase(backup, file, () => Date.parse('2026-03-01T12:00:00Z'));
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(r.previous!)).toBe(0o600);
      const again = openDatabase(file);
      again.$client.prepare("insert into partners (name, status, created_at) values ('Again', 'inactive', 0)").run();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, modeOf(f)]).toEqual([f, 0o600]);
      again.$client.close();
    });
  });

  it('a database an earlier version left readable by others is tightened when opened, with its -wal and -shm', async () => {
    const dir = tmp();
    const file = path.join(dir, 'service.db');
    await withUmask(0o022, () => {
      const old = new Database(file);
      old.pragma('journal_mode = WAL');
      old.exec('create table t (x)');
      old.exec('insert into t values (1)');
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(f)).toBe(0o644);
      const db = openDatabase(file);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, modeOf(f)]).toEqual([f, 0o600]);
      db.$client.close();
      old.close();
    });
  });

  it('the service itself started under a permissive umask', async () => {
    await withUmask(0o002, async () => {
      const t = await startService();
      try {
        await t.admin('POST', '/partners', { name: 'Umask' });
        const file = path.join(t.dir, 'service.db');
        for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, modeOf(f)]).toEqual([f, 0o600]);
      } finally {
        await stopService(t);
      }
    });
  });
});
