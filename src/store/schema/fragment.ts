import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Payments of the Fragment adapter (src/suppliers/fragment), one per order. The row is written with the
 * signed message BEFORE it is sent, so a crash between sending and confirming finds it on restart and
 * settles it by the on-chain lookup instead of paying again.
 *
 * state: `signed` (written, maybe sent) → `sent` (toncenter took it) → `paid` (found on chain, success)
 * or `review` (found but failed, or not settled within the bound); `void` (provably never executed:
 * expired with the wallet's seqno unchanged), which lets the order start a fresh payment.
 */
export const fragmentPayments = sqliteTable(
  'fragment_payments',
  {
    orderId: text('order_id').primaryKey(),
    product: text('product').notNull(),
    state: text('state').notNull(),
    wallet: text('wallet').notNull(),
    seqno: integer('seqno').notNull(),
    validUntil: integer('valid_until').notNull(),
    normHash: text('norm_hash').notNull(),
    boc: text('boc').notNull(),
    amountNano: text('amount_nano').notNull(),
    reqId: text('req_id').notNull(),
    /** The `Ref#` of the payment's comment: Fragment's reference of the request, never paid for two orders. */
    ref: text('ref'),
    /** Fragment's confirm call for the sent message (`confirm_method`, `confirm_params`), null when it named none. */
    confirmMethod: text('confirm_method'),
    confirmParams: text('confirm_params', { mode: 'json' }).$type<Record<string, string>>(),
    /** When Fragment took the confirm call (advisory: the chain settles the payment). */
    confirmedAt: integer('confirmed_at'),
    txHash: text('tx_hash'),
    txLt: text('tx_lt'),
    detail: text('detail'),
    attempts: integer('attempts').notNull().default(1),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('fragment_payments_state').on(t.wallet, t.state),
    // the wallet's highest used seqno (lastUsedSeqno) without reading every payment it ever made
    index('fragment_payments_wallet_seqno').on(t.wallet, t.seqno),
    index('fragment_payments_ref').on(t.ref),
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
