import { and, eq, gt, gte, lt, sql } from 'drizzle-orm';
import type { StatsBucket } from '../domain/stats.js';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { orders, orderStatsHourly } from './schema.js';

const range = { p: sql.placeholder('p'), from: sql.placeholder('from'), end: sql.placeholder('end') };

const hourDay = sql<number>`${orderStatsHourly.hour} / 24`;

/** The figures of order_stats_hourly summed per type, current status and currency (partner stats and the operator's console). */
export const hourlyFigures = {
  type: orderStatsHourly.type,
  status: orderStatsHourly.status,
  currency: orderStatsHourly.currency,
  orders: sql<number>`sum(${orderStatsHourly.orders})`,
  amount: sql<number>`sum(${orderStatsHourly.amount})`,
};

/**
 * The figures of whole hours [fromHour, endHour) from order_stats_hourly (kept by triggers on `orders`,
 * see schema/orders.ts), summed per UTC day: a few rows per hour over its primary key, whatever the order volume.
 */
export function statsOfHours(conn: Conn, partnerId: number, fromHour: number, endHour: number): StatsBucket[] {
  const q = prepared(conn, 'statsOfHours', () =>
    conn
      .select({
        day: hourDay,
        ...hourlyFigures,
        refunded: orderStatsHourly.refunded,
      })
      .from(orderStatsHourly)
      .where(and(eq(orderStatsHourly.partnerId, range.p), gte(orderStatsHourly.hour, range.from), lt(orderStatsHourly.hour, range.end), gt(orderStatsHourly.orders, 0)))
      .groupBy(hourDay, orderStatsHourly.type, orderStatsHourly.status, orderStatsHourly.currency, orderStatsHourly.refunded)
      .prepare(),
  );
  return q.all({ p: partnerId, from: fromHour, end: endHour });
}

const dayOf = sql<number>`${orders.createdAt} / 86400000`;

/** The same figures counted from the orders created in [from, end) ms: the partial hours at a range's edges (index orders_partner_created). */
export function statsOfSpan(conn: Conn, partnerId: number, from: number, end: number): StatsBucket[] {
  const q = prepared(conn, 'statsOfSpan', () =>
    conn
      .select({
        day: dayOf,
        type: orders.type,
        status: orders.status,
        currency: orders.currency,
        refunded: orders.refunded,
        orders: sql<number>`count(*)`,
        amount: sql<number>`sum(${orders.amount})`,
      })
      .from(orders)
      .where(and(eq(orders.partnerId, range.p), gte(orders.createdAt, range.from), lt(orders.createdAt, range.end)))
      .groupBy(dayOf, orders.type, orders.status, orders.currency, orders.refunded)
      .prepare(),
  );
  return q.all({ p: partnerId, from, end });
}

/** Buckets of order_stats_hourly that differ from a count of the orders themselves ([] when the triggers kept up). */
export function statsDrift(conn: Conn): { partner_id: number; hour: number; type: string; status: string; kept: number; counted: number }[] {
  return conn.all(sql`
    with counted as (
      select partner_id, created_at / 3600000 as hour, type, status, currency, refunded, count(*) as n, sum(amount) as a from orders group by 1, 2, 3, 4, 5, 6
    )
    select s.partner_id, s.hour, s.type, s.status, s.orders as kept, coalesce(c.n, 0) as counted from order_stats_hourly s
      left join counted c using (partner_id, hour, type, status, currency, refunded)
      where s.orders != coalesce(c.n, 0) or s.amount != coalesce(c.a, 0)
    union all
    select c.partner_id, c.hour, c.type, c.status, 0, c.n from counted c
      where not exists (select 1 from order_stats_hourly s where s.partner_id = c.partner_id and s.hour = c.hour and s.type = c.type
        and s.status = c.status and s.currency = c.currency and s.refunded = c.refunded)`);
}
