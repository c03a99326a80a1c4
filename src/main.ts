import 'dotenv/config';
import crypto from 'node:crypto';
import { ConfigError, loadConfig, type Config } from './config/env.js';
import { demoStartText, startDemo } from './app/demo.js';
import { createLogger } from './kernel/log.js';
import { createService } from './service.js';
import { startMetricsServer } from './ops/ops-routes.js';
import { startBackupSchedule } from './ops/backup-schedule.js';

/** Entry point: config → database and services → listen → (bot) → signals. */
async function main(): Promise<void> {
  // The service's local time is UTC whatever the host's zone (timestamps are written with UTC getters too).
  process.env.TZ = 'UTC';
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      for (const line of e.lines) process.stderr.write(`${line}\n`);
      process.exit(1);
    }
    throw e;
  }
  const log = createLogger(config.LOG_LEVEL);
  let adminToken = config.ADMIN_TOKEN;
  if (!adminToken && config.UPSTREAM === 'sandbox') {
    adminToken = `adm_${crypto.randomBytes(24).toString('hex')}`;
    process.stdout.write(`Operator API token (generated for this run; set ADMIN_TOKEN to fix it): ${adminToken}\n`);
  }
  let svc;
  try {
    svc = await createService({ config, log, adminToken });
  } catch (e) {
    // a setting only the service can judge (the Fragment mnemonic's checksum): one line, like loadConfig's
    if (e instanceof ConfigError) {
      for (const line of e.lines) process.stderr.write(`${line}\n`);
      process.exit(1);
    }
    throw e;
  }

  // the demo partner (first start), its dashboard's sign-in link and the setting for local webhook receivers
  if (config.UPSTREAM === 'sandbox' && config.SANDBOX_DEMO) process.stdout.write(demoStartText(config, startDemo(svc.deps, svc.keys)));

  await svc.app.listen({ port: config.PORT, host: config.HOST });
  log.info({ url: config.publicBaseUrl }, 'listening');
  // grammY and the bot's code are loaded only when a bot runs (about 6 MB of memory otherwise)
  const bot = config.TELEGRAM_BOT_TOKEN ? (await import('../bot/runner.js')).startBot(svc, config) : null;
  const metricsServer = svc.ops.metrics && config.METRICS_PORT !== undefined ? await startMetricsServer(svc.ops.metrics, config.METRICS_HOST, config.METRICS_PORT) : null;
  if (metricsServer) log.info({ host: config.METRICS_HOST, port: metricsServer.port }, 'metrics listening');
  const backups = config.BACKUP_DIR ? startBackupSchedule(config, log) : null;

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
      process.exit(0);
    } catch (e) {
      log.error({ err: e }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  process.stderr.write(`fatal: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
