import { and, eq, inArray, isNotNull, max, ne } from 'drizzle-orm';
import type { Conn } from './db.js';
import { fragmentOrderCosts, fragmentPayments } from './schema.js';

/** SQL of the Fragment adapter's payments (src/store/schema/fragment.ts says what the states mean). */
export type FragmentPaymentRow = typeof fragmentPayments.$inferSelect;
export type NewFragmentPayment = typeof fragmentPayments.$inferInsert;
export type PaymentState = 'signed' | 'sent' | 'paid' | 'review' | 'void';

/** Payments whose outcome is not known yet: the wallet pays nothing else while one exists. */
export const UNSETTLED: PaymentState[] = ['signed', 'sent'];

export function getPayment(conn: Conn, orderId: string): FragmentPaymentRow | undefined {
  return conn.select().from(fragmentPayments).where(eq(fragmentPayments.orderId, orderId)).get();
}

/** Inserts the first payment of an order, or replaces a `void` one (a fresh attempt). */
export function putPayment(conn: Conn, row: NewFragmentPayment): void {
  conn
    .insert(fragmentPayments)
    .values(row)
    .onConflictDoUpdate({ target: fragmentPayments.orderId, set: { ...row, attempts: (getPayment(conn, row.orderId)?.attempts ?? 0) + 1 } })
    .run();
}

/** The payment (of any order, in any state but void) that carried this comment reference, if any. */
export function paymentWithRef(conn: Conn, ref: string): FragmentPaymentRow | undefined {
  return conn
    .select()
    .from(fragmentPayments)
    .where(and(eq(fragmentPayments.ref, ref), ne(fragmentPayments.state, 'void')))
    .get();
}

export function updatePayment(conn: Conn, orderId: string, set: Partial<NewFragmentPayment>): void {
  conn.update(fragmentPayments).set(set).where(eq(fragmentPayments.orderId, orderId)).run();
}

export function unsettledPayments(conn: Conn, wallet: string): FragmentPaymentRow[] {
  return conn
    .select()
    .from(fragmentPayments)
    .where(and(eq(fragmentPayments.wallet, wallet), inArray(fragmentPayments.state, UNSETTLED)))
    .all();
}

/** The highest seqno a transaction of this wallet is known to have used (found on chain), or null. */
export function lastUsedSeqno(conn: Conn, wallet: string): number | null {
  const r = conn
    .select({ s: max(fragmentPayments.seqno) })
    .from(fragmentPayments)
    .where(and(eq(fragmentPayments.wallet, wallet), isNotNull(fragmentPayments.txHash)))
    .get();
  return r?.s ?? null;
}

/** The order's TON cost (nanoTON) as first recorded; records `costNano` when there is none yet. */
export function orderCostNano(conn: Conn, orderId: string, costNano: bigint, now: number): bigint {
  conn.insert(fragmentOrderCosts).values({ orderId, costNano: costNano.toString(), createdAt: now }).onConflictDoNothing().run();
  const r = conn.select({ c: fragmentOrderCosts.costNano }).from(fragmentOrderCosts).where(eq(fragmentOrderCosts.orderId, orderId)).get();
  return BigInt(r!.c);
}

/** The order's TON cost (nanoTON) as recorded at its first delivery step, or null when none was recorded. */
export function fragmentOrderCostNano(conn: Conn, orderId: string): bigint | null {
  const r = conn.select({ c: fragmentOrderCosts.costNano }).from(fragmentOrderCosts).where(eq(fragmentOrderCosts.orderId, orderId)).get();
  return r ? BigInt(r.c) : null;
}
