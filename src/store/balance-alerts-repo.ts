import { and, eq, sql } from 'drizzle-orm';
import type { Currency } from '../domain/money.js';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { balanceAlerts } from './schema.js';

export type BalanceAlertRow = typeof balanceAlerts.$inferSelect;

/** The threshold of one currency (read in every debit's transaction: prepared once). */
export function getBalanceAlert(conn: Conn, partnerId: number, currency: Currency): BalanceAlertRow | undefined {
  return prepared(conn, 'getBalanceAlert', () =>
    conn
      .select()
      .from(balanceAlerts)
      .where(and(eq(balanceAlerts.partnerId, sql.placeholder('p')), eq(balanceAlerts.currency, sql.placeholder('c'))))
      .prepare(),
  ).get({ p: partnerId, c: currency });
}

export function listBalanceAlerts(conn: Conn, partnerId: number): BalanceAlertRow[] {
  return conn.select().from(balanceAlerts).where(eq(balanceAlerts.partnerId, partnerId)).all();
}

/** Saves a threshold; a saved threshold starts afresh (not alerted). */
export function putBalanceAlert(conn: Conn, partnerId: number, currency: Currency, threshold: number, now: number): void {
  conn
    .insert(balanceAlerts)
    .values({ partnerId, currency, threshold, alerted: false, updatedAt: now })
    .onConflictDoUpdate({ target: [balanceAlerts.partnerId, balanceAlerts.currency], set: { threshold, alerted: false, updatedAt: now } })
    .run();
}

export function deleteBalanceAlert(conn: Conn, partnerId: number, currency: Currency): void {
  conn.delete(balanceAlerts).where(and(eq(balanceAlerts.partnerId, partnerId), eq(balanceAlerts.currency, currency))).run();
}

export function setAlerted(conn: Conn, partnerId: number, currency: Currency, alerted: boolean, now: number): void {
  prepared(conn, 'setAlerted', () =>
    conn
      .update(balanceAlerts)
      .set({ alerted: sql`${sql.placeholder('a')}` as unknown as boolean, updatedAt: sql`${sql.placeholder('now')}` as unknown as number })
      .where(and(eq(balanceAlerts.partnerId, sql.placeholder('p')), eq(balanceAlerts.currency, sql.placeholder('c'))))
      .prepare(),
  ).run({ a: alerted ? 1 : 0, now, p: partnerId, c: currency });
}
