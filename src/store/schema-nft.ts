import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * NFT gifts. `gift_holds` is the one-unfinished-order-per-gift rule: a row per gift with an unfinished
 * order, inserted in the creating transaction and removed when the order ends.
 */
export const giftHolds = sqliteTable('gift_holds', {
  gift: text('gift').primaryKey(),
  orderId: text('order_id').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Sandbox gift market: changes to the seeded listings (PUT /sandbox/gifts/{gift}) and sales. */
export const sandboxGifts = sqliteTable('sandbox_gifts', {
  gift: text('gift').primaryKey(),
  priceMilli: integer('price_milli'),
  available: integer('available', { mode: 'boolean' }),
  reserved: integer('reserved', { mode: 'boolean' }),
  outcome: text('outcome'),
  updatedAt: integer('updated_at').notNull(),
});
