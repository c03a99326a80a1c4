import type { FastifyInstance } from 'fastify';
import type { EventBus } from '../kernel/event-bus.js';
import type { ServiceClock } from '../kernel/clock.js';
import type { Config } from '../config/env.js';
import { toApiError } from '../http/errors.js';
import { MIGRATIONS_FOLDER, type Db } from '../store/db.js';
import { StorageHealth } from '../store/storage-health.js';
import type { Suppliers } from '../suppliers/types.js';
import type { Logger } from '../kernel/log.js';
import type { GiftsAccountReading, HotWalletReading, ServiceMetrics } from './metrics.js';
import { metricsRoute, readyzRoute } from './ops-routes.js';
import { Readiness } from './readiness.js';
import { installRequestHooks } from './request-hooks.js';
import { logStateChanges } from './state-log.js';
import { countSupplierErrors, traceSupplierCalls } from './supplier-errors.js';

/**
 * The operations side of one service instance, built by src/service.ts: storage health, readiness,
 * metrics (when METRICS_PORT or METRICS_TOKEN is set), the request and state-change log lines.
 */
export interface Ops {
  storage: StorageHealth;
  readiness: Readiness;
  metrics: ServiceMetrics | null;
  httpInstallers: ((app: FastifyInstance) => void)[];
  instrumentSuppliers(s: Suppliers): Suppliers;
  /** Every request error, before it is formatted: storage faults reach the monitor, unexpected ones the log (with the request's id). */
  observeError(e: unknown, reqId: string): void;
  started(): void;
  close(): Promise<void>;
}

const INFO_LEVELS = new Set(['trace', 'debug', 'info']);

export async function openOps(p: { db: Db; bus: EventBus; clock: ServiceClock; config: Config; log: Logger; realNow: () => number; traced?: boolean; hotWallet?: () => HotWalletReading; giftsAccount?: () => GiftsAccountReading }): Promise<Ops> {
  const { db, bus, clock, config, log } = p;
  const storage = new StorageHealth(db.$client, bus, log, p.realNow);
  const readiness = new Readiness(db.$client, storage, MIGRATIONS_FOLDER);
  const metricsOn = config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined;
  // prom-client and the metrics' code are loaded only when metrics are on (a few MB of memory otherwise)
  const metrics = metricsOn ? (await import('./metrics.js')).createMetrics({
        db,
        bus,
        clock,
        storageAvailable: () => storage.available(),
        hotWallet: p.hotWallet,
        giftsAccount: p.giftsAccount,
        backupIntervalSeconds: config.BACKUP_DIR ? config.BACKUP_INTERVAL_MINUTES * 60 : undefined,
        bot: Boolean(config.TELEGRAM_BOT_TOKEN),
      }) : null;
  const logInfo = INFO_LEVELS.has(config.LOG_LEVEL);
  const stopStateLog = logInfo ? logStateChanges(bus, log) : () => {};
  const httpInstallers: ((app: FastifyInstance) => void)[] = [
    (app) => installRequestHooks(app, { metrics, log: logInfo ? log : null }),
    readyzRoute(readiness),
  ];
  if (metrics && config.METRICS_TOKEN) httpInstallers.push(metricsRoute(metrics, config.METRICS_TOKEN));
  return {
    storage,
    readiness,
    metrics,
    httpInstallers,
    instrumentSuppliers: (s) => {
      const counted = metrics ? countSupplierErrors(s, bus) : s;
      return p.traced ? traceSupplierCalls(counted) : counted;
    },
    observeError(e, reqId) {
      if (storage.report(e)) return;
      // the message and stack only (src/kernel/log.ts): an internal error answers 500 and must be findable by
      // the X-Request-Id its answer carries
      if (toApiError(e).code === 'internal_error') log.error({ req_id: reqId, err: e }, 'request failed');
    },
    started: () => readiness.markStarted(),
    async close() {
      stopStateLog();
      metrics?.close();
      storage.close();
    },
  };
}
