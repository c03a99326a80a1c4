import { and, desc, eq, gte, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Conn } from './db.js';
import { CommittedCache } from './committed-cache.js';
import { prepared } from './prepared.js';
import { idempotencyKeys, orders } from './schema.js';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type IdemRow = typeof idempotencyKeys.$inferSelect;

/**
 * The highest order sequence number, read once and then kept as each insertOrder writes the next one
 * (staged in the transaction: a rollback forgets it, so a refused order leaves no gap in the numbers).
 */
const highestSeq = new CommittedCache<'max', number>(1);

export function nextOrderSeq(conn: Conn): number {
  const max = highestSeq.read(
    conn,
    'max',
    () => prepared(conn, 'maxSeq', () => conn.select({ max: sql<number | null>`max(${orders.seq})` }).from(orders).prepare()).get()?.max ?? 0,
    { stage: true },
  )!;
  return max + 1;
}

const ORDER_COLUMNS = Object.keys(orders) as (keyof typeof orders.$inferInsert)[];

/**
 * Placeholders for the given columns, with SQL NULL written literally: drizzle encodes a placeholder's
 * value with the column's mapper, which would store a JSON column's null as the text 'null'. The cache key
 * of the prepared statement therefore names the null columns too.
 */
function placeholders(cols: (keyof NewOrder)[], row: Partial<NewOrder>) {
  const values: Record<string, unknown> = {};
  const params: Record<string, unknown> = {};
  const key: string[] = [];
  for (const c of cols) {
    const v = row[c];
    if (v === null || v === undefined) {
      values[c] = sql`null`;
      key.push(`${c}=null`);
    } else {
      values[c] = sql.placeholder(c);
      params[c] = v;
      key.push(c);
    }
  }
  return { values, params, key: key.join(',') };
}

/** Inserts a whole order row (every column given) and returns it as stored, without reading it back. */
export function insertOrder(conn: Conn, row: NewOrder): OrderRow {
  const p = placeholders(ORDER_COLUMNS, row);
  prepared(conn, `insertOrder:${p.key}`, () => conn.insert(orders).values(p.values as NewOrder).prepare()).run(p.params);
  const stored: Record<string, unknown> = {};
  for (const c of ORDER_COLUMNS) stored[c] = row[c] ?? null;
  // the next number follows this one (staged: a rollback forgets it)
  const known = highestSeq.peek(conn, 'max');
  if (row.seq === undefined) highestSeq.drop(conn, 'max');
  else if (known !== undefined) highestSeq.stage(conn, 'max', Math.max(known, row.seq));
  return stored as OrderRow;
}

/**
 * An order as committed: partners poll their orders, and the delivery job reads its order before the
 * supplier call and again in the outcome's transaction. Served from memory until updateOrder changes it
 * (src/store/committed-cache.ts); inside a transaction a hit is still the current row, since every write
 * drops the entry first. Frozen: the row is shared.
 */
const committedOrders = new CommittedCache<string, Readonly<OrderRow>>(5_000);

export function getOrder(conn: Conn, orderId: string): Readonly<OrderRow> | undefined {
  return committedOrders.read(conn, orderId, () => {
    const row = prepared(conn, 'getOrder', () => conn.select().from(orders).where(eq(orders.orderId, sql.placeholder('id'))).prepare()).get({ id: orderId });
    return row && Object.freeze(row);
  });
}

/** The order with this sequence number (its short number, src/domain/order-number.ts). */
export function getOrderBySeq(conn: Conn, seq: number): Readonly<OrderRow> | undefined {
  return prepared(conn, 'getOrderBySeq', () => conn.select().from(orders).where(eq(orders.seq, sql.placeholder('seq'))).prepare()).get({ seq });
}

/** Updates the given columns; one prepared statement per set of columns (transitions use a handful). */
export function updateOrder(conn: Conn, orderId: string, set: Partial<NewOrder>): OrderRow {
  committedOrders.drop(conn, orderId);
  const cols = (Object.keys(set) as (keyof NewOrder)[]).filter((c) => set[c] !== undefined).sort();
  const p = placeholders(cols, set);
  const q = prepared(conn, `updateOrder:${p.key}`, () =>
    conn.update(orders).set(p.values as Partial<NewOrder>).where(eq(orders.orderId, sql.placeholder('__orderId'))).returning().prepare(),
  );
  return q.get({ ...p.params, __orderId: orderId })!;
}

export interface OrderFilter {
  partnerId: number;
  status?: string;
  type?: string;
  clientReference?: string;
  from?: number;
  to?: number;
  /** keyset: orders with seq below this one (newest first) */
  beforeSeq?: number;
  limit: number;
}

/**
 * Newest first, keyset-paged on seq (indexes orders_partner_*_seq): the ids of a page, read with one
 * prepared statement per combination of filters; the rows come from getOrder.
 */
export function listOrderIds(conn: Conn, f: OrderFilter): { seq: number; orderId: string }[] {
  const used = (['status', 'type', 'clientReference', 'from', 'to', 'beforeSeq'] as const).filter((k) => f[k] !== undefined);
  const q = prepared(conn, `listOrderIds:${used.join(',')}`, () => {
    const conds = [eq(orders.partnerId, sql.placeholder('partnerId'))];
    if (f.status !== undefined) conds.push(eq(orders.status, sql.placeholder('status')));
    if (f.type !== undefined) conds.push(eq(orders.type, sql.placeholder('type')));
    // `is not null` lets SQLite use the partial index orders_partner_ref_seq
    if (f.clientReference !== undefined) conds.push(eq(orders.clientReference, sql.placeholder('clientReference')), isNotNull(orders.clientReference));
    if (f.from !== undefined) conds.push(gte(orders.createdAt, sql.placeholder('from')));
    if (f.to !== undefined) conds.push(lte(orders.createdAt, sql.placeholder('to')));
    if (f.beforeSeq !== undefined) conds.push(lt(orders.seq, sql.placeholder('beforeSeq')));
    return conn
      .select({ seq: orders.seq, orderId: orders.orderId })
      .from(orders)
      .where(and(...conds))
      .orderBy(desc(orders.seq))
      .limit(sql.placeholder('limit'))
      .prepare();
  });
  const params: Record<string, unknown> = { partnerId: f.partnerId, limit: f.limit };
  for (const k of used) params[k] = f[k];
  return q.all(params);
}

/** How many orders a partner has (the bot's "page 1 of N"). */
export function countPartnerOrders(conn: Conn, partnerId: number): number {
  return conn.select({ n: sql<number>`count(*)` }).from(orders).where(eq(orders.partnerId, partnerId)).get()?.n ?? 0;
}

export function ordersInReview(conn: Conn): OrderRow[] {
  // `+seq`: sort the few rows found through the partial index orders_in_review rather than scan every order by seq
  return conn.select().from(orders).where(isNotNull(orders.reviewStage)).orderBy(sql`+${orders.seq}`).all();
}

/** An unfinished Premium order for an account (partner-api.md States rule 1). */
export function openPremiumFor(conn: Conn, account: string): OrderRow | undefined {
  return prepared(conn, 'openPremiumFor', () =>
    conn
      .select()
      .from(orders)
      // literal conditions, so that SQLite can use the partial index orders_open_premium
      .where(and(eq(orders.account, sql.placeholder('a')), sql`${orders.type} = 'premium' and ${orders.status} = 'processing'`))
      .prepare(),
  ).get({ a: account });
}

// --- idempotency keys -------------------------------------------------------------------------

const idemKey = and(eq(idempotencyKeys.partnerId, sql.placeholder('p')), eq(idempotencyKeys.key, sql.placeholder('k')));

/** A bound key never changes (never updated, never deleted), so once committed it is kept in memory. */
const committedKeys = new CommittedCache<string, Readonly<IdemRow>>(20_000);

export function getIdem(conn: Conn, partnerId: number, key: string): Readonly<IdemRow> | undefined {
  return committedKeys.read(conn, `${partnerId}\u0000${key}`, () =>
    prepared(conn, 'getIdem', () => conn.select().from(idempotencyKeys).where(idemKey).prepare()).get({ p: partnerId, k: key }),
  );
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

/**
 * A partner's orders completed in (from, to] of service clock, created at `createdSince` or later (that bound
 * keeps the walk of the partner's completed orders short): what a daily digest counts.
 */
export function completedBetween(conn: Conn, partnerId: number, from: number, to: number, createdSince: number) {
  return conn
    .select({ type: orders.type, quantity: orders.quantity, amount: orders.amount, currency: orders.currency, idempotencyKey: orders.idempotencyKey })
    .from(orders)
    .where(and(eq(orders.partnerId, partnerId), eq(orders.status, 'completed'), gte(orders.createdAt, createdSince), sql`${orders.completedAt} > ${from}`, lte(orders.completedAt, to)))
    .all();
}
