import { eq, or } from 'drizzle-orm';
import type { Conn } from './db.js';
import { topups } from './schema.js';

/** Credited top-ups: one row per credit, unique by tx_hash (the idempotency of crediting). */
export type TopupRow = typeof topups.$inferSelect;

export function topupByTxHash(conn: Conn, txHash: string): TopupRow | undefined {
  return conn.select().from(topups).where(eq(topups.txHash, txHash)).get();
}

/** A top-up credited under either hash (a deposit's network-qualified key or its bare transaction hash). */
export function topupByEitherHash(conn: Conn, a: string, b: string): TopupRow | undefined {
  return conn.select().from(topups).where(or(eq(topups.txHash, a), eq(topups.txHash, b))).get();
}

export function getTopup(conn: Conn, topupId: string): TopupRow | undefined {
  return conn.select().from(topups).where(eq(topups.topupId, topupId)).get();
}

export function insertTopup(conn: Conn, row: typeof topups.$inferInsert): void {
  conn.insert(topups).values(row).run();
}
