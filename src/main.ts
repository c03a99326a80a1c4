import 'dotenv/config';
import crypto from 'node:crypto';
import { ConfigError, loadConfig, unknownVariablesWarning, type Config } from './config/env.js';
import { demoStartText, startDemo } from './app/demo.js';
import { createLogger } from './kernel/log.js';
import { createService } from './service.js';
import { startMetricsServer } from './ops/ops-routes.js';
import { startBackupSchedule } from './ops/backup-schedule.js';
import { acquireInstanceLock, InstanceLocked } from './ops/instance-lock.js';
import { listenOrRefuse, StartupRefused } from './ops/listen.js';
import { backupBeforeMigrations } from './ops/pre-migration-backup.js';
import { startupFields } from './ops/startup-line.js';
import { refuseOtherModeEarly } from './ops/database-mode.js';
import { otlpEndpointSet } from './config/otel.js';

/** A refusal with a known cause: its line(s) on stderr, exit 1, no stack trace. */
function refuse(e: unknown): never | void {
  const lines = e instanceof ConfigError ? e.lines : e instanceof InstanceLocked || e instanceof StartupRefused ? [e.message] : null;
  if (!lines) return;
  for (const line of lines) process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** Entry point: config → database and services → listen → (bot) → signals. */
async function main(): Promise<void> {
  // The service's local time is UTC whatever the host's zone (timestamps are written with UTC getters too).
  process.env.TZ = 'UTC';
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    refuse(e);
    throw e;
  }
  const log = createLogger(config.LOG_LEVEL);
  const unknown = unknownVariablesWarning(process.env);
  if (unknown) log.warn(unknown);
  // one writer per database, for the life of this process (src/ops/instance-lock.ts)
  let preMigration;
  try {
    if (config.DATABASE_PATH !== ':memory:') acquireInstanceLock(config.DATABASE_PATH);
    // a database of the other mode is refused before it is backed up or migrated (src/ops/database-mode.ts)
    refuseOtherModeEarly(config);
    // a database with data is backed up before this build's migrations change it
    preMigration = await backupBeforeMigrations(config, log);
  } catch (e) {
    refuse(e);
    throw e;
  }
  let adminToken = config.ADMIN_TOKEN;
  if (!adminToken && config.UPSTREAM === 'sandbox') {
    adminToken = `adm_${crypto.randomBytes(24).toString('hex')}`;
    process.stdout.write(`Operator API token (generated for this run; set ADMIN_TOKEN to fix it): ${adminToken}\n`);
  }
  // OpenTelemetry traces only with an OTLP endpoint: the SDK is not even loaded otherwise (src/ops/tracing.ts)
  const tracing = otlpEndpointSet(process.env) ? (await import('./ops/tracing.js')).startTracing() : null;
  let svc;
  try {
    svc = await createService({ config, log, adminToken, instrumentHttp: tracing ? (app) => tracing.installHttp(app) : undefined, traced: Boolean(tracing) });
  } catch (e) {
    // a setting only the service can judge (the Fragment mnemonic's checksum, the database's mode): one line, like loadConfig's
    refuse(e);
    throw e;
  }

  // the demo partner (first start), its dashboard's sign-in link and the setting for local webhook receivers
  if (config.UPSTREAM === 'sandbox' && config.SANDBOX_DEMO) process.stdout.write(demoStartText(config, startDemo(svc.deps, svc.keys)));

  // SIGTERM/SIGINT are handled from here on: a signal during the rest of start-up stops what has started
  let bot: { stop(): Promise<void> } | null = null;
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | null = null;
  let backups: ReturnType<typeof startBackupSchedule> | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 9_000);
    force.unref();
    try {
      // /readyz answers 503 draining from now on; with SHUTDOWN_DRAIN_SECONDS the API keeps serving that long
      svc.ops.readiness.beginDrain();
      if (config.SHUTDOWN_DRAIN_SECONDS > 0) await new Promise((r) => setTimeout(r, config.SHUTDOWN_DRAIN_SECONDS * 1000));
      backups?.stop();
      await metricsServer?.close();
      await bot?.stop();
      await svc.close();
      await tracing?.shutdown();
      process.exit(0);
    } catch (e) {
      log.error({ err: e }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await listenOrRefuse(svc.app, config.HOST, config.PORT);
  } catch (e) {
    if (e instanceof StartupRefused) await svc.close();
    refuse(e);
    throw e;
  }
  if (stopping) return;
  log.info({ url: config.publicBaseUrl }, 'listening');
  // one line an operator can read the running release and mode from
  log.info(startupFields(config, svc.app), 'started');
  // grammY and the bot's code are loaded only when a bot runs (about 6 MB of memory otherwise)
  bot = config.TELEGRAM_BOT_TOKEN ? (await import('../bot/runner.js')).startBot(svc, config) : null;
  metricsServer = svc.ops.metrics && config.METRICS_PORT !== undefined ? await startMetricsServer(svc.ops.metrics, config.METRICS_HOST, config.METRICS_PORT) : null;
  if (metricsServer) log.info({ host: config.METRICS_HOST, port: metricsServer.port }, 'metrics listening');
  backups = config.BACKUP_DIR ? startBackupSchedule({ db: svc.db, config, log }) : null;
  if (preMigration) backups?.recordSuccess(preMigration.startedAt);
}

main().catch((e) => {
  process.stderr.write(`fatal: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
