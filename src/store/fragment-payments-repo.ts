import { and, asc, desc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { inTx, type Conn, type Db } from './db.js';
import { fragmentBatches, fragmentOrderCosts, fragmentPayments } from './schema.js';

/** SQL of the Fragment adapter's batches and payments (src/store/schema/fragment.ts says what the states mean). */
export type FragmentPaymentRow = typeof fragmentPayments.$inferSelect;
export type NewFragmentPayment = typeof fragmentPayments.$inferInsert;
export type FragmentBatchRow = typeof fragmentBatches.$inferSelect;
export type NewFragmentBatch = typeof fragmentBatches.$inferInsert;
export type PaymentState = 'signed' | 'sent' | 'paid' | 'review' | 'void';
export type BatchState = 'signed' | 'sent' | 'executed' | 'done' | 'review' | 'void';

/** Batches whose execution is not known yet: the wallet signs nothing else while one exists. */
export const IN_FLIGHT: BatchState[] = ['signed', 'sent'];
/** Payments whose outcome is not known yet. */
export const UNSETTLED: PaymentState[] = ['signed', 'sent'];

export function getPayment(conn: Conn, orderId: string): FragmentPaymentRow | undefined {
  return conn.select().from(fragmentPayments).where(eq(fragmentPayments.orderId, orderId)).get();
}

export function getBatch(conn: Conn, batchId: string): FragmentBatchRow | undefined {
  return conn.select().from(fragmentBatches).where(eq(fragmentBatches.batchId, batchId)).get();
}

export function batchPayments(conn: Conn, batchId: string): FragmentPaymentRow[] {
  return conn.select().from(fragmentPayments).where(eq(fragmentPayments.batchId, batchId)).orderBy(asc(fragmentPayments.orderId)).all();
}

/**
 * Writes a signed batch and the payment of each of its orders in one transaction, before the transfer is
 * sent. An order's earlier payment is replaced only when it is `void` (its batch provably never executed);
 * anything else throws and nothing is written (the unique indexes and the trigger refuse it too).
 */
export function putBatch(db: Db, batch: NewFragmentBatch, payments: NewFragmentPayment[]): void {
  inTx(db, (tx) => {
    tx.insert(fragmentBatches).values(batch).run();
    for (const p of payments) {
      const earlier = getPayment(tx, p.orderId);
      if (!earlier) {
        tx.insert(fragmentPayments).values(p).run();
        continue;
      }
      if (earlier.state !== 'void') throw new Error(`order ${p.orderId} already has a live payment (${earlier.state})`);
      tx.update(fragmentPayments)
        .set({ ...p, attempts: earlier.attempts + 1, confirmedAt: null, txHash: null, txLt: null, outHashes: null, detail: null })
        .where(and(eq(fragmentPayments.orderId, p.orderId), eq(fragmentPayments.state, 'void')))
        .run();
    }
  });
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

export function updateBatch(conn: Conn, batchId: string, set: Partial<NewFragmentBatch>): void {
  conn.update(fragmentBatches).set(set).where(eq(fragmentBatches.batchId, batchId)).run();
}

/** Moves a batch and its payments that are still in `from` states together (one transaction). */
export function moveBatch(db: Db, batchId: string, batch: Partial<NewFragmentBatch>, payments: Partial<NewFragmentPayment>, from: PaymentState[] = UNSETTLED): void {
  inTx(db, (tx) => {
    updateBatch(tx, batchId, batch);
    tx.update(fragmentPayments)
      .set(payments)
      .where(and(eq(fragmentPayments.batchId, batchId), inArray(fragmentPayments.state, from)))
      .run();
  });
}

/** toncenter took the batch's transfer: `signed` → `sent`, unless a lookup already moved it further. */
export function markBatchSent(db: Db, batchId: string, now: number): void {
  inTx(db, (tx) => {
    tx.update(fragmentBatches)
      .set({ state: 'sent', updatedAt: now })
      .where(and(eq(fragmentBatches.batchId, batchId), eq(fragmentBatches.state, 'signed')))
      .run();
    tx.update(fragmentPayments)
      .set({ state: 'sent', updatedAt: now })
      .where(and(eq(fragmentPayments.batchId, batchId), eq(fragmentPayments.state, 'signed')))
      .run();
  });
}

/** The wallet's batch in flight (signed or sent: its execution not known yet), if any. */
export function batchInFlight(conn: Conn, wallet: string): FragmentBatchRow | undefined {
  return conn
    .select()
    .from(fragmentBatches)
    .where(and(eq(fragmentBatches.wallet, wallet), inArray(fragmentBatches.state, IN_FLIGHT)))
    .get();
}

/** The wallet's batches executed on chain whose receipts are still being read. */
export function batchesExecuted(conn: Conn, wallet: string): FragmentBatchRow[] {
  return conn
    .select()
    .from(fragmentBatches)
    .where(and(eq(fragmentBatches.wallet, wallet), eq(fragmentBatches.state, 'executed')))
    .all();
}

/** The highest seqno a transaction of this wallet is known to have used (found on chain), or null. */
export function lastUsedSeqno(conn: Conn, wallet: string): number | null {
  const r = conn
    .select({ s: fragmentBatches.seqno })
    .from(fragmentBatches)
    .where(and(eq(fragmentBatches.wallet, wallet), isNotNull(fragmentBatches.txHash)))
    .orderBy(desc(fragmentBatches.seqno))
    .limit(1)
    .get();
  return r?.s ?? null;
}

/** Whether this wallet ever signed anything here (a database that paid from it keeps its contract version). */
export function walletUsed(conn: Conn, wallet: string): boolean {
  return conn.select({ b: fragmentBatches.batchId }).from(fragmentBatches).where(eq(fragmentBatches.wallet, wallet)).limit(1).get() !== undefined;
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
