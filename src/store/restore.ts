import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateFile, openDatabase } from './db.js';
import { checkDatabaseFile, fsyncPath, type FileCheck } from './snapshot.js';

/**
 * Puts a backup in place of the database for a stopped service (npm run restore -- <file>):
 * 1. checks the backup (integrity_check, ledger check) before touching anything;
 * 2. makes sure no process has the database open: switching it out of WAL mode needs the only connection
 *    (a running service keeps one), and also folds any -wal into the file being replaced;
 * 3. keeps the current database as `<name>.before-restore-<time>`, copies the backup beside it, fsyncs and
 *    renames it into place (atomic), with no stale -wal or -shm left beside it;
 * 4. opens the restored database as the service would (migrations of this build applied) and checks it again.
 */
export class ServiceRunning extends Error {}

export interface RestoreReport {
  target: string;
  previous: string | null;
  before: FileCheck;
  after: FileCheck;
}

export function restoreDatabase(backup: string, target: string, now: () => number = Date.now): RestoreReport {
  const src = path.resolve(backup);
  const dest = path.resolve(target);
  if (!fs.existsSync(src)) throw new Error(`no such backup file: ${src}`);
  const before = checkDatabaseFile(src);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  let previous: string | null = null;
  if (fs.existsSync(dest)) {
    const conn = new Database(dest, { fileMustExist: true });
    try {
      conn.pragma('busy_timeout = 0');
      let mode: string;
      try {
        mode = String(conn.pragma('journal_mode = DELETE', { simple: true }));
      } catch {
        mode = 'busy';
      }
      if (mode !== 'delete') throw new ServiceRunning(`${dest} is in use (is the service running?): stop the service first`);
    } finally {
      conn.close();
    }
    previous = `${dest}.before-restore-${new Date(now()).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`;
    fs.renameSync(dest, previous);
  }
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(dest + suffix, { force: true });
  const tmp = `${dest}.restore-tmp-${process.pid}`;
  fs.copyFileSync(src, tmp);
  makePrivateFile(tmp);
  fsyncPath(tmp);
  fs.renameSync(tmp, dest);
  fsyncPath(path.dirname(dest));
  // as the service opens it: WAL mode, this build's migrations applied
  openDatabase(dest).$client.close();
  const after = checkDatabaseFile(dest);
  return { target: dest, previous, before, after };
}

/** The sealed webhook secrets of a database file (to check that the key of a restore opens them). */
export function sealedWebhookSecrets(file: string): string[] {
  const conn = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return conn.prepare('select webhook_secret_enc from partners where webhook_secret_enc is not null').pluck().all() as string[];
  } finally {
    conn.close();
  }
}
