import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Conn } from './db.js';
import { accounts, deposits, orderStatsHourly, orders, partners, webhookDeliveries } from './schema.js';
import { hourlyFigures } from './stats-repo.js';

/** Reads of the operator's console (the Mini App's /operator routes): whole-service figures. */

/** Every partner balance summed per currency (minor units): what the service owes its partners. */
export function totalBalances(conn: Conn): { currency: string; total: number }[] {
  return conn
    .select({ currency: accounts.currency, total: sql<number>`coalesce(sum(${accounts.balance}), 0)` })
    .from(accounts)
    .groupBy(accounts.currency)
    .all();
}

/** Orders per hour of creation, type, current status and currency from `fromHour` on (order_stats_hourly: a few rows per hour). */
export function ordersByHour(conn: Conn, fromHour: number) {
  return conn
    .select({
      hour: orderStatsHourly.hour,
      ...hourlyFigures,
    })
    .from(orderStatsHourly)
    .where(and(gte(orderStatsHourly.hour, fromHour), sql`${orderStatsHourly.orders} > 0`))
    .groupBy(orderStatsHourly.hour, orderStatsHourly.type, orderStatsHourly.status, orderStatsHourly.currency)
    .all();
}

/**
 * Partner price less supplier cost of the orders completed since `since` ms, per currency (minor units), and
 * how many completed orders had no stored cost (made before costs were stored): index orders_completed_at.
 */
export function completedMarginSince(conn: Conn, since: number): { currency: string; margin: number; orders: number; unknown: number }[] {
  return conn
    .select({
      currency: orders.currency,
      margin: sql<number>`coalesce(sum(${orders.amount} - ${orders.supplierCost}), 0)`,
      orders: sql<number>`count(${orders.supplierCost})`,
      unknown: sql<number>`sum(${orders.supplierCost} is null)`,
    })
    .from(orders)
    .where(and(sql`${orders.completedAt} is not null`, gte(orders.completedAt, since), eq(orders.status, 'completed')))
    .groupBy(orders.currency)
    .all();
}

/** Webhook deliveries that gave up (status failed) since `since` ms (index webhook_deliveries_status). */
export function countGaveUpSince(conn: Conn, since: number): number {
  return conn.select({ n: count() }).from(webhookDeliveries).where(and(eq(webhookDeliveries.status, 'failed'), gte(webhookDeliveries.updatedAt, since))).get()?.n ?? 0;
}

export function countDepositsWithStatus(conn: Conn, status: 'unmatched'): number {
  return conn.select({ n: count() }).from(deposits).where(eq(deposits.status, status)).get()?.n ?? 0;
}

export function countInReview(conn: Conn): number {
  return conn.select({ n: count() }).from(orders).where(sql`${orders.reviewStage} is not null`).get()?.n ?? 0;
}

/**
 * Partners newest first, with both balances; `needle` filters by name (case-insensitively in any script,
 * the `casefold` function of src/store/db.ts) or matches the id; `beforeId` pages.
 */
export function partnersPage(conn: Conn, needle: string | undefined, beforeId: number | undefined, limit: number) {
  const conds = [];
  if (beforeId !== undefined) conds.push(lt(partners.partnerId, beforeId));
  if (needle) {
    const folded = needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    const byId = /^\d{1,15}$/.test(needle) ? sql` or ${partners.partnerId} = ${Number(needle)}` : sql``;
    conds.push(sql`(casefold(${partners.name}) like ${`%${folded}%`} escape '\\'${byId})`);
  }
  // the outer row's id spelled out: inside the subquery a bare partner_id would be the account's own
  const usd = sql<number>`(select a.balance from accounts a where a.partner_id = "partners"."partner_id" and a.currency = 'USD')`;
  const ton = sql<number>`(select a.balance from accounts a where a.partner_id = "partners"."partner_id" and a.currency = 'TON')`;
  return conn
    .select({ partnerId: partners.partnerId, name: partners.name, status: partners.status, createdAt: partners.createdAt, usd, ton })
    .from(partners)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(partners.partnerId))
    .limit(limit)
    .all();
}
