import 'dotenv/config';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { listSnapshots, snapshotDatabase, snapshotName } from '../store/snapshot.js';

/**
 * npm run backup -- <file>: a consistent snapshot of DATABASE_PATH while the service runs (VACUUM INTO on
 * a connection of this process; src/store/snapshot.ts says why), checked (integrity_check, ledger check)
 * and renamed into place atomically. Prints one JSON line; exits 1 on failure.
 * `--scheduled` (used by the service's BACKUP_DIR schedule): writes BACKUP_DIR/service-<time>.db and keeps
 * the newest BACKUP_KEEP snapshots.
 */
function main(): void {
  const args = process.argv.slice(2);
  const config = loadConfig(process.env);
  const scheduled = args.includes('--scheduled');
  const file = args.find((a) => !a.startsWith('--'));
  if (!scheduled && !file) {
    process.stderr.write('usage: npm run backup -- <file>\n');
    process.exit(2);
  }
  if (scheduled && !config.BACKUP_DIR) throw new Error('--scheduled needs BACKUP_DIR');
  const dest = scheduled ? path.join(config.BACKUP_DIR!, snapshotName(Date.now())) : file!;
  if (!fs.existsSync(config.DATABASE_PATH)) throw new Error(`no database at ${config.DATABASE_PATH}`);
  const report = snapshotDatabase(config.DATABASE_PATH, dest);
  const removed: string[] = [];
  if (scheduled) {
    const all = listSnapshots(config.BACKUP_DIR!);
    for (const old of all.slice(0, Math.max(0, all.length - config.BACKUP_KEEP))) {
      fs.rmSync(old, { force: true });
      removed.push(old);
    }
  }
  process.stdout.write(`${JSON.stringify({ msg: 'backup written', method: 'vacuum_into', ...report, started_at: new Date(report.startedAt).toISOString(), integrity: 'ok', ledger: 'ok', ...(removed.length ? { removed } : {}) })}\n`);
}

try {
  main();
} catch (e) {
  if (e instanceof ConfigError) process.stderr.write(`${e.lines.join('\n')}\n`);
  else process.stderr.write(`backup failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
