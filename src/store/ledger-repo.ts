import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Currency } from '../domain/money.js';
import { planEntry, type EntryKind } from '../domain/ledger-rules.js';
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
 * Appends one entry and moves the balance, inside the caller's transaction. The domain rule refuses a
 * negative balance (InsufficientBalance); the CHECK constraints of the schema are the second guard.
 */
export function postEntry(
  conn: Conn,
  args: { partnerId: number; currency: Currency; kind: EntryKind; amount: number; orderId?: string; topupId?: string; now: number },
): LedgerEntryRow {
  shownBalances.drop(conn, args.partnerId);
  const balance = balanceOf(conn, args.partnerId, args.currency);
  const plan = planEntry(balance, args.currency, args.kind, args.amount);
  prepared(conn, 'setBalance', () =>
    conn
      .update(accounts)
      .set({ balance: sql.placeholder('b') as unknown as number })
      .where(and(eq(accounts.partnerId, sql.placeholder('p')), eq(accounts.currency, sql.placeholder('c'))))
      .prepare(),
  ).run({ b: plan.balanceAfter, p: args.partnerId, c: args.currency });
  const entry = {
    partnerId: args.partnerId,
    currency: args.currency,
    amount: plan.amount,
    kind: plan.kind,
    orderId: args.orderId ?? null,
    topupId: args.topupId ?? null,
    balanceAfter: plan.balanceAfter,
    createdAt: args.now,
  };
  // the entry as written, with its id (no read back)
  const r = prepared(conn, 'insertEntry', () =>
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
      })
      .prepare(),
  ).run(entry);
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
