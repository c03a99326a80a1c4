import { and, asc, desc, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { Currency } from '../domain/money.js';
import { DuplicateEntry, planEntry, type EntryKind } from '../domain/ledger-rules.js';
import type { Conn } from './db.js';
import { CommittedCache } from './committed-cache.js';
import { prepared } from './prepared.js';
import { accounts, ledgerEntries } from './schema.js';

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

export function balanceOf(conn: Conn, partnerId: number, currency: Currency): number {
  const row = prepared(conn, 'balanceOf', () =>
    conn
      .select({ balance: accounts.balance })
      .from(accounts)
      .where(and(eq(accounts.partnerId, sql.placeholder('p')), eq(accounts.currency, sql.placeholder('c'))))
      .prepare(),
  ).get({ p: partnerId, c: currency });
  return row?.balance ?? 0;
}

/** Balances for display (GET /me, on every call): cached until the next entry (src/store/committed-cache.ts). */
const shownBalances = new CommittedCache<number, Readonly<Record<Currency, number>>>();

export function cachedBalancesOf(conn: Conn, partnerId: number): Readonly<Record<Currency, number>> {
  return shownBalances.read(conn, partnerId, () => balancesOf(conn, partnerId))!;
}

/** The balances as stored now (what the ledger check and the operator views read). */
export function balancesOf(conn: Conn, partnerId: number): Record<Currency, number> {
  const rows = prepared(conn, 'balancesOf', () => conn.select().from(accounts).where(eq(accounts.partnerId, sql.placeholder('p'))).prepare()).all({ p: partnerId });
  const out: Record<Currency, number> = { USD: 0, TON: 0 };
  for (const r of rows) out[r.currency] = r.balance;
  return out;
}

/**
 * Appends one entry inside the caller's transaction; the entry moves the balance (the insert trigger of
 * drizzle/0023_money_guards.sql sets accounts.balance to its balance_after: the service never writes a
 * balance itself). The domain rule refuses a negative balance first (InsufficientBalance); the database's
 * CHECK constraints, unique indexes and triggers are the second guard.
 */
export function postEntry(
  conn: Conn,
  args: { partnerId: number; currency: Currency; kind: EntryKind; amount: number; orderId?: string; topupId?: string; note?: string; now: number },
): LedgerEntryRow {
  shownBalances.drop(conn, args.partnerId);
  const balance = balanceOf(conn, args.partnerId, args.currency);
  const plan = planEntry(balance, args.currency, args.kind, args.amount);
  const entry = {
    partnerId: args.partnerId,
    currency: args.currency,
    amount: plan.amount,
    kind: plan.kind,
    orderId: args.orderId ?? null,
    topupId: args.topupId ?? null,
    balanceAfter: plan.balanceAfter,
    createdAt: args.now,
    note: args.note ?? null,
  };
  // the entry as written, with its id (no read back)
  const insert = prepared(conn, 'insertEntry', () =>
    conn
      .insert(ledgerEntries)
      .values({
        partnerId: sql.placeholder('partnerId'),
        currency: sql.placeholder('currency'),
        amount: sql.placeholder('amount'),
        kind: sql.placeholder('kind'),
        orderId: sql.placeholder('orderId'),
        topupId: sql.placeholder('topupId'),
        balanceAfter: sql.placeholder('balanceAfter'),
        createdAt: sql.placeholder('createdAt'),
        note: sql.placeholder('note'),
      })
      .prepare(),
  );
  let r: { lastInsertRowid: number | bigint };
  try {
    r = insert.run(entry);
  } catch (e) {
    // the unique indexes: a second debit or refund of one order, a second credit of one top-up
    if (e instanceof Error && (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /ledger_entries\.(order_id|topup_id)/.test(e.message))
      throw new DuplicateEntry(entry.kind, entry.orderId ?? entry.topupId ?? '');
    throw e;
  }
  return { entryId: Number(r.lastInsertRowid), ...entry } as LedgerEntryRow;
}

export function listEntries(
  conn: Conn,
  args: { partnerId: number; currency?: Currency; afterId?: number; limit: number },
): LedgerEntryRow[] {
  const conds = [eq(ledgerEntries.partnerId, args.partnerId)];
  if (args.currency) conds.push(eq(ledgerEntries.currency, args.currency));
  if (args.afterId !== undefined) conds.push(gt(ledgerEntries.entryId, args.afterId));
  return conn
    .select()
    .from(ledgerEntries)
    .where(and(...conds))
    .orderBy(asc(ledgerEntries.entryId))
    .limit(args.limit)
    .all();
}

export function entriesOfOrder(conn: Conn, orderId: string): LedgerEntryRow[] {
  return conn.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId)).orderBy(asc(ledgerEntries.entryId)).all();
}

/** Raw figures for the invariant check (GET /ledger/check). */
export function ledgerFigures(conn: Conn) {
  return conn
    .select({
      partnerId: accounts.partnerId,
      currency: accounts.currency,
      balance: accounts.balance,
      // Qualified by hand: drizzle renders bare column names in a single-table select, which made the subquery compare its own columns.
      sum: sql<number>`coalesce((select sum(e.amount) from ledger_entries e where e.partner_id = accounts.partner_id and e.currency = accounts.currency), 0)`,
      lastAfter: sql<number | null>`(select e.balance_after from ledger_entries e where e.partner_id = accounts.partner_id and e.currency = accounts.currency order by e.entry_id desc limit 1)`,
    })
    .from(accounts)
    .all();
}

/** Per order: its amount and refunded flag beside the count and sum of its debit and refund entries. */
export function orderLedgerFigures(conn: Conn) {
  return conn.all<{ order_id: string; amount: number; refunded: number; debits: number; debit_sum: number | null; refunds: number; refund_sum: number | null; currency: Currency }>(sql`
    select o.order_id, o.amount, o.refunded, o.currency,
      (select count(*) from ledger_entries e where e.order_id = o.order_id and e.kind = 'order_debit') as debits,
      (select sum(e.amount) from ledger_entries e where e.order_id = o.order_id and e.kind = 'order_debit') as debit_sum,
      (select count(*) from ledger_entries e where e.order_id = o.order_id and e.kind = 'order_refund') as refunds,
      (select sum(e.amount) from ledger_entries e where e.order_id = o.order_id and e.kind = 'order_refund') as refund_sum
    from orders o`);
}

/** Entries naming an order that does not exist. */
export function entriesWithoutOrder(conn: Conn) {
  return conn.all<{ entry_id: number; order_id: string }>(sql`
    select e.entry_id, e.order_id from ledger_entries e
    where e.order_id is not null and not exists (select 1 from orders o where o.order_id = e.order_id)`);
}

export interface EntryFilter {
  partnerId: number;
  currency: Currency;
  from?: number;
  to?: number;
  /** keyset: entries with an id below this one (newest first) */
  beforeId?: number;
  limit: number;
}

/**
 * A partner's entries of one currency, newest first, over the index ledger_partner (partner, currency,
 * entry id): the partner API's GET /ledger reads each currency this way and merges, so no index is added
 * to the order path. One prepared statement per combination of filters.
 */
export function listEntriesNewestFirst(conn: Conn, f: EntryFilter): LedgerEntryRow[] {
  const used = (['from', 'to', 'beforeId'] as const).filter((k) => f[k] !== undefined);
  const q = prepared(conn, `listEntriesNewestFirst:${used.join(',')}`, () => {
    const conds = [eq(ledgerEntries.partnerId, sql.placeholder('partnerId')), eq(ledgerEntries.currency, sql.placeholder('currency'))];
    if (f.from !== undefined) conds.push(gte(ledgerEntries.createdAt, sql.placeholder('from')));
    if (f.to !== undefined) conds.push(lte(ledgerEntries.createdAt, sql.placeholder('to')));
    if (f.beforeId !== undefined) conds.push(lt(ledgerEntries.entryId, sql.placeholder('beforeId')));
    return conn.select().from(ledgerEntries).where(and(...conds)).orderBy(desc(ledgerEntries.entryId)).limit(sql.placeholder('limit')).prepare();
  });
  const params: Record<string, unknown> = { partnerId: f.partnerId, currency: f.currency, limit: f.limit };
  for (const k of used) params[k] = f[k];
  return q.all(params);
}
