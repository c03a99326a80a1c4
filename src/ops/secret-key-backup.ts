import fs from 'node:fs';
import path from 'node:path';
import { SecretBox } from '../app/secrets.js';
import type { Config } from '../config/env.js';
import { sealedWebhookSecrets } from '../store/restore.js';
import { fsyncPath } from '../store/snapshot.js';

/**
 * The key of webhook secrets at rest (src/app/secrets.ts) in backups and restores. Without it a restored
 * database holds every webhook secret sealed for good: the service would start, make a new key, and fail
 * every signed delivery. So:
 * - a backup copies `secret.key` (beside the database) to `<backup>.secret.key` (mode 0600), before the
 *   backup file itself gets its name; when the key comes from SECRET_ENCRYPTION_KEY no file holds it, and
 *   the backup says, in one line, to keep that variable;
 * - a restore first finds the key the restored service will use (SECRET_ENCRYPTION_KEY, else the backup's
 *   key file, else a `secret.key` already beside the target) and opens every sealed secret of the backup
 *   with it, refusing before it touches anything when one does not open; then it puts the backup's key
 *   file beside the restored database.
 */
export const SECRET_KEY_FILE = 'secret.key';

export const KEEP_ENV_KEY_NOTE =
  'note: webhook secrets are sealed with SECRET_ENCRYPTION_KEY, which no backup holds: keep that variable (the same value) to restore them';

/** `secret.key` beside a database file (where SecretBox.fromConfig keeps it). */
export const keyFileOf = (databasePath: string) => path.join(path.dirname(path.resolve(databasePath)), SECRET_KEY_FILE);
/** The key file that goes with a backup file. */
export const backupKeyFileOf = (backupFile: string) => `${path.resolve(backupFile)}.${SECRET_KEY_FILE}`;

export class SecretKeyMissing extends Error {}

/** Writes `data` to `dest` through a temporary file, fsynced and renamed into place, mode 0600. */
function writeKeyFile(dest: string, data: Buffer): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fsyncPath(tmp);
  fs.renameSync(tmp, dest);
  fsyncPath(path.dirname(dest));
}

export interface KeyBackup {
  /** The key file written beside the backup, or null when none is (SECRET_ENCRYPTION_KEY, or no key file). */
  file: string | null;
  note: string | null;
}

/** Copies the database's key file beside the backup to be written at `backupFile` (call it before the backup gets its name). */
export function backUpSecretKey(config: Pick<Config, 'SECRET_ENCRYPTION_KEY' | 'DATABASE_PATH'>, backupFile: string): KeyBackup {
  if (config.SECRET_ENCRYPTION_KEY) return { file: null, note: KEEP_ENV_KEY_NOTE };
  const src = keyFileOf(config.DATABASE_PATH);
  if (!fs.existsSync(src)) return { file: null, note: `note: there is no ${SECRET_KEY_FILE} beside the database, so the backup holds no key of webhook secrets` };
  const dest = backupKeyFileOf(backupFile);
  writeKeyFile(dest, fs.readFileSync(src));
  return { file: dest, note: null };
}

export interface RestoreKeyPlan {
  source: 'SECRET_ENCRYPTION_KEY' | 'backup' | 'existing' | 'none';
  /** The backup's key file to put beside the restored database (source `backup`). */
  install: string | null;
  /** Sealed webhook secrets in the backup, each opened with the key. */
  secrets: number;
}

const readKey = (file: string) => new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'));

/** Which key the restored service will use; throws SecretKeyMissing when a sealed secret of the backup does not open with it. Touches nothing. */
export function planRestoreKey(config: Pick<Config, 'SECRET_ENCRYPTION_KEY' | 'DATABASE_PATH'>, backupFile: string): RestoreKeyPlan {
  const sealed = sealedWebhookSecrets(backupFile);
  const fromBackup = backupKeyFileOf(backupFile);
  const existing = keyFileOf(config.DATABASE_PATH);
  let source: RestoreKeyPlan['source'];
  let box: SecretBox | null;
  if (config.SECRET_ENCRYPTION_KEY) [source, box] = ['SECRET_ENCRYPTION_KEY', new SecretBox(Buffer.from(config.SECRET_ENCRYPTION_KEY, 'hex'))];
  else if (fs.existsSync(fromBackup)) [source, box] = ['backup', readKey(fromBackup)];
  else if (fs.existsSync(existing)) [source, box] = ['existing', readKey(existing)];
  else [source, box] = ['none', null];
  const where = {
    SECRET_ENCRYPTION_KEY: 'SECRET_ENCRYPTION_KEY',
    backup: fromBackup,
    existing,
    none: 'no key',
  }[source];
  const fix = `put the backup's key file beside it (${fromBackup}), or set SECRET_ENCRYPTION_KEY to the key the service used`;
  if (sealed.length > 0 && !box) throw new SecretKeyMissing(`the backup holds ${sealed.length} webhook secret(s) and there is no key to open them: ${fix}`);
  for (const s of sealed) {
    try {
      box!.open(s);
    } catch {
      throw new SecretKeyMissing(`the webhook secrets of this backup do not open with ${where}: ${fix}`);
    }
  }
  return { source, install: source === 'backup' ? fromBackup : null, secrets: sealed.length };
}

/** Puts the backup's key file beside the restored database; a different key already there is kept as `secret.key.before-restore-<time>`. */
export function installRestoreKey(plan: RestoreKeyPlan, databasePath: string, now: number = Date.now()): string | null {
  if (!plan.install) return null;
  const dest = keyFileOf(databasePath);
  const key = fs.readFileSync(plan.install);
  if (fs.existsSync(dest)) {
    if (fs.readFileSync(dest).equals(key)) return dest;
    fs.renameSync(dest, `${dest}.before-restore-${new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`);
  }
  writeKeyFile(dest, key);
  return dest;
}
