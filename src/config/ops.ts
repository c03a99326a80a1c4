import { z } from 'zod';
import { int, optionalString } from './fields.js';

/**
 * Environment variables of production operations (README "Operations"): metrics, shutdown drain and
 * scheduled backups. Merged into the envSchema of src/config/env.ts.
 */
export const opsEnvShape = {
  /** A separate listener for GET /metrics (default: off). */
  METRICS_PORT: int(1, 65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Bearer token that opens GET /metrics on the main port (default: off, /metrics is 404 there). */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** After SIGTERM, /readyz answers 503 draining for this long while requests are still served. */
  SHUTDOWN_DRAIN_SECONDS: int(0, 5).default(0),
  /** Folder of scheduled snapshots (default: no scheduled snapshots). */
  BACKUP_DIR: optionalString,
  BACKUP_INTERVAL_MINUTES: int(1, 10_080).default(60),
  BACKUP_KEEP: int(1, 10_000).default(24),
  /** The share of one CPU the check of a backup copy may use (1: unthrottled), so that orders keep their pace. */
  BACKUP_CPU_SHARE: z
    .string()
    .regex(/^(0(\.\d{1,2})?|1(\.0{1,2})?)$/, 'must be a number from 0.05 to 1')
    .transform(Number)
    .pipe(z.number().min(0.05, 'must be at least 0.05').max(1))
    .default(0.25),
};
