import { spawn } from 'node:child_process';
import type { Config } from '../config/env.js';
import type { Logger } from '../kernel/log.js';
import { scriptCommand } from './script-command.js';

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

export function startBackupSchedule(config: Config, log: Logger, env: NodeJS.ProcessEnv = process.env): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void runScheduledBackup(env, log).finally(() => (running = false));
  }, config.BACKUP_INTERVAL_MINUTES * 60_000);
  timer.unref();
  log.info({ dir: config.BACKUP_DIR, every_minutes: config.BACKUP_INTERVAL_MINUTES, keep: config.BACKUP_KEEP }, 'scheduled backups on');
  return { stop: () => clearInterval(timer) };
}
