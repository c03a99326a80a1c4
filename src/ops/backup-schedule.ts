import { spawn } from 'node:child_process';
import type { Config } from '../config/env.js';
import type { Logger } from '../kernel/log.js';
import { scriptCommand } from './script-command.js';
import type { Conn } from '../store/db.js';
import { kvGet, kvSet } from '../store/kv-repo.js';

/**
 * Scheduled snapshots (BACKUP_DIR, every BACKUP_INTERVAL_MINUTES, keeping BACKUP_KEEP): each one runs the
 * backup CLI (src/ops/backup-cli.ts --scheduled) as a child process, so the copy and its checks never run
 * on the service's event loop. Real time, not the service clock: a backup is an operational fact. One at a
 * time; a failure is logged as an error and the next interval tries again.
 */
export function runScheduledBackup(env: NodeJS.ProcessEnv, log: Logger): Promise<boolean> {
  const { cmd, args } = scriptCommand('backup-cli');
  return new Promise((resolve) => {
    const child = spawn(cmd, [...args, '--scheduled'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => {
      if (code === 0) {
        let report: unknown = out.trim();
        try {
          report = JSON.parse(out);
        } catch {
          /* keep the text */
        }
        log.info({ backup: report }, 'scheduled backup written');
        resolve(true);
      } else {
        log.error({ exit_code: code, detail: err.trim().slice(0, 500) }, 'scheduled backup failed');
        resolve(false);
      }
    });
  });
}

/** Kept in the database (kv), so that a restart neither delays nor repeats the schedule. */
export const NEXT_BACKUP_KEY = 'backup.next_at';
export const LAST_BACKUP_KEY = 'backup.last_success_at';

/** How often the schedule looks at the next backup's time (real time). */
const TICK_MS = 15_000;

export interface BackupSchedule {
  /** A backup written outside the schedule (before migrations) counts as the last success. */
  recordSuccess(at: number): void;
  stop(): void;
}

/**
 * Scheduled backups whose times survive restarts: the next one's time and the last success are kept in the
 * database. A database that never had one gets its first at once; after each run, successful or not, the next
 * is due BACKUP_INTERVAL_MINUTES later. `partner_service_backup_last_success_timestamp_seconds` reads the last
 * success (src/ops/metrics.ts) and deploy/alerts.yml alerts when it is older than twice the interval.
 */
export function startBackupSchedule(
  deps: { db: Conn; config: Config; log: Logger; realNow?: () => number; run?: () => Promise<boolean> },
): BackupSchedule {
  const { db, config, log } = deps;
  const now = deps.realNow ?? Date.now;
  const run = deps.run ?? (() => runScheduledBackup(process.env, log));
  const intervalMs = config.BACKUP_INTERVAL_MINUTES * 60_000;
  let running = false;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    const due = kvGet<number>(db, NEXT_BACKUP_KEY) ?? 0;
    if (now() < due) return;
    running = true;
    void run()
      .then((ok) => {
        const at = now();
        if (stopped) return;
        if (ok) kvSet(db, LAST_BACKUP_KEY, at, at);
        kvSet(db, NEXT_BACKUP_KEY, at + intervalMs, at);
      })
      .catch((err) => log.error({ err }, 'scheduled backup failed'))
      .finally(() => (running = false));
  };
  const timer = setInterval(tick, Math.min(TICK_MS, intervalMs));
  timer.unref();
  const next = kvGet<number>(db, NEXT_BACKUP_KEY);
  log.info(
    { dir: config.BACKUP_DIR, every_minutes: config.BACKUP_INTERVAL_MINUTES, keep: config.BACKUP_KEEP, next_at: new Date(next ?? now()).toISOString() },
    'scheduled backups on',
  );
  tick();
  return {
    recordSuccess(at) {
      kvSet(db, LAST_BACKUP_KEY, at, at);
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
