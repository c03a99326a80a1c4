import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CURRENCIES, ORDER_TYPES, ORDER_STATUSES } from '../../domain/enums.js';

/** Orders, their hourly statistics and the idempotency keys of POST /orders. */

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
 * GET /stats: the orders of each partner counted and summed per hour of creation
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
