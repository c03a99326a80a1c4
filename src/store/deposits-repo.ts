import { and, desc, eq, gt, inArray, lte, ne, or, sql } from 'drizzle-orm';
import type { Currency } from '../domain/money.js';
import type { Conn } from './db.js';
import type { DepositStatus, TopupRequestStatus } from '../domain/enums.js';
import { deposits, topupRequests, watcherPositions } from './schema.js';

export type TopupRequestRow = typeof topupRequests.$inferSelect;
export type DepositRow = typeof deposits.$inferSelect;

// ---- top-up requests

export function getTopupRequest(conn: Conn, requestId: string): TopupRequestRow | undefined {
  return conn.select().from(topupRequests).where(eq(topupRequests.requestId, requestId)).get();
}

export function insertTopupRequest(conn: Conn, row: typeof topupRequests.$inferInsert): void {
  conn.insert(topupRequests).values(row).run();
}

/** Open requests past their expiry become `expired` (the status is kept honest lazily). */
export function expireTopupRequests(conn: Conn, now: number): void {
  conn
    .update(topupRequests)
    .set({ status: 'expired' })
    .where(and(eq(topupRequests.status, 'open'), lte(topupRequests.expiresAt, now)))
    .run();
}

/** Amounts asked by the open (not expired) requests of a currency. */
export function openRequestAmounts(conn: Conn, currency: Currency, now: number): number[] {
  return conn
    .select({ a: topupRequests.amountToSend })
    .from(topupRequests)
    .where(and(eq(topupRequests.currency, currency), eq(topupRequests.status, 'open'), gt(topupRequests.expiresAt, now)))
    .all()
    .map((r) => r.a);
}

/** How many open (not expired) requests of a currency one partner has. */
export function openRequestCount(conn: Conn, partnerId: number, currency: Currency, now: number): number {
  const r = conn
    .select({ n: sql<number>`count(*)` })
    .from(topupRequests)
    .where(and(eq(topupRequests.partnerId, partnerId), eq(topupRequests.currency, currency), eq(topupRequests.status, 'open'), gt(topupRequests.expiresAt, now)))
    .get();
  return r?.n ?? 0;
}

export function commentCodeTaken(conn: Conn, code: string): boolean {
  return conn.select({ id: topupRequests.requestId }).from(topupRequests).where(eq(topupRequests.commentCode, code)).get() !== undefined;
}

/** When a request ended, if it ended unpaid: its cancel time, else its expiry (SQL). */
const endedAt = sql`coalesce(${topupRequests.canceledAt}, ${topupRequests.expiresAt})`;

/**
 * Amounts of the requests of a currency that ended unpaid (expired or canceled) by `now` and after `since`:
 * kept out of new requests (src/domain/deposit-matching.ts chooseAmountToSend).
 */
export function endedRequestAmounts(conn: Conn, currency: Currency, now: number, since: number): number[] {
  return conn
    .select({ a: topupRequests.amountToSend })
    .from(topupRequests)
    .where(and(eq(topupRequests.currency, currency), ne(topupRequests.status, 'credited'), sql`${endedAt} <= ${now}`, sql`${endedAt} > ${since}`))
    .all()
    .map((r) => r.a);
}

/**
 * Requests a deposit of `currency` might pay: open ones, those that ended (paid, expired or canceled)
 * after `since`, and any whose comment code is among `codes`.
 */
export function candidateRequests(conn: Conn, currency: Currency, codes: string[], since: number): TopupRequestRow[] {
  const conds = [
    and(eq(topupRequests.currency, currency), eq(topupRequests.status, 'open')),
    and(eq(topupRequests.currency, currency), sql`${endedAt} > ${since}`),
  ];
  if (codes.length) conds.push(inArray(topupRequests.commentCode, codes));
  return conn.select().from(topupRequests).where(or(...conds)).all();
}

/**
 * One partner's requests in one state, newest first. `open` and `expired` are judged by `now` (an open
 * request past its expiry is expired, before the lazy update writes it).
 */
export function partnerTopupRequests(conn: Conn, partnerId: number, status: TopupRequestStatus, now: number, limit: number): TopupRequestRow[] {
  const open = and(eq(topupRequests.status, 'open'), gt(topupRequests.expiresAt, now));
  const cond =
    status === 'open'
      ? open
      : status === 'expired'
        ? or(eq(topupRequests.status, 'expired'), and(eq(topupRequests.status, 'open'), lte(topupRequests.expiresAt, now)))
        : eq(topupRequests.status, status);
  return conn
    .select()
    .from(topupRequests)
    .where(and(eq(topupRequests.partnerId, partnerId), cond))
    .orderBy(desc(topupRequests.createdAt), sql`rowid desc`)
    .limit(limit)
    .all();
}

/** Cancels an open (not expired) request; false when it was not open at `now`. */
export function cancelOpenRequest(conn: Conn, requestId: string, now: number): boolean {
  const r = conn
    .update(topupRequests)
    .set({ status: 'canceled', canceledAt: now })
    .where(and(eq(topupRequests.requestId, requestId), eq(topupRequests.status, 'open'), gt(topupRequests.expiresAt, now)))
    .run();
  return r.changes === 1;
}

export function markRequestCredited(conn: Conn, requestId: string, depositId: string): void {
  conn.update(topupRequests).set({ status: 'credited', creditedDepositId: depositId }).where(eq(topupRequests.requestId, requestId)).run();
}

// ---- deposits

export function depositByTx(conn: Conn, network: string, txHash: string): DepositRow | undefined {
  return conn.select().from(deposits).where(and(eq(deposits.network, network), eq(deposits.txHash, txHash))).get();
}

export function getDeposit(conn: Conn, depositId: string): DepositRow | undefined {
  return conn.select().from(deposits).where(eq(deposits.depositId, depositId)).get();
}

export function insertDeposit(conn: Conn, row: typeof deposits.$inferInsert): void {
  conn.insert(deposits).values(row).run();
}

export function updateDeposit(conn: Conn, depositId: string, set: Partial<typeof deposits.$inferInsert>): DepositRow {
  conn.update(deposits).set(set).where(eq(deposits.depositId, depositId)).run();
  return getDeposit(conn, depositId)!;
}

export function listDepositRows(conn: Conn, status: DepositStatus | undefined, limit: number): DepositRow[] {
  const q = conn.select().from(deposits);
  return (status ? q.where(eq(deposits.status, status)) : q).orderBy(desc(deposits.createdAt), sql`rowid desc`).limit(limit).all();
}

// ---- watcher positions

export function getWatcherPosition(conn: Conn, network: string): string | null {
  return conn.select({ p: watcherPositions.position }).from(watcherPositions).where(eq(watcherPositions.network, network)).get()?.p ?? null;
}

export function setWatcherPosition(conn: Conn, network: string, position: string, now: number): void {
  conn
    .insert(watcherPositions)
    .values({ network, position, updatedAt: now })
    .onConflictDoUpdate({ target: watcherPositions.network, set: { position, updatedAt: now } })
    .run();
}
