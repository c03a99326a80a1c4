import { and, eq, sql } from 'drizzle-orm';
import type { ChainTx } from '../domain/tx-hash.js';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { topups } from './schema.js';

/**
 * Credited top-ups: one row per credit, unique by network and canonical transaction hash (the idempotency
 * of crediting; src/domain/tx-hash.ts). Rows are never changed (drizzle/0023_money_guards.sql).
 */
export type TopupRow = typeof topups.$inferSelect;

/** The top-up credited under the first of these spellings of one transaction (src/domain/tx-hash.ts txAliases). */
export function topupByTx(conn: Conn, spellings: ChainTx[]): TopupRow | undefined {
  const q = prepared(conn, 'topupByTx', () =>
    conn
      .select()
      .from(topups)
      .where(and(eq(topups.network, sql.placeholder('n')), eq(topups.txHash, sql.placeholder('h'))))
      .prepare(),
  );
  for (const s of spellings) {
    const row = q.get({ n: s.network, h: s.txHash });
    if (row) return row;
  }
  return undefined;
}

export function getTopup(conn: Conn, topupId: string): TopupRow | undefined {
  return conn.select().from(topups).where(eq(topups.topupId, topupId)).get();
}

export function insertTopup(conn: Conn, row: typeof topups.$inferInsert): void {
  conn.insert(topups).values(row).run();
}
