import { and, desc, eq, gte, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { idempotencyKeys, orders } from './schema.js';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type IdemRow = typeof idempotencyKeys.$inferSelect;

export function nextOrderSeq(conn: Conn): number {
  const row = prepared(conn, 'maxSeq', () => conn.select({ max: sql<number | null>`max(${orders.seq})` }).from(orders).prepare()).get();
  return (row?.max ?? 0) + 1;
}

const ORDER_COLUMNS = Object.keys(orders) as (keyof typeof orders.$inferInsert)[];

export function insertOrder(conn: Conn, row: NewOrder): OrderRow {
  const q = prepared(conn, 'insertOrder', () => {
    const values: Record<string, unknown> = {};
    for (const c of ORDER_COLUMNS) values[c] = sql.placeholder(c);
    return conn.insert(orders).values(values as NewOrder).returning().prepare();
  });
  const params: Record<string, unknown> = {};
  for (const c of ORDER_COLUMNS) params[c] = row[c] ?? null;
  return q.get(params)!;
}

export function getOrder(conn: Conn, orderId: string): OrderRow | undefined {
  return prepared(conn, 'getOrder', () => conn.select().from(orders).where(eq(orders.orderId, sql.placeholder('id'))).prepare()).get({ id: orderId });
}

export function updateOrder(conn: Conn, orderId: string, set: Partial<NewOrder>): OrderRow {
  return conn.update(orders).set(set).where(eq(orders.orderId, orderId)).returning().get();
}

export interface OrderFilter {
  partnerId: number;
  status?: string;
  type?: string;
  from?: number;
  to?: number;
  /** keyset: orders with seq below this one (newest first) */
  beforeSeq?: number;
  limit: number;
}

/** Newest first, keyset-paged on seq (index orders_partner_*_seq). */
export function listOrders(conn: Conn, f: OrderFilter): OrderRow[] {
  const conds = [eq(orders.partnerId, f.partnerId)];
  if (f.status) conds.push(eq(orders.status, f.status as OrderRow['status']));
  if (f.type) conds.push(eq(orders.type, f.type as OrderRow['type']));
  if (f.from !== undefined) conds.push(gte(orders.createdAt, f.from));
  if (f.to !== undefined) conds.push(lte(orders.createdAt, f.to));
  if (f.beforeSeq !== undefined) conds.push(lt(orders.seq, f.beforeSeq));
  return conn
    .select()
    .from(orders)
    .where(and(...conds))
    .orderBy(desc(orders.seq))
    .limit(f.limit)
    .all();
}

export function ordersInReview(conn: Conn): OrderRow[] {
  return conn.select().from(orders).where(isNotNull(orders.reviewStage)).orderBy(orders.seq).all();
}

/** An unfinished Premium order for an account (partner-api.md States rule 1). */
export function openPremiumFor(conn: Conn, account: string): OrderRow | undefined {
  return prepared(conn, 'openPremiumFor', () =>
    conn
      .select()
      .from(orders)
      .where(and(eq(orders.account, sql.placeholder('a')), eq(orders.type, 'premium'), eq(orders.status, 'processing')))
      .prepare(),
  ).get({ a: account });
}

export function processingOrderIds(conn: Conn): string[] {
  return conn
    .select({ id: orders.orderId })
    .from(orders)
    .where(inArray(orders.status, ['processing']))
    .all()
    .map((r) => r.id);
}

// --- idempotency keys -------------------------------------------------------------------------

const idemKey = and(eq(idempotencyKeys.partnerId, sql.placeholder('p')), eq(idempotencyKeys.key, sql.placeholder('k')));

export function getIdem(conn: Conn, partnerId: number, key: string): IdemRow | undefined {
  return prepared(conn, 'getIdem', () => conn.select().from(idempotencyKeys).where(idemKey).prepare()).get({ p: partnerId, k: key });
}

/** Binds a key to its order, in the order's creating transaction (the primary key refuses a second binding). */
export function insertBoundIdem(conn: Conn, partnerId: number, key: string, fingerprint: string, orderId: string, now: number): void {
  prepared(conn, 'insertBoundIdem', () =>
    conn
      .insert(idempotencyKeys)
      .values({ partnerId: sql.placeholder('p'), key: sql.placeholder('k'), fingerprint: sql.placeholder('f'), state: 'bound', orderId: sql.placeholder('o'), createdAt: sql.placeholder('t') })
      .prepare(),
  ).run({ p: partnerId, k: key, f: fingerprint, o: orderId, t: now });
}
