import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Batches of the Fragment adapter (src/suppliers/fragment): one signed transfer of the hot wallet carrying
 * the payments of one or more orders (one message or more per order). The batch and every payment row in it
 * are written in one transaction with the signed message BEFORE it is sent, so a crash at any instant finds
 * them on restart and settles them by the on-chain lookup instead of paying again.
 *
 * state: `signed` (written, maybe sent) → `sent` (toncenter took it) → `executed` (the wallet's transaction
 * found on chain, successful: the money left; the receipts of its messages are being read) → `done` (every
 * payment of it paid or in review); `void` (provably never executed: expired with the wallet's seqno
 * unchanged), which frees its orders for a fresh batch; `review` (found but failed, or not settled within the
 * bound: its unsettled payments went to manual review).
 */
export const fragmentBatches = sqliteTable(
  'fragment_batches',
  {
    batchId: text('batch_id').primaryKey(),
    wallet: text('wallet').notNull(),
    seqno: integer('seqno').notNull(),
    validUntil: integer('valid_until').notNull(),
    /** normalised hash of the external message (TEP-467), hex: the key of the on-chain lookup */
    normHash: text('norm_hash').notNull(),
    boc: text('boc').notNull(),
    state: text('state').notNull(),
    /** payments (orders) and messages the transfer carries */
    orders: integer('orders').notNull(),
    messages: integer('messages').notNull(),
    amountNano: text('amount_nano').notNull(),
    txHash: text('tx_hash'),
    txLt: text('tx_lt'),
    /** the wallet transaction's time (unix seconds): the receipts' bound counts from it */
    txUtime: integer('tx_utime'),
    detail: text('detail'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('fragment_batches_norm_hash').on(t.normHash),
    // one batch in flight per wallet: its seqno is the one the chain expects, so a second would collide
    uniqueIndex('fragment_batches_in_flight').on(t.wallet).where(sql`state in ('signed', 'sent')`),
    // a seqno carries one live batch; only a batch proven never executed (void) frees it
    uniqueIndex('fragment_batches_live_seqno').on(t.wallet, t.seqno).where(sql`state <> 'void'`),
    // the wallet's highest used seqno (lastUsedSeqno) without reading every batch it ever sent
    index('fragment_batches_wallet_seqno').on(t.wallet, t.seqno),
    index('fragment_batches_state').on(t.wallet, t.state),
  ],
);

/**
 * Payments of the Fragment adapter, one per order: the order's part of a batch (its Fragment request, its
 * `Ref#`, its amount), written with the batch before the transfer is sent.
 *
 * state: `signed` / `sent` (its batch's) → `paid` (its messages found on chain and taken by Fragment's
 * address) or `review` (failed, bounced, or not settled within the bound); `void` (its batch provably never
 * executed), which lets the order start a fresh payment in a new batch.
 */
export const fragmentPayments = sqliteTable(
  'fragment_payments',
  {
    orderId: text('order_id').primaryKey(),
    batchId: text('batch_id').notNull(),
    product: text('product').notNull(),
    state: text('state').notNull(),
    wallet: text('wallet').notNull(),
    seqno: integer('seqno').notNull(),
    validUntil: integer('valid_until').notNull(),
    normHash: text('norm_hash').notNull(),
    amountNano: text('amount_nano').notNull(),
    reqId: text('req_id').notNull(),
    /** The `Ref#` of the payment's comment: Fragment's reference of the request, never paid for two orders. */
    ref: text('ref'),
    /** Fragment's confirm call for the sent message (`confirm_method`, `confirm_params`), null when it named none. */
    confirmMethod: text('confirm_method'),
    confirmParams: text('confirm_params', { mode: 'json' }).$type<Record<string, string>>(),
    /** When Fragment took the confirm call (advisory: the chain settles the payment). */
    confirmedAt: integer('confirmed_at'),
    /** the wallet transaction of its batch, once found */
    txHash: text('tx_hash'),
    txLt: text('tx_lt'),
    /** hashes of this order's own outgoing messages in that transaction (matched by its Ref#), for the receipts */
    outHashes: text('out_hashes', { mode: 'json' }).$type<string[]>(),
    detail: text('detail'),
    attempts: integer('attempts').notNull().default(1),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('fragment_payments_state').on(t.wallet, t.state),
    index('fragment_payments_batch').on(t.batchId),
    // a Fragment request (its Ref#) is paid for one order only, whatever the code above it does
    uniqueIndex('fragment_payments_ref').on(t.ref).where(sql`state <> 'void'`),
  ],
);

/**
 * The TON cost of an order, fixed at its first delivery step (right after it was accepted, at the cost its
 * price was made from). Every payment for the order is checked against it plus FRAGMENT_AMOUNT_TOLERANCE_PCT,
 * so a payment never exceeds what the order was priced for, however long the order waited.
 */
export const fragmentOrderCosts = sqliteTable('fragment_order_costs', {
  orderId: text('order_id').primaryKey(),
  costNano: text('cost_nano').notNull(),
  createdAt: integer('created_at').notNull(),
});
