import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * NFT gift orders. `gift_holds` is the one-unfinished-order-per-gift rule: a row per gift with an unfinished
 * order, inserted in the creating transaction and removed when the order ends.
 */
export const giftHolds = sqliteTable('gift_holds', {
  gift: text('gift').primaryKey(),
  orderId: text('order_id').notNull(),
  createdAt: integer('created_at').notNull(),
});

/**
 * Gift purchases (src/app/orders/gift-purchase.ts), one per nft order, written by the application for every
 * gift supplier. The row is committed before any paid call, and moves to `paying` in its own committed
 * transaction right before the paid call: a crash, a timeout or an unknown answer then finds it in `paying`
 * and reconciles instead of paying again.
 *
 * state: `quoting` (nothing paid; the form is read and checked) → `paying` (the paid call may have gone) →
 * `paid` (receipt) | `unpaid` (definite: nothing paid) | `review` (no definite answer: manual review).
 */
export const giftPurchases = sqliteTable('gift_purchases', {
  orderId: text('order_id').primaryKey(),
  gift: text('gift').notNull(),
  /** the most this order may pay, in nanoTON: the listing price the order fixed */
  capNano: text('cap_nano').notNull(),
  state: text('state').notNull(),
  /** the form being paid (`ref`, `currency`, `amount`), set when the row moves to `paying` */
  formRef: text('form_ref'),
  formCurrency: text('form_currency'),
  formAmount: text('form_amount'),
  receipt: text('receipt'),
  detail: text('detail'),
  /** paid calls made for this order (a definite `unpaid` answer allows another) */
  attempts: integer('attempts').notNull().default(0),
  /** paid calls that got no definite answer (a crash, a timeout, an unknown answer), reconciled since */
  unanswered: integer('unanswered').notNull().default(0),
  payingSince: integer('paying_since'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
