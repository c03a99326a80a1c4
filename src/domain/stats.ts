/**
 * GET /stats: the arithmetic of a partner's order statistics, with no I/O. Orders are counted
 * by the UTC day of their `created_at`, and by their status now; a refund counts with its order.
 */
import { CURRENCIES, ORDER_STATUSES, ORDER_TYPES, type Currency, type OrderStatus, type OrderType } from './enums.js';
import { formatAmount } from './money.js';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
/** The longest range one request may cover. */
export const STATS_MAX_DAYS = 366;
/** The range when `from` is not given: this many days before `to`. */
export const STATS_DEFAULT_DAYS = 30;

/** Orders of one partner alike in day, type, status, currency and refunded flag: how many, and their partner prices. */
export interface StatsBucket {
  /** UTC day number: created_at / DAY_MS, rounded down. */
  day: number;
  type: OrderType;
  status: OrderStatus;
  currency: Currency;
  refunded: boolean;
  orders: number;
  /** Minor units. */
  amount: number;
}

/**
 * Splits the inclusive millisecond range [from, to] into the whole hours it covers, [firstHour, endHour),
 * read from the hourly figures, and the partial hours at its edges, half-open millisecond spans read from
 * the orders themselves.
 */
export function splitRange(from: number, to: number): { hours: [number, number] | null; spans: [number, number][] } {
  const end = to + 1;
  const firstHour = Math.ceil(from / HOUR_MS);
  const endHour = Math.floor(end / HOUR_MS);
  if (firstHour >= endHour) return { hours: null, spans: [[from, end]] };
  const spans: [number, number][] = [];
  if (from < firstHour * HOUR_MS) spans.push([from, firstHour * HOUR_MS]);
  if (endHour * HOUR_MS < end) spans.push([endHour * HOUR_MS, end]);
  return { hours: [firstHour, endHour], spans };
}

/** `YYYY-MM-DD` of a UTC day number. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export interface StatsItem {
  day: string | null;
  type: OrderType;
  status: OrderStatus;
  currency: Currency;
  count: number;
  spend: string;
  refunded_count: number;
  refunded_amount: string;
  net_spend: string;
}

/** The figures of every item of one currency together. */
export type StatsTotal = Omit<StatsItem, 'day' | 'type' | 'status'>;

interface Sum {
  count: number;
  spend: number;
  refundedCount: number;
  refunded: number;
}

const add = (s: Sum, b: StatsBucket) => {
  s.count += b.orders;
  s.spend += b.amount;
  if (b.refunded) {
    s.refundedCount += b.orders;
    s.refunded += b.amount;
  }
};

const money = (s: Sum, currency: Currency) => ({
  count: s.count,
  spend: formatAmount(s.spend, currency),
  refunded_count: s.refundedCount,
  refunded_amount: formatAmount(s.refunded, currency),
  net_spend: formatAmount(s.spend - s.refunded, currency),
});

/**
 * The items (per type, status and currency, and per day when `byDay`; only those with orders; in day,
 * type and status order) and the totals per currency (both currencies, zeros included).
 */
export function summarise(buckets: readonly StatsBucket[], byDay: boolean): { items: StatsItem[]; totals: StatsTotal[] } {
  const groups = new Map<string, { day: number | null; type: OrderType; status: OrderStatus; currency: Currency; sum: Sum }>();
  const totals = new Map<Currency, Sum>(CURRENCIES.map((c) => [c, { count: 0, spend: 0, refundedCount: 0, refunded: 0 }]));
  for (const b of buckets) {
    if (b.orders === 0) continue;
    const day = byDay ? b.day : null;
    const key = `${day}|${b.type}|${b.status}|${b.currency}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { day, type: b.type, status: b.status, currency: b.currency, sum: { count: 0, spend: 0, refundedCount: 0, refunded: 0 } }));
    add(g.sum, b);
    add(totals.get(b.currency)!, b);
  }
  const rank = (xs: readonly string[], x: string) => xs.indexOf(x);
  const items = [...groups.values()]
    .sort((a, b) => (a.day ?? 0) - (b.day ?? 0) || rank(ORDER_TYPES, a.type) - rank(ORDER_TYPES, b.type) || rank(ORDER_STATUSES, a.status) - rank(ORDER_STATUSES, b.status) || rank(CURRENCIES, a.currency) - rank(CURRENCIES, b.currency))
    .map((g) => ({ day: g.day === null ? null : dayText(g.day), type: g.type, status: g.status, currency: g.currency, ...money(g.sum, g.currency) }));
  return { items, totals: CURRENCIES.map((c) => ({ currency: c, ...money(totals.get(c)!, c) })) };
}
