import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config/env.js';
import type { Logger } from '../kernel/log.js';
import { MIGRATIONS_FOLDER } from '../store/db.js';
import { snapshotDatabase, type SnapshotReport } from '../store/snapshot.js';
import { pendingMigrations } from './readiness.js';
import { backUpSecretKey } from './secret-key-backup.js';

/**
 * Before this build's migrations change a database that holds data, a checked backup of it as it was: an
 * upgrade that goes wrong is undone by restoring it (npm run restore) with the previous build. Taken at
 * start-up, under the instance lock and before anything serves, in this process (nothing else competes for
 * the CPU yet). Written to BACKUP_DIR, else to `backups/` beside the database, as
 * `pre-migration-<UTC time>.db` with its `.secret.key`; kept out of BACKUP_KEEP's rotation.
 */
export async function backupBeforeMigrations(config: Config, log: Logger, now: () => number = Date.now): Promise<SnapshotReport | null> {
  const file = config.DATABASE_PATH;
  if (file === ':memory:' || !fs.existsSync(file)) return null;
  const conn = new Database(file, { readonly: true, fileMustExist: true });
  let pending: number;
  let hasData: boolean;
  try {
    pending = pendingMigrations(conn, MIGRATIONS_FOLDER);
    hasData = pending > 0 && hasRows(conn);
  } finally {
    conn.close();
  }
  if (!hasData) return null;
  const dir = config.BACKUP_DIR ?? path.join(path.dirname(path.resolve(file)), 'backups');
  const dest = path.join(dir, `pre-migration-${new Date(now()).toISOString().replace(/[-:]/g, '')}.db`);
  const key = backUpSecretKey(config, dest);
  try {
    const report = await snapshotDatabase(file, dest, { now });
    log.info({ backup: report.file, bytes: report.bytes, orders: report.orders, pending_migrations: pending, secret_key: key.file }, 'backup before migrations written');
    return report;
  } catch (e) {
    if (key.file) fs.rmSync(key.file, { force: true });
    throw e;
  }
}

function hasRows(conn: Database.Database): boolean {
  for (const table of ['partners', 'orders', 'topups']) {
    try {
      if (conn.prepare(`select 1 from ${table} limit 1`).get()) return true;
    } catch {
      // not created yet
    }
  }
  return false;
}
