import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CURRENCIES, ORDER_TYPES, ORDER_STATUSES, PARTNER_STATUSES, LEDGER_ENTRY_KINDS } from '../domain/enums.js';

/**
 * The service database. Times are service-clock milliseconds; money is integer minor units
 * (cents for USD, milli-TON for TON).
 */

export const partners = sqliteTable('partners', {
  partnerId: integer('partner_id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  status: text('status', { enum: PARTNER_STATUSES }).notNull(),
  /** The webhook block: null until first saved. */
  webhookUrl: text('webhook_url'),
  /** Secret encrypted at rest (AES-256-GCM, see src/app/secrets.ts). */
  webhookSecretEnc: text('webhook_secret_enc'),
  /** The webhook events the partner takes (the Webhook block's `events`); null: the three order events. */
  webhookEvents: text('webhook_events', { mode: 'json' }).$type<string[]>(),
  createdAt: integer('created_at').notNull(),
});

/**
 * Low-balance alert thresholds (issue 15 point 7): a row per partner and currency that has one. `alerted`
 * is set when a debit took the balance below the threshold and the owners were told, and cleared when a
 * debit finds the balance back at or above it (or the threshold is saved again).
 */
export const balanceAlerts = sqliteTable(
  'balance_alerts',
  {
    partnerId: integer('partner_id').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    threshold: integer('threshold').notNull(),
    alerted: integer('alerted', { mode: 'boolean' }).notNull().default(false),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.currency] })],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    keyId: text('key_id').primaryKey(),
    partnerId: integer('partner_id').notNull().references(() => partners.partnerId),
    prefix: text('prefix').notNull(),
    /** SHA-256 of the full key; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    ipWhitelist: text('ip_whitelist', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash').on(t.keyHash), index('api_keys_partner').on(t.partnerId)],
);

export const accounts = sqliteTable(
  'accounts',
  {
    partnerId: integer('partner_id').notNull().references(() => partners.partnerId),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    balance: integer('balance').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.currency] }), check('balance_not_negative', sql`${t.balance} >= 0`)],
);

export const ledgerEntries = sqliteTable(
  'ledger_entries',
  {
    entryId: integer('entry_id').primaryKey({ autoIncrement: true }),
    partnerId: integer('partner_id').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: integer('amount').notNull(),
    kind: text('kind', { enum: LEDGER_ENTRY_KINDS }).notNull(),
    orderId: text('order_id'),
    topupId: text('topup_id'),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('ledger_partner').on(t.partnerId, t.currency, t.entryId),
    index('ledger_order').on(t.orderId),
    check('balance_after_not_negative', sql`${t.balanceAfter} >= 0`),
  ],
);

export const topups = sqliteTable(
  'topups',
  {
    topupId: text('topup_id').primaryKey(),
    partnerId: integer('partner_id').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: integer('amount').notNull(),
    network: text('network').notNull(),
    txHash: text('tx_hash').notNull(),
    source: text('source').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('topups_tx_hash').on(t.txHash)],
);

export const orders = sqliteTable(
  'orders',
  {
    seq: integer('seq').primaryKey(),
    orderId: text('order_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    type: text('type', { enum: ORDER_TYPES }).notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    priceUsdRef: integer('price_usd_ref'),
    /**
     * What the supplier charges for the order, in the order's currency and minor units, as fixed when it was
     * priced (the cost its price was made from: Stars and Premium at the supplier's USD cost, a gift at its
     * listing price plus fees). Null for orders made before costs were stored. The console's margin.
     */
    supplierCost: integer('supplier_cost'),
    quantity: integer('quantity').notNull(),
    recipient: text('recipient').notNull(),
    /** Normalised username (lower case, no @): the key of the one-unfinished-Premium rule. */
    account: text('account').notNull(),
    refunded: integer('refunded', { mode: 'boolean' }).notNull().default(false),
    /** Internal stage of processing, e.g. `deliver`, `deferred`, `unconfirmed`, `done`. */
    stage: text('stage').notNull(),
    reviewStage: text('review_stage'),
    reviewSince: integer('review_since'),
    failureStage: text('failure_stage'),
    failureReason: text('failure_reason'),
    gift: text('gift', { mode: 'json' }).$type<Record<string, unknown>>(),
    /**
     * An NFT order's gift as the order fixed it, typed (the `gift` JSON above is its view for the partner):
     * the market's gift id, its collection and the listing price in milli-TON, the cap of the purchase.
     * Null for other orders.
     */
    giftId: text('gift_id'),
    giftCollection: text('gift_collection'),
    giftPriceMilli: integer('gift_price_milli'),
    delivery: text('delivery', { mode: 'json' }).$type<Record<string, unknown>>(),
    webhookUrl: text('webhook_url'),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The partner's own reference (POST /orders `client_reference`), null when not given. */
    clientReference: text('client_reference'),
    createdAt: integer('created_at').notNull(),
    completedAt: integer('completed_at'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('orders_order_id').on(t.orderId),
    index('orders_partner_seq').on(t.partnerId, t.seq),
    index('orders_partner_status_seq').on(t.partnerId, t.status, t.seq),
    index('orders_partner_type_seq').on(t.partnerId, t.type, t.seq),
    // GET /orders filtered by type and status at once: one index walk, newest first, however many orders
    // of the partner match only one of the two
    index('orders_partner_type_status_seq').on(t.partnerId, t.type, t.status, t.seq),
    // Partial indexes: an ordinary Stars order never enters them, so its insert touches two b-trees fewer.
    index('orders_in_review').on(t.reviewStage).where(sql`${t.reviewStage} is not null`),
    index('orders_open_premium').on(t.account).where(sql`${t.type} = 'premium' and ${t.status} = 'processing'`),
    // GET /orders?client_reference=: partial too, so an order without a reference pays nothing for it
    index('orders_partner_ref_seq').on(t.partnerId, t.clientReference, t.seq).where(sql`${t.clientReference} is not null`),
    // GET /stats: the orders of the partial first and last hour of a range (whole hours come from order_stats_hourly)
    index('orders_partner_created').on(t.partnerId, t.createdAt),
    // the console's margin of the orders completed in the last 24 hours; partial: an unfinished order is not in it
    index('orders_completed_at').on(t.completedAt).where(sql`${t.completedAt} is not null`),
  ],
);

/**
 * GET /stats (issue 15): the orders of each partner counted and summed per hour of creation
 * (`created_at / 3600000`), type, current status, currency and refunded flag. Kept by SQLite triggers on
 * `orders` (migration 0010_order_stats_triggers), so every write of an order, whatever its path, moves it
 * in the same transaction. A year of stats reads at most a few rows per hour instead of every order; only
 * the partial hours at a range's edges are counted from the orders.
 */
export const orderStatsHourly = sqliteTable(
  'order_stats_hourly',
  {
    partnerId: integer('partner_id').notNull(),
    hour: integer('hour').notNull(),
    type: text('type', { enum: ORDER_TYPES }).notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    refunded: integer('refunded', { mode: 'boolean' }).notNull(),
    /** Orders in this bucket (0 once they all moved on). */
    orders: integer('orders').notNull(),
    /** Their partner prices, minor units. */
    amount: integer('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.hour, t.type, t.status, t.currency, t.refunded] })],
);

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    partnerId: integer('partner_id').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['in_progress', 'bound'] }).notNull(),
    orderId: text('order_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.key] })],
);

/** The outbox: every event an order transition produced, written in the transition's transaction. */
export const events = sqliteTable(
  'events',
  {
    eventId: integer('event_id').primaryKey({ autoIncrement: true }),
    partnerId: integer('partner_id').notNull(),
    /** '' for an event without an order (`webhook.test`); its body says `"order_id": null`. */
    orderId: text('order_id').notNull(),
    event: text('event').notNull(),
    /** The exact webhook body, serialised once at the moment of the event. */
    body: text('body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('events_order').on(t.orderId)],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    webhookId: text('webhook_id').primaryKey(),
    /** One delivery per event, so the event id orders deliveries by creation (the partner log's cursor). */
    eventId: integer('event_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    /** '' for an event without an order (`webhook.test`). */
    orderId: text('order_id').notNull(),
    event: text('event').notNull(),
    url: text('url').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    /** Scheduled attempts made (the retry schedule counts these only). */
    attempts: integer('attempts').notNull().default(0),
    /** Manual redeliveries made (POST /webhook-deliveries/{id}/redeliver): outside the schedule. */
    manualAttempts: integer('manual_attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    rejectedReason: text('rejected_reason'),
    nextAttemptAt: integer('next_attempt_at'),
    /** DNS failures in a row (they use no attempt; too many end the delivery): durable across restarts. */
    dnsDeferrals: integer('dns_deferrals').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_order').on(t.orderId),
    index('webhook_deliveries_status').on(t.status),
    index('webhook_deliveries_partner_event').on(t.partnerId, t.eventId),
  ],
);

/**
 * Every request made for a delivery (partner GET /webhook-deliveries), written in the transaction that
 * records the attempt's outcome. `number` is the X-Webhook-Attempt sent: scheduled and manual requests
 * count together.
 */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    attemptId: integer('attempt_id').primaryKey({ autoIncrement: true }),
    webhookId: text('webhook_id').notNull(),
    number: integer('number').notNull(),
    manual: integer('manual', { mode: 'boolean' }).notNull(),
    /** When the request was sent (service clock; its X-Timestamp). */
    sentAt: integer('sent_at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    /** Real elapsed time of the exchange, null when no request was made (address refused, DNS failure). */
    durationMs: integer('duration_ms'),
  },
  (t) => [index('webhook_attempts_delivery').on(t.webhookId, t.attemptId)],
);

/** Hosts whose DNS answer pointed into a private network at delivery time (partner-api.md rule 8). */
export const blockedWebhookHosts = sqliteTable('blocked_webhook_hosts', {
  host: text('host').primaryKey(),
  reason: text('reason').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Durable jobs on the service clock. */
export const jobs = sqliteTable(
  'jobs',
  {
    jobId: integer('job_id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    ref: text('ref').notNull(),
    runAt: integer('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('jobs_run_at').on(t.runAt), uniqueIndex('jobs_kind_ref').on(t.kind, t.ref)],
);

/** Small key-value state: operator settings, the sandbox clock offset, sandbox market and faults. */
export const kv = sqliteTable('kv', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
  updatedAt: integer('updated_at').notNull(),
});

export const auditLog = sqliteTable('audit_log', {
  auditId: integer('audit_id').primaryKey({ autoIncrement: true }),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  target: text('target'),
  data: text('data', { mode: 'json' }),
  createdAt: integer('created_at').notNull(),
});

/** Sandbox supplier state that must survive a restart (when an account was first seen). */
export const sandboxAccounts = sqliteTable('sandbox_accounts', {
  username: text('username').primaryKey(),
  firstSeenAt: integer('first_seen_at').notNull(),
  premiumUntil: integer('premium_until'),
});

export const sandboxDns = sqliteTable('sandbox_dns', {
  hostname: text('hostname').primaryKey(),
  addresses: text('addresses', { mode: 'json' }).$type<string[]>().notNull(),
});
