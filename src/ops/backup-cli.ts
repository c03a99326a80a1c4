import 'dotenv/config';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config/env.js';
import { spawn } from 'node:child_process';
import { listSnapshots, snapshotDatabase, snapshotName } from '../store/snapshot.js';
import { dutyCycle } from './duty-cycle.js';
import { scriptCommand } from './script-command.js';
import { backUpSecretKey, backupKeyFileOf } from './secret-key-backup.js';

/**
 * npm run backup -- <file>: a consistent snapshot of DATABASE_PATH while the service runs (VACUUM INTO on
 * a connection of this process; src/store/snapshot.ts says why), checked (integrity_check, ledger check)
 * in a child process held to BACKUP_CPU_SHARE of a CPU, and renamed into place atomically. The key of webhook
 * secrets goes with it as `<file>.secret.key` (written first, so no backup is ever without its key), or,
 * when SECRET_ENCRYPTION_KEY holds it, one line on stderr says to keep that variable
 * (src/ops/secret-key-backup.ts). Prints one JSON line; exits 1 on failure.
 * `--scheduled` (used by the service's BACKUP_DIR schedule): writes BACKUP_DIR/service-<time>.db and keeps
 * the newest BACKUP_KEEP snapshots.
 */
/** The check of the copy in its own process, stopped and continued to keep to its CPU share. */
function throttledCheck(share: number) {
  return (file: string): Promise<{ orders: number }> =>
    new Promise((resolve, reject) => {
      const { cmd, args } = scriptCommand('backup-check-cli');
      const child = spawn(cmd, [...args, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      const cycle = dutyCycle(child.pid!, share);
      // a backup stopped by a signal takes its check along (never left stopped)
      const abort = () => {
        cycle.stop();
        child.kill('SIGKILL');
      };
      process.once('SIGINT', abort).once('SIGTERM', abort);
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (code) => {
        cycle.stop();
        process.off('SIGINT', abort).off('SIGTERM', abort);
        if (code === 0) resolve(JSON.parse(out) as { orders: number });
        else reject(new Error(err.trim() || `the check ended with ${code}`));
      });
    });
}

async function main(): Promise<void> {
  // The copy and its checks are CPU work beside a serving process: the service goes first.
  try {
    os.setPriority(os.constants.priority.PRIORITY_LOW);
  } catch {
    /* not allowed here: run at normal priority */
  }
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
  const key = backUpSecretKey(config, dest);
  let report;
  try {
    report = await snapshotDatabase(config.DATABASE_PATH, dest, { check: throttledCheck(config.BACKUP_CPU_SHARE) });
  } catch (e) {
    if (key.file) fs.rmSync(key.file, { force: true });
    throw e;
  }
  const removed: string[] = [];
  if (scheduled) {
    const all = listSnapshots(config.BACKUP_DIR!);
    for (const old of all.slice(0, Math.max(0, all.length - config.BACKUP_KEEP))) {
      fs.rmSync(old, { force: true });
      fs.rmSync(backupKeyFileOf(old), { force: true });
      removed.push(old);
    }
  }
  if (key.note) process.stderr.write(`${key.note}\n`);
  process.stdout.write(
    `${JSON.stringify({ msg: 'backup written', method: 'vacuum_into', ...report, started_at: new Date(report.startedAt).toISOString(), integrity: 'ok', ledger: 'ok', secret_key: key.file, ...(key.note ? { note: key.note } : {}), ...(removed.length ? { removed } : {}) })}\n`,
  );
}

main().catch((e) => {
  if (e instanceof ConfigError) process.stderr.write(`${e.lines.join('\n')}\n`);
  else process.stderr.write(`backup failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
