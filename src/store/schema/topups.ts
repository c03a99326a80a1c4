import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { partners } from './partners.js';
import { CURRENCIES, DEPOSIT_STATUSES, TOPUP_REQUEST_STATUSES } from '../../domain/enums.js';

/**
 * Top-ups: the credited ones (manual or automatic, one per transaction hash), exact-amount requests, chain
 * deposits seen by the watchers (or reported in the sandbox) and the watchers' positions. Times are
 * service-clock milliseconds; minor units are cents (USD) and milli-TON (TON).
 */

export const topups = sqliteTable(
  'topups',
  {
    topupId: text('topup_id').primaryKey(),
    partnerId: integer('partner_id').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: integer('amount').notNull(),
    network: text('network').notNull(),
    /** The transaction hash in its network's canonical form (src/domain/tx-hash.ts). */
    txHash: text('tx_hash').notNull(),
    source: text('source').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  // one credit per chain transaction: the hash in its network's canonical form (src/domain/tx-hash.ts)
  (t) => [uniqueIndex('topups_network_tx').on(t.network, t.txHash)],
);

export const topupRequests = sqliteTable(
  'topup_requests',
  {
    requestId: text('request_id').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.partnerId),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    /** The amount asked for, minor units. */
    amount: integer('amount').notNull(),
    /** The exact amount to send, minor units: unique among the open requests of the currency. */
    amountToSend: integer('amount_to_send').notNull(),
    /** TON requests only: the code that may be put in the transfer comment. */
    commentCode: text('comment_code'),
    /**
     * `open` until credited or canceled; `expired` is written lazily (an open request past expires_at is
     * expired too). A request that ended unpaid keeps its amount out of new requests for 30 days.
     */
    status: text('status', { enum: TOPUP_REQUEST_STATUSES }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    creditedDepositId: text('credited_deposit_id'),
    /** When the owner or an operator canceled it (it ended unpaid then, not at expires_at). */
    canceledAt: integer('canceled_at'),
  },
  (t) => [
    index('topup_requests_open').on(t.currency, t.status, t.amountToSend),
    index('topup_requests_partner').on(t.partnerId),
    uniqueIndex('topup_requests_comment_code').on(t.commentCode),
  ],
);

export const deposits = sqliteTable(
  'deposits',
  {
    depositId: text('deposit_id').primaryKey(),
    network: text('network').notNull(),
    /** Symbol as seen: `USDT`, `TON`, or anything else (recorded and ignored). */
    asset: text('asset').notNull(),
    /** Exact decimal string of the amount received, every digit kept. */
    amount: text('amount').notNull(),
    /** The balance this asset would fund (null for other tokens). */
    currency: text('currency', { enum: CURRENCIES }),
    /** Minor units of `currency` when the amount is a whole number of them, else null. */
    amountMinor: integer('amount_minor'),
    /** The transaction hash in its network's canonical form (src/domain/tx-hash.ts). */
    txHash: text('tx_hash').notNull(),
    fromAddress: text('from_address'),
    toAddress: text('to_address').notNull(),
    comment: text('comment'),
    confirmations: integer('confirmations').notNull(),
    /**
     * When the transfer was made by the chain's clock (its block time, ms), when the watcher knows it: a
     * transfer made before its request expired is credited even when it is seen or confirmed after.
     */
    chainTime: integer('chain_time'),
    status: text('status', { enum: DEPOSIT_STATUSES }).notNull(),
    /** Why an unmatched deposit was not credited (src/domain/deposit-matching.ts). */
    reason: text('reason'),
    partnerId: integer('partner_id'),
    topupId: text('topup_id'),
    requestId: text('request_id'),
    note: text('note'),
    /** `watcher` or `sandbox`. */
    source: text('source').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    resolvedAt: integer('resolved_at'),
  },
  (t) => [uniqueIndex('deposits_network_tx').on(t.network, t.txHash), index('deposits_status').on(t.status, t.createdAt)],
);

/** Where each chain watcher has read up to (an opaque JSON text of the watcher). */
export const watcherPositions = sqliteTable('watcher_positions', {
  network: text('network').primaryKey(),
  position: text('position').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
