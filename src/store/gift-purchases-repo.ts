import { eq } from 'drizzle-orm';
import type { Conn } from './db.js';
import { giftPurchases } from './schema.js';

/** SQL of gift purchases (src/store/schema/gifts.ts says what the states mean). */
export type GiftPurchaseRow = typeof giftPurchases.$inferSelect;
export type GiftPurchaseState = 'quoting' | 'paying' | 'paid' | 'unpaid' | 'review';

export function getGiftPurchase(conn: Conn, orderId: string): GiftPurchaseRow | undefined {
  return conn.select().from(giftPurchases).where(eq(giftPurchases.orderId, orderId)).get();
}

/** The purchase record of an order, created (state `quoting`, nothing paid) when it has none. */
export function openGiftPurchase(conn: Conn, row: { orderId: string; gift: string; capNano: bigint; now: number }): GiftPurchaseRow {
  conn
    .insert(giftPurchases)
    .values({ orderId: row.orderId, gift: row.gift, capNano: row.capNano.toString(), state: 'quoting', createdAt: row.now, updatedAt: row.now })
    .onConflictDoNothing()
    .run();
  return getGiftPurchase(conn, row.orderId)!;
}

export function updateGiftPurchase(conn: Conn, orderId: string, set: Partial<typeof giftPurchases.$inferInsert> & { state?: GiftPurchaseState }): void {
  conn.update(giftPurchases).set(set).where(eq(giftPurchases.orderId, orderId)).run();
}
