import client from 'prom-client';
import type { Db } from '../store/db.js';
import { opsReads } from '../store/ops-repo.js';
import type { EventBus } from '../kernel/event-bus.js';
import type { ServiceClock } from '../kernel/clock.js';
import { FastCounter, FastHistogram } from './fast-metrics.js';
import type { OpsEvent, WebhookOutcome } from '../kernel/ops-events.js';
import { ORDER_TYPES } from '../domain/enums.js';
import { buildInfo } from './build-info.js';
import { kvGet } from '../store/kv-repo.js';
import { LAST_BACKUP_KEY } from './backup-schedule.js';

/**
 * The service's Prometheus metrics (prom-client), in a registry of their own, named by Prometheus'
 * conventions: one prefix (`partner_service_`), the unit in the name (`_seconds`, `_usd`, `_ton`), `_total`
 * on counters only, and every counter present at 0 for its known labels from start-up, so that an alert on
 * the first failure (`increase(...) > 0`) has a series to compare with. prom-client's default process
 * metrics keep their standard names (`process_*`, `nodejs_*`).
 *
 * Counters follow the `ops` events on the bus (raised after each commit, so they count what is durable);
 * gauges that describe the database (due jobs, pending webhook deliveries, unmatched deposits, ledger
 * totals, storage) are read at scrape time with indexed queries. Labels are bounded sets only (route
 * template, method, status, order type, job kind, outcome, currency): never an order id, a username or a
 * partner.
 */
export interface ServiceMetrics {
  registry: client.Registry;
  /** Called once per answered request (src/ops/request-hooks.ts). */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** Stops listening to the bus. */
  close(): void;
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Creation to outcome: seconds (sandbox Stars) up to the year of a deferred Premium order. */
const FINAL_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 3600, 6 * 3600, 86_400, 7 * 86_400, 30 * 86_400, 365 * 86_400];

export interface MetricsSources {
  db: Db;
  bus: EventBus;
  clock: ServiceClock;
  /** 1 while the database takes writes (src/store/storage-health.ts). */
  storageAvailable(): boolean;
  /** The supplier's hot wallet when a real supplier pays from one (UPSTREAM=fragment), else absent. */
  hotWallet?: () => HotWalletReading;
  /** The gift account's TON balance when GIFTS_UPSTREAM=telegram, else absent. */
  giftsAccount?: () => GiftsAccountReading;
  /** BACKUP_INTERVAL_MINUTES in seconds when scheduled backups are on (BACKUP_DIR), else absent. */
  backupIntervalSeconds?: number;
  /** A bot token is set: the bot's connection to the Bot API is a gauge. */
  bot?: boolean;
}

/** What /metrics shows of the Telegram gift account: its last known TON balance and the alert threshold. */
export interface GiftsAccountReading {
  /** null until Telegram first answered */
  balanceTon: number | null;
  /** the account's Stars, null until Telegram first answered */
  balanceStars?: number | null;
  minTon: number;
  up: boolean;
}

/** What /metrics shows of the hot wallet: its address (a label of the info gauge) and last known balance. */
export interface HotWalletReading {
  address: string;
  version: string;
  /** null until toncenter first answered */
  balanceTon: number | null;
  minTon: number;
  /** the supplier takes new orders (no session, KYC, reachability or funds problem) */
  up: boolean;
}

/** The prefix of every metric of the service (not of prom-client's default process metrics). */
export const PREFIX = 'partner_service_';
const WEBHOOK_OUTCOMES: Exclude<WebhookOutcome, 'created'>[] = ['delivered', 'failed_attempt', 'gave_up', 'refused', 'secret_unreadable'];
const SUPPLIER_PRODUCTS = ['stars', 'premium', 'nft', 'resolver'];

export function createMetrics(src: MetricsSources): ServiceMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const reg = [registry];
  const P = PREFIX;

  const build = buildInfo();
  new client.Gauge({
    name: `${P}build_info`,
    help: 'The running build: package version and git commit (value 1)',
    labelNames: ['version', 'commit'] as const,
    registers: reg,
  }).set({ version: build.version, commit: build.commit }, 1);

  // the metrics updated per request and per order (src/ops/fast-metrics.ts says why not prom-client's own)
  const http = new FastHistogram(`${P}http_request_duration_seconds`, 'HTTP requests by route template, method and status code, with their duration', ['route', 'method', 'status'], DURATION_BUCKETS, registry);
  // One child per label set, found by a string key.
  const children = new Map<string, { observe(v: number): void }>();

  const byType = (name: string, help: string) => {
    const c = new FastCounter(`${P}${name}`, help, ['type'], registry);
    for (const type of ORDER_TYPES) c.zero(type);
    return c;
  };
  const created = byType('orders_created_total', 'Orders created, by type');
  const completed = byType('orders_completed_total', 'Orders completed, by type');
  const failed = byType('orders_failed_total', 'Orders failed (or canceled), by type');
  const refunded = byType('orders_refunded_total', 'Orders refunded, by type');
  const toFinal = new FastHistogram(`${P}order_time_to_final_seconds`, "Time from an order's creation to its final state, by type and final status (service clock)", ['type', 'status'], FINAL_BUCKETS, registry);
  const webhookAttempts = new FastCounter(
    `${P}webhook_attempts_total`,
    'Webhook delivery attempts by outcome (delivered, failed_attempt, gave_up; refused: address refused before sending; secret_unreadable: the partner\'s secret does not open with the service\'s key, nothing sent)',
    ['outcome'],
    registry,
  );
  for (const o of WEBHOOK_OUTCOMES) webhookAttempts.zero(o);
  const supplierErrors = new FastCounter(`${P}supplier_call_errors_total`, 'Supplier calls that threw, by product', ['product'], registry);
  for (const p of SUPPLIER_PRODUCTS) supplierErrors.zero(p);
  const botUpdates = new FastCounter(`${P}bot_updates_total`, 'Bot updates by outcome (handled, failed)', ['outcome'], registry);
  for (const o of ['handled', 'failed']) botUpdates.zero(o);

  const reads = opsReads(src.db.$client);
  /** Minor units per currency unit (cents, milli-TON). */
  const unit: Record<string, number> = { USD: 100, TON: 1000 };

  let dueCache: { kind: string; n: number; oldest: number }[] = [];
  // The due-jobs pair is read once per scrape by the first of the two gauges.
  const readDue = () => {
    try {
      dueCache = reads.dueJobs(src.clock.now());
    } catch {
      dueCache = [];
    }
    return dueCache;
  };
  new client.Gauge({
    name: `${P}jobs_due`,
    help: 'Jobs due now and not yet run, by kind',
    labelNames: ['kind'] as const,
    registers: reg,
    collect() {
      this.reset();
      for (const r of readDue()) this.set({ kind: r.kind }, r.n);
    },
  });
  new client.Gauge({
    name: `${P}jobs_oldest_due_age_seconds`,
    help: 'Age of the oldest due job, by kind (service clock)',
    labelNames: ['kind'] as const,
    registers: reg,
    collect() {
      this.reset();
      const now = src.clock.now();
      for (const r of dueCache) this.set({ kind: r.kind }, Math.max(0, (now - r.oldest) / 1000));
    },
  });
  new client.Gauge({
    name: `${P}webhook_deliveries`,
    help: 'Webhook deliveries pending, and given up (failed)',
    labelNames: ['status'] as const,
    registers: reg,
    collect() {
      const r = safe(() => reads.deliveryCounts());
      if (!r) return;
      this.set({ status: 'pending' }, r.pending);
      this.set({ status: 'failed' }, r.failed);
    },
  });
  new client.Gauge({
    name: `${P}deposits_unmatched`,
    help: 'Chain deposits waiting for an operator (unmatched)',
    registers: reg,
    collect() {
      const n = safe(() => reads.unmatchedDeposits());
      if (n !== undefined) this.set(n);
    },
  });
  // One gauge per currency, so that the unit is in the name (a gauge never ends in _total: that is a counter's).
  for (const currency of ['USD', 'TON']) {
    new client.Gauge({
      name: `${P}ledger_balance_${currency.toLowerCase()}`,
      help: `Sum of all partners' ${currency} balances, in ${currency} (read at scrape time)`,
      registers: reg,
      collect() {
        const rows = safe(() => reads.balanceTotals());
        if (!rows) return;
        const row = rows.find((r) => r.currency === currency);
        this.set(row ? row.total / (unit[currency] ?? 1) : 0);
      },
    });
  }
  new client.Gauge({
    name: `${P}storage_available`,
    help: '1 while the database takes writes, 0 during a storage fault (disk full, I/O error, read-only, busy)',
    registers: reg,
    collect() {
      this.set(src.storageAvailable() ? 1 : 0);
    },
  });

  if (src.backupIntervalSeconds !== undefined) {
    const interval = src.backupIntervalSeconds;
    new client.Gauge({
      name: `${P}backup_last_success_timestamp_seconds`,
      help: 'When the last backup (scheduled, or before migrations) was written, Unix time; 0: never',
      registers: reg,
      collect() {
        const at = safe(() => kvGet<number>(src.db, LAST_BACKUP_KEY));
        if (at !== undefined) this.set(at ? at / 1000 : 0);
      },
    });
    new client.Gauge({
      name: `${P}backup_interval_seconds`,
      help: 'BACKUP_INTERVAL_MINUTES, in seconds',
      registers: reg,
      collect() {
        this.set(interval);
      },
    });
  }
  let botConnected = 0;
  if (src.bot) {
    new client.Gauge({
      name: `${P}bot_connected`,
      help: '1 while the Bot API answers the bot, 0 from its first failed call until one succeeds again (0 until the first answer)',
      registers: reg,
      collect() {
        this.set(botConnected);
      },
    });
  }

  const wallet = src.hotWallet;
  if (wallet) {
    // One address per service, so the label set stays bounded.
    new client.Gauge({
      name: `${P}supplier_hot_wallet_info`,
      help: "The supplier hot wallet's address and contract version (value 1)",
      labelNames: ['address', 'version'] as const,
      registers: reg,
      collect() {
        const w = wallet();
        this.reset();
        this.set({ address: w.address, version: w.version }, 1);
      },
    });
    new client.Gauge({
      name: `${P}supplier_hot_wallet_balance_ton`,
      help: "The supplier hot wallet's last known balance in TON (absent until toncenter first answered)",
      registers: reg,
      collect() {
        const b = wallet().balanceTon;
        this.reset();
        if (b !== null) this.set(b);
      },
    });
    new client.Gauge({
      name: `${P}supplier_hot_wallet_min_ton`,
      help: 'The balance below which the operators are alerted (FRAGMENT_WALLET_MIN_TON)',
      registers: reg,
      collect() {
        this.set(wallet().minTon);
      },
    });
    new client.Gauge({
      name: `${P}supplier_up`,
      help: '1 while the supplier takes new Stars and Premium orders, 0 while they get 503 upstream_unavailable',
      registers: reg,
      collect() {
        this.set(wallet().up ? 1 : 0);
      },
    });
  }

  const gifts = src.giftsAccount;
  if (gifts) {
    new client.Gauge({
      name: `${P}gifts_account_balance_ton`,
      // NaN until Telegram first answered: a label-less gauge cannot be absent, and 0 would read as empty
      help: "The Telegram gift account's last known TON balance (NaN until Telegram first answered)",
      registers: reg,
      collect() {
        this.set(gifts().balanceTon ?? Number.NaN);
      },
    });
    new client.Gauge({
      name: `${P}gifts_account_balance_stars`,
      help: "The Telegram gift account's last known Stars balance (NaN until Telegram first answered)",
      registers: reg,
      collect() {
        this.set(gifts().balanceStars ?? Number.NaN);
      },
    });
    new client.Gauge({
      name: `${P}gifts_account_min_ton`,
      help: 'The gift account balance below which the operators are alerted (GIFTS_BALANCE_MIN_TON)',
      registers: reg,
      collect() {
        this.set(gifts().minTon);
      },
    });
    new client.Gauge({
      name: `${P}gifts_supplier_up`,
      help: '1 while the gift marketplace takes new gift orders, 0 while they get 503 upstream_unavailable',
      registers: reg,
      collect() {
        this.set(gifts().up ? 1 : 0);
      },
    });
  }

  const onOps = (e: OpsEvent) => {
    switch (e.kind) {
      case 'order_created':
        created.inc(e.type);
        return;
      case 'order_state':
        if (e.refunded) refunded.inc(e.type);
        // Outcomes are counted once, when the order becomes final (no transition leaves a final phase): a
        // Stars order that enters review reads `failed` but is counted when the review ends.
        if (!e.final) return;
        if (e.to === 'completed') completed.inc(e.type);
        else failed.inc(e.type);
        toFinal.observe([e.type, e.to], Math.max(0, (e.at - e.createdAt) / 1000));
        return;
      case 'webhook_state':
        if (e.outcome !== 'created') webhookAttempts.inc(e.outcome);
        return;
      case 'supplier_error':
        supplierErrors.inc(e.product);
        return;
      case 'bot_update':
        botUpdates.inc(e.ok ? 'handled' : 'failed');
        return;
      case 'bot_connection':
        botConnected = e.connected ? 1 : 0;
        return;
    }
  };
  src.bus.on('ops', onOps);

  return {
    registry,
    observeRequest(route, method, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = http.child(route, method, String(status));
        children.set(key, child);
      }
      child.observe(seconds);
    },
    close() {
      src.bus.off('ops', onOps);
    },
  };
}

/** A gauge read that fails (a storage fault) leaves the gauge as it was rather than failing the scrape. */
function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
