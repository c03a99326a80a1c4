import { eq } from 'drizzle-orm';
import type { Conn } from './db.js';
import { giftHolds } from './schema.js';

/** One unfinished NFT order per gift, across all partners (src/app/orders/kinds/nft.ts takes and releases). */

export function isGiftHeld(conn: Conn, gift: string): boolean {
  return !!conn.select({ gift: giftHolds.gift }).from(giftHolds).where(eq(giftHolds.gift, gift)).get();
}

export function holdGift(conn: Conn, gift: string, orderId: string, now: number): void {
  conn.insert(giftHolds).values({ gift, orderId, createdAt: now }).run();
}

export function releaseGiftOf(conn: Conn, orderId: string): void {
  conn.delete(giftHolds).where(eq(giftHolds.orderId, orderId)).run();
}
