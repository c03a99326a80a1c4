import 'dotenv/config';
import { ConfigError, loadConfig } from '../config/env.js';
import { restoreDatabase, ServiceRunning } from '../store/restore.js';
import { installRestoreKey, planRestoreKey, SecretKeyMissing } from './secret-key-backup.js';
import { acquireInstanceLock, InstanceLocked } from './instance-lock.js';

/**
 * npm run restore -- <file>: puts a backup in place of DATABASE_PATH for a STOPPED service and verifies it
 * (src/store/restore.ts). Refuses (exit 1) while the service has the database open, or when the backup
 * fails its checks, or when its webhook secrets do not open with the key the restored service will use
 * (SECRET_ENCRYPTION_KEY, the backup's `<file>.secret.key`, or a `secret.key` already beside the database);
 * the backup's key file is put beside the restored database (src/ops/secret-key-backup.ts). Prints one JSON line.
 */
function main(): void {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!file) {
    process.stderr.write('usage: npm run restore -- <backup file>\n');
    process.exit(2);
  }
  const config = loadConfig(process.env);
  // every sealed webhook secret must open with the key the restored service will use: checked before anything is touched
  const key = planRestoreKey(config, file);
  // the restore holds the service's own lock: refused while an instance runs, and none starts half-way through
  const lock = acquireInstanceLock(config.DATABASE_PATH);
  let r, keyFile;
  try {
    r = restoreDatabase(file, config.DATABASE_PATH);
    keyFile = installRestoreKey(key, config.DATABASE_PATH);
  } finally {
    lock.release();
  }
  process.stdout.write(
    `${JSON.stringify({ msg: 'restored', target: r.target, previous_kept_as: r.previous, orders: r.after.orders, integrity: 'ok', ledger: r.after.ledger.ok ? 'ok' : 'failed', webhook_secrets: key.secrets, secret_key: key.source, ...(keyFile ? { secret_key_file: keyFile } : {}) })}\n`,
  );
}

try {
  main();
} catch (e) {
  if (e instanceof ConfigError) process.stderr.write(`${e.lines.join('\n')}\n`);
  else process.stderr.write(`restore ${e instanceof ServiceRunning || e instanceof SecretKeyMissing || e instanceof InstanceLocked ? 'refused' : 'failed'}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
