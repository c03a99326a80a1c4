import type { FastifyInstance } from 'fastify';
import { ServiceClock } from './kernel/clock.js';
import type { Config } from './config/env.js';
import { cryptoIds, type Ids } from './kernel/ids.js';
import type { Deps } from './app/deps.js';
import { EventBus } from './kernel/event-bus.js';
import { KeyCache } from './app/keys.js';
import { SupplierCalls } from './app/orders/supplier-calls.js';
import { OrderWaits } from './app/orders/waits.js';
import { GiftCatalog } from './app/nft/gift-catalog.js';
import { SecretBox } from './app/secrets.js';
import { SettingsStore } from './app/settings.js';
import { WebhookDispatcher } from './app/webhooks/deliver.js';
import { jobQueue } from './app/job-queue.js';
import { jobTable } from './workers/jobs.js';
import { createWebhookTransport } from './http-out/webhook-transport.js';
import type { WebhookTransport } from './app/webhooks/transport.js';
import { buildHttpApp } from './http/app.js';
import { BotWebhook } from './app/bot-webhook.js';
import { setupWatchers } from './workers/deposit-watchers.js';
import { buildWatchers } from './suppliers/chains/watchers.js';
import { RateLimiter } from './http/rate-limiter.js';
import { openDatabase, type Db } from './store/db.js';
import { GroupCommit } from './store/group-commit.js';
import { kvGet, kvSet } from './store/kv-repo.js';
import { SandboxUpstream } from './suppliers/sandbox/sandbox-upstream.js';
import type { FragmentUpstream } from './suppliers/fragment/index.js';
import { composeSuppliers } from './suppliers/compose.js';
import { giftsOff } from './suppliers/gifts-off.js';
import type { GiftMarket } from './suppliers/types.js';
import type { GiftGateway } from './suppliers/telegram-gifts/gateway.js';
import type { TelegramGiftMarket } from './suppliers/telegram-gifts/index.js';
import { Scheduler } from './workers/scheduler.js';
import type { Logger } from './kernel/log.js';
import { openOps, type Ops } from './ops/wiring.js';
import { supplierFundsReader } from './app/operator/supplier-funds.js';
import { checkDatabaseMode } from './ops/database-mode.js';

/**
 * The composition root: opens the database, builds every service and the HTTP app, and wires the job
 * handlers. src/main.ts adds listening, the bot and signals; tests call it directly.
 */
export interface Service {
  app: FastifyInstance;
  deps: Deps;
  db: Db;
  scheduler: Scheduler;
  sandbox: SandboxUpstream;
  /** The Fragment adapter when UPSTREAM=fragment (Stars and Premium; gifts come from GIFTS_UPSTREAM). */
  fragment: FragmentUpstream | null;
  /** Telegram's gift marketplace when GIFTS_UPSTREAM=telegram. */
  telegramGifts: TelegramGiftMarket | null;
  keys: KeyCache;
  /** The gift catalog and its cache, shared by the API and the bot. */
  catalog: GiftCatalog;
  adminToken: string | undefined;
  /** Metrics, readiness, storage health, scheduled backups (src/ops/wiring.ts). */
  ops: Ops;
  /** The bot's webhook route when TELEGRAM_WEBHOOK_URL is set; the bot attaches to it (bot/runner.ts). */
  botWebhook: BotWebhook | null;
  close(): Promise<void>;
}

export interface ServiceOptions {
  config: Config;
  log: Logger;
  /** Real time source under the service clock; tests freeze it. */
  realNow?: () => number;
  ids?: Ids;
  /** Start the job poller (tests that only advance the clock may leave it off). */
  startWorkers?: boolean;
  adminToken?: string;
  /** GIFTS_UPSTREAM=telegram: this gateway instead of the account's MTProto client (the tests' fake). */
  giftGateway?: GiftGateway;
  /** Passed to the HTTP app: hooks added before the routes (HttpDeps.instrument): a test's, or the trace spans'. */
  instrumentHttp?: (app: FastifyInstance) => void;
  /** Traces are exported (src/ops/tracing.ts): supplier calls get spans of their own. */
  traced?: boolean;
  /**
   * The network side of webhook delivery (its port: src/app/webhooks/transport.ts). Default: the real one. The
   * seeded simulation (sim/) puts a receiver inside the process here, so that no real I/O makes its runs differ.
   */
  webhookTransport?: WebhookTransport;
}

const CLOCK_KEY = 'clock.offset_ms';

export async function createService(opts: ServiceOptions): Promise<Service> {
  const { config, log } = opts;
  const db = openDatabase(config.DATABASE_PATH);
  const realNow = opts.realNow ?? Date.now;
  let secrets: SecretBox;
  try {
    checkDatabaseMode(db, config, realNow());
    secrets = SecretBox.fromConfig(config.SECRET_ENCRYPTION_KEY, config.DATABASE_PATH, db, realNow());
  } catch (e) {
    db.$client.close();
    throw e;
  }
  const clock = new ServiceClock(realNow, kvGet<number>(db, CLOCK_KEY) ?? 0, (offset) => kvSet(db, CLOCK_KEY, offset, realNow() + offset));
  const sandbox = new SandboxUpstream(db, clock, { publicBaseUrl: config.publicBaseUrl, sellsGifts: config.gifts.upstream === 'sandbox' });
  const bus = new EventBus();
  bus.setMaxListeners(50);
  // imported only in this mode: the TON libraries take a while to load
  const fragmentModule = config.UPSTREAM === 'fragment' ? await import('./suppliers/fragment/index.js') : null;
  const fragment = fragmentModule ? await fragmentModule.createFragmentUpstream(config, { db, clock, log, bus }) : null;
  // the simulator's gifts only in sandbox mode (the configuration refuses GIFTS_UPSTREAM=sandbox otherwise)
  // imported only in this mode: MTProto takes a while to load
  const telegram = config.gifts.upstream === 'telegram' ? await (await import('./suppliers/telegram-gifts/index.js')).createTelegramGifts(config, { clock, log, bus }, opts.giftGateway) : null;
  // the sandbox's simulated faults (PUT /sandbox/faults) are decorators around its own suppliers only
  const simulated = sandbox.withFaults();
  const gifts: GiftMarket = config.gifts.upstream === 'sandbox' ? simulated.gifts : (telegram?.market ?? giftsOff);
  const ops = await openOps({ db, bus, clock, config, log, realNow, traced: opts.traced, hotWallet: fragment ? () => fragment.walletGauge() : undefined, giftsAccount: telegram ? () => telegram.market.balanceGauge() : undefined });
  let scheduler: Scheduler | null = null;
  const deps: Deps = {
    db,
    clock,
    config,
    ids: opts.ids ?? cryptoIds,
    log,
    suppliers: ops.instrumentSuppliers(composeSuppliers(fragment ?? simulated.goods, gifts)),
    // the sandbox's ledger_unavailable switch only when it is the upstream
    keyLedger: fragment ? { available: () => true } : sandbox.keyLedger,
    secrets,
    settings: new SettingsStore(db),
    bus,
    wake: () => scheduler?.nudge(),
    inFlight: new Map(),
    supplierCalls: new SupplierCalls(),
    orderWaits: new OrderWaits(clock, bus, config.ORDER_WAIT_MAX_PER_KEY),
    commits: new GroupCommit(db),
  };

  const dispatcher = new WebhookDispatcher(deps, opts.webhookTransport ?? createWebhookTransport({ allowSubnets: config.WEBHOOK_ALLOW_SUBNETS, hosts: fragment ? undefined : sandbox.hosts }));
  scheduler = new Scheduler(jobQueue(db), clock, jobTable(deps, dispatcher, setupWatchers(deps, buildWatchers(config)).handlers), log);

  const keys = new KeyCache();
  const limiter = new RateLimiter(clock, {
    key: { capacity: config.API_RATE_BURST, perMinute: config.API_RATE_LIMIT, limit: config.API_RATE_LIMIT },
    validate_recipient: { capacity: config.VALIDATE_RECIPIENT_RATE_LIMIT, perMinute: config.VALIDATE_RECIPIENT_RATE_LIMIT, limit: config.VALIDATE_RECIPIENT_RATE_LIMIT },
    nft_catalog: { capacity: config.NFT_CATALOG_RATE_LIMIT, perMinute: config.NFT_CATALOG_RATE_LIMIT, limit: config.NFT_CATALOG_RATE_LIMIT },
    nft_orders: { capacity: config.NFT_ORDERS_RATE_LIMIT, perMinute: config.NFT_ORDERS_RATE_LIMIT, limit: config.NFT_ORDERS_RATE_LIMIT },
    app_user: { capacity: config.APP_RATE_LIMIT, perMinute: config.APP_RATE_LIMIT, limit: config.APP_RATE_LIMIT },
    // unknown URLs, per client address: the budget of a key
    not_found: { capacity: config.API_RATE_BURST, perMinute: config.API_RATE_LIMIT, limit: config.API_RATE_LIMIT },
  });
  const catalog = new GiftCatalog(deps);
  sandbox.onGiftChange(() => catalog.invalidate());
  const adminToken = opts.adminToken ?? config.ADMIN_TOKEN;
  let ready = false;
  const botWebhook = BotWebhook.fromConfig(config);
  const app = await buildHttpApp({
    botWebhook,
    deps,
    keys,
    limiter,
    adminToken,
    catalog,
    sender: dispatcher,
    sandbox,
    advanceClock: scheduler.advance.bind(scheduler),
    payingWallet: fragment,
    // the accounts that pay: the Stars and Premium supplier's, then the gift account's when it is Telegram's
    supplierFunds: supplierFundsReader([fragment ?? sandbox, ...(telegram ? [telegram.market] : [])]),
    ready: () => ready,
    ops: ops.httpInstallers,
    observeError: (e, reqId) => ops.observeError(e, reqId),
    instrument: opts.instrumentHttp,
  });
  await app.ready();
  if (opts.startWorkers !== false) {
    scheduler.start();
    fragment?.start();
    telegram?.market.start();
  }
  ready = true;
  ops.started();

  let closed = false;
  return {
    app,
    deps,
    db,
    scheduler,
    sandbox,
    fragment,
    telegramGifts: telegram?.market ?? null,
    keys,
    catalog,
    adminToken,
    ops,
    botWebhook,
    async close() {
      if (closed) return;
      closed = true;
      ops.readiness.beginDrain();
      fragment?.stop();
      telegram?.market.stop();
      // waiting requests answer now (the order as it is), so that they do not hold the server open
      deps.orderWaits.close();
      await app.close();
      await scheduler!.stop();
      await dispatcher.close();
      await ops.close();
      await telegram?.close();
      db.$client.close();
    },
  };
}
