import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { makePrivateFile, type Db } from './db.js';
import { checkLedger } from './ledger-check.js';
import * as schema from './schema.js';

/**
 * Backups of the SQLite database.
 *
 * Method: `VACUUM INTO` on a connection of its own (the backup CLI's process, or a child process of the
 * service for scheduled snapshots), not the online backup API from the serving connection. Why:
 * - VACUUM INTO reads the whole database in ONE read transaction: the copy is the database exactly as it
 *   was when the snapshot began (every order acknowledged before that is in it), and in WAL mode a reader
 *   never blocks the service's writers, so orders keep being taken while it runs;
 * - it runs outside the service's event loop: the online backup API (better-sqlite3's `db.backup()`) copies
 *   its pages on the serving thread between requests, and run from another connection it restarts whenever
 *   the service writes, which under a steady order flow it always does;
 * - the copy comes out compacted, in one file with no -wal beside it.
 * Cost: while it reads, the WAL cannot be checkpointed past its snapshot, so the -wal file grows for the
 * duration (it is reset afterwards).
 *
 * Every copy is created 0600 (whatever the umask), like the database itself, and checked before it is given its name: `PRAGMA integrity_check` and the ledger check of
 * operator-api.md (GET /ledger/check), then fsync and an atomic rename into place. The copy takes a few
 * seconds for a million orders; the check takes four times as long, so the backup command runs it in a
 * process held to BACKUP_CPU_SHARE of a CPU (src/ops/duty-cycle.ts), which touches only the copy.
 */
export interface SnapshotReport {
  file: string;
  bytes: number;
  orders: number;
  /** When the snapshot's read began (epoch ms, real time): everything committed before is in it. */
  startedAt: number;
  seconds: number;
}

export class BackupCheckFailed extends Error {}

/**
 * Copies, checks and puts a snapshot in place. `check` checks the copy (by default in this process; the
 * backup command runs it in a throttled process of its own).
 */
export async function snapshotDatabase(
  sourcePath: string,
  dest: string,
  opts: { now?: () => number; check?: (file: string) => Promise<{ orders: number }> } = {},
): Promise<SnapshotReport> {
  const now = opts.now ?? Date.now;
  const check = opts.check ?? (async (file: string) => checkDatabaseFile(file));
  const target = path.resolve(dest);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const src = new Database(sourcePath, { fileMustExist: true });
  const startedAt = now();
  try {
    src.pragma('busy_timeout = 5000');
    // VACUUM INTO writes into an empty file that exists: made 0600 first, so the copy is never readable by others
    makePrivateFile(tmp);
    src.prepare('VACUUM INTO ?').run(tmp);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  } finally {
    src.close();
  }
  try {
    const { orders } = await check(tmp);
    fsyncPath(tmp);
    fs.renameSync(tmp, target);
    fsyncPath(path.dirname(target));
    return { file: target, bytes: fs.statSync(target).size, orders, startedAt, seconds: (now() - startedAt) / 1000 };
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

export interface FileCheck {
  orders: number;
  ledger: { ok: boolean; problems: Record<string, unknown>[] };
}

/** integrity_check and the ledger check of one database file; throws BackupCheckFailed when either fails. */
export function checkDatabaseFile(file: string): FileCheck {
  const conn = new Database(file, { fileMustExist: true });
  try {
    const rows = conn.pragma('integrity_check') as { integrity_check: string }[];
    if (rows.length !== 1 || rows[0].integrity_check !== 'ok')
      throw new BackupCheckFailed(`integrity_check failed: ${rows.slice(0, 5).map((r) => r.integrity_check).join('; ')}`);
    const ledger = checkLedger(drizzle(conn, { schema }) as Db);
    if (!ledger.ok) throw new BackupCheckFailed(`ledger check failed: ${JSON.stringify(ledger.problems.slice(0, 5))}`);
    const orders = (conn.prepare('select count(*) n from orders').get() as { n: number }).n;
    return { orders, ledger };
  } finally {
    conn.close();
  }
}

/** fsync of a file or a folder (a rename is durable once its folder is synced). */
export function fsyncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Snapshot files of BACKUP_DIR, oldest first (names sort by time). */
export const SNAPSHOT_PREFIX = 'service-';
export function listSnapshots(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(SNAPSHOT_PREFIX) && f.endsWith('.db'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** service-20261123T221500.123Z.db (UTC, sorts by time) */
export function snapshotName(at: number): string {
  return `${SNAPSHOT_PREFIX}${new Date(at).toISOString().replace(/[-:]/g, '')}.db`;
}
