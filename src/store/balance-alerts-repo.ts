import { and, eq, sql } from 'drizzle-orm';
import type { Currency } from '../domain/money.js';
import { CommittedCache } from './committed-cache.js';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { balanceAlerts } from './schema.js';

export type BalanceAlertRow = typeof balanceAlerts.$inferSelect;

/**
 * The thresholds as committed, by partner and currency (null: none set): read in every debit's transaction,
 * so kept in memory (src/store/committed-cache.ts; a read in the debit's transaction is staged and kept once
 * it commits) and dropped by each write below.
 */
const committedAlerts = new CommittedCache<string, Readonly<BalanceAlertRow> | null>(10_000);
const alertKey = (partnerId: number, currency: Currency) => `${partnerId}\u0000${currency}`;

/** The threshold of one currency. */
export function getBalanceAlert(conn: Conn, partnerId: number, currency: Currency): Readonly<BalanceAlertRow> | undefined {
  const row = committedAlerts.read(
    conn,
    alertKey(partnerId, currency),
    () => {
      const r = prepared(conn, 'getBalanceAlert', () =>
        conn
          .select()
          .from(balanceAlerts)
          .where(and(eq(balanceAlerts.partnerId, sql.placeholder('p')), eq(balanceAlerts.currency, sql.placeholder('c'))))
          .prepare(),
      ).get({ p: partnerId, c: currency });
      return r ? Object.freeze(r) : null;
    },
    { stage: true },
  );
  return row ?? undefined;
}

export function listBalanceAlerts(conn: Conn, partnerId: number): BalanceAlertRow[] {
  return conn.select().from(balanceAlerts).where(eq(balanceAlerts.partnerId, partnerId)).all();
}

/** Saves a threshold; a saved threshold starts afresh (not alerted). */
export function putBalanceAlert(conn: Conn, partnerId: number, currency: Currency, threshold: number, now: number): void {
  committedAlerts.drop(conn, alertKey(partnerId, currency));
  conn
    .insert(balanceAlerts)
    .values({ partnerId, currency, threshold, alerted: false, updatedAt: now })
    .onConflictDoUpdate({ target: [balanceAlerts.partnerId, balanceAlerts.currency], set: { threshold, alerted: false, updatedAt: now } })
    .run();
}

export function deleteBalanceAlert(conn: Conn, partnerId: number, currency: Currency): void {
  committedAlerts.drop(conn, alertKey(partnerId, currency));
  conn.delete(balanceAlerts).where(and(eq(balanceAlerts.partnerId, partnerId), eq(balanceAlerts.currency, currency))).run();
}

export function setAlerted(conn: Conn, partnerId: number, currency: Currency, alerted: boolean, now: number): void {
  committedAlerts.drop(conn, alertKey(partnerId, currency));
  prepared(conn, 'setAlerted', () =>
    conn
      .update(balanceAlerts)
      .set({ alerted: sql`${sql.placeholder('a')}` as unknown as boolean, updatedAt: sql`${sql.placeholder('now')}` as unknown as number })
      .where(and(eq(balanceAlerts.partnerId, sql.placeholder('p')), eq(balanceAlerts.currency, sql.placeholder('c'))))
      .prepare(),
  ).run({ a: alerted ? 1 : 0, now, p: partnerId, c: currency });
}
