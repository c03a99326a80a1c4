import type { Clock } from '../../kernel/clock.js';
import { inTx, type Db } from '../../store/db.js';
import {
  batchPayments,
  getBatch,
  getPayment,
  moveBatch,
  updateBatch,
  updatePayment,
  UNSETTLED,
  type FragmentBatchRow,
  type FragmentPaymentRow,
} from '../../store/fragment-payments-repo.js';
import type { Logger } from '../../kernel/log.js';
import type { ChainTransaction, ChildTransaction, Toncenter, WalletState } from '../chains/toncenter-wallet.js';
import type { DeliveryOutcome } from '../types.js';
import type { FragmentConfig } from '../../config/fragment.js';
import type { FragmentApi, FragmentProduct } from './fragment-api.js';
import { FragmentDown } from './fragment-api.js';
import type { FragmentHealth } from './fragment-health.js';
import type { HotWalletState } from './hot-wallet-state.js';
import { commentOf, matchBatch, receiptOf } from './payment-checks.js';
import type { HotWallet } from './wallet.js';

/** An order whose payment is not settled asks again this often. */
export const SETTLE_POLL_MS = 1_000;
/**
 * The batch in flight is looked up on chain at most this often, however many of its orders ask: the next
 * batch forms as soon as it is found, and must reach the block after (seconds away) to keep the pace.
 */
const IN_FLIGHT_RECHECK_MS = 500;
/** An executed batch's receipts are read at most this often. */
const RECEIPTS_RECHECK_MS = 1_000;
/** Fragment's confirm calls that failed are made again at most this often. */
const CONFIRM_RETRY_MS = 5_000;
/** After validUntil, the index may still be catching up: this long before the seqno is trusted. */
const EXPIRY_GRACE_SEC = 30;

export interface SettleDeps {
  db: Db;
  clock: Clock;
  log: Logger;
}

/**
 * Settles batches by the chain alone. The batch in flight: its wallet transaction is looked up by the
 * normalised hash of the signed message; found, each order's payment is matched to its own outgoing
 * messages by the `Ref#` of their comments (matchBatch), and the batch is `executed`: the money left and the
 * wallet's next batch may form. Not found once it has expired (plus a grace) with the wallet's seqno still
 * the one it was signed with: `void`, provably never executable, and its orders are paid again in a new
 * batch. Then the receipts: the transactions its messages caused at Fragment's address (one index call per
 * batch) say per order whether Fragment took the TON (`paid`) or bounced it back (that order alone goes to
 * manual review). Also makes Fragment's advisory confirm calls.
 *
 * Many orders of a batch ask about it at once: one lookup serves them all (at most one per RECHECK_MS).
 */
export class BatchSettler {
  private readonly checks = new Map<string, { at: number; running: boolean }>();
  private readonly confirmTried = new Map<string, number>();
  /** confirm calls under way, by batch: the orders of a batch share them */
  private readonly confirming = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: SettleDeps,
    private readonly cfg: FragmentConfig,
    private readonly wallet: HotWallet,
    private readonly api: FragmentApi,
    private readonly chain: Toncenter,
    private readonly health: FragmentHealth,
    private readonly walletState: HotWalletState,
    /**
     * confirm calls made at once (a limit of their own: a batch's hundreds of confirm calls never hold up the
     * preparation of the next batch's orders)
     */
    private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>,
    /**
     * the batch in flight left flight (executed or review: `voided` false; proven void: true): the next batch
     * may form
     */
    private readonly onLanded: (voided: boolean) => Promise<unknown>,
  ) {}

  pending(afterMs: number): DeliveryOutcome {
    return { kind: 'pending', retryAt: this.deps.clock.now() + afterMs };
  }

  /**
   * The outcome of an order whose payment exists and is not void: settles its batch first when needed. null
   * when the batch was just proven void: the order prepares a fresh payment.
   */
  async outcome(row: FragmentPaymentRow): Promise<DeliveryOutcome | null> {
    if (row.state === 'signed' || row.state === 'sent') {
      // only the order that starts the lookup waits for it: the others of the batch answer from the row as
      // it is and ask again shortly (a slow toncenter must not hold a job slot per order)
      const run = this.settleBatch(row.batchId, row.txHash === null);
      if (run) await run;
      row = getPayment(this.deps.db, row.orderId)!;
    }
    switch (row.state) {
      case 'paid':
        return { kind: 'delivered' };
      case 'review':
        return { kind: 'unconfirmed' };
      case 'void':
        return null; // proven unpaid
      default:
        return this.pending(SETTLE_POLL_MS);
    }
  }

  /**
   * Looks the batch up on chain, unless a lookup of it is under way or was made moments ago (then null: one
   * lookup serves every order of the batch).
   */
  settleBatch(batchId: string, inFlight: boolean): Promise<void> | null {
    const now = this.deps.clock.now();
    const last = this.checks.get(batchId);
    if (last && (last.running || now < last.at + (inFlight ? IN_FLIGHT_RECHECK_MS : RECEIPTS_RECHECK_MS))) return null;
    const check = { at: now, running: true };
    this.checks.set(batchId, check);
    return this.settle(batchId)
      .catch((e) => this.deps.log.warn({ batchId, err: e }, 'fragment batch not settled this time'))
      .finally(() => (check.running = false));
  }

  private async settle(batchId: string): Promise<void> {
    let batch = getBatch(this.deps.db, batchId);
    let landed = false;
    if (batch && (batch.state === 'signed' || batch.state === 'sent')) {
      landed = await this.findExecuted(batch);
      batch = getBatch(this.deps.db, batchId);
    }
    const voided = batch?.state === 'void';
    // the wallet's seqno moved (or provably will not): the next batch forms now, from what waits, while
    // this one's receipts are read
    await Promise.all([batch?.state === 'executed' ? this.receipts(batch) : undefined, landed ? this.onLanded(voided) : undefined]);
    batch = getBatch(this.deps.db, batchId);
    if (!batch || !['signed', 'sent', 'executed'].includes(batch.state)) {
      this.checks.delete(batchId);
      this.confirmTried.delete(batchId);
    }
  }

  /**
   * Tells Fragment about the sent transfer as its page does (each request's confirm call), once per
   * payment. Advisory: its failure changes nothing, the chain settles the payment; a later settle step tries
   * again while the transfer is still valid (a crash between sending and these calls included).
   */
  confirmAll(batchId: string): Promise<void> {
    const under = this.confirming.get(batchId);
    if (under) return under;
    const run = this.confirmBatch(batchId).finally(() => this.confirming.delete(batchId));
    this.confirming.set(batchId, run);
    return run;
  }

  private async confirmBatch(batchId: string): Promise<void> {
    const batch = getBatch(this.deps.db, batchId);
    if (!batch) return;
    this.confirmTried.set(batchId, this.deps.clock.now());
    const rows = batchPayments(this.deps.db, batchId).filter((r) => r.confirmMethod && r.confirmedAt === null && r.state !== 'void');
    await Promise.all(rows.map((r) => this.limit(() => this.confirmOne(r, batch.boc))));
  }

  private async confirmOne(row: FragmentPaymentRow, boc: string): Promise<void> {
    try {
      await this.api.confirm(row.product as FragmentProduct, { method: row.confirmMethod!, params: row.confirmParams ?? {} }, this.wallet.account(), boc);
      updatePayment(this.deps.db, row.orderId, { confirmedAt: this.deps.clock.now() });
      this.health.cleared('call');
    } catch (e) {
      if (e instanceof FragmentDown) this.health.markProblem(e);
      this.deps.log.warn({ orderId: row.orderId, err: e }, 'fragment confirm call failed (the chain settles the payment)');
    }
  }

  /** The batch in flight: executed (matched per order), void, review, or still unknown. True when it left flight. */
  private async findExecuted(batch: FragmentBatchRow): Promise<boolean> {
    let tx: ChainTransaction | null = null;
    try {
      tx = await this.chain.transactionByMessage(batch.normHash);
    } catch (e) {
      // the index is down: the seqno and the bound below still apply
      this.deps.log.warn({ batchId: batch.batchId, err: e }, 'fragment batch lookup failed');
    }
    const now = this.deps.clock.now();
    if (tx) {
      this.recordExecuted(batch, tx, now);
      return true;
    }
    const nowSec = Math.floor(now / 1000);
    if (nowSec <= batch.validUntil + EXPIRY_GRACE_SEC) {
      if (now >= (this.confirmTried.get(batch.batchId) ?? -Infinity) + CONFIRM_RETRY_MS) await this.confirmAll(batch.batchId);
      return false;
    }
    const pastBound = nowSec > batch.validUntil + this.cfg.lookupBoundSec;
    let w: WalletState;
    try {
      w = await this.walletState.refresh();
    } catch (e) {
      this.deps.log.warn({ batchId: batch.batchId, err: e }, 'fragment wallet state not read');
      // toncenter does not answer at all: nothing can be proven either way, so the bound applies
      if (!pastBound) return false;
      this.toReview(batch, 'not settled within the bound: toncenter does not answer (neither the lookup nor the wallet state)');
      return true;
    }
    if (w.seqno <= batch.seqno) {
      // Expired and its seqno never used: this transfer can no longer be executed, so nothing was paid.
      moveBatch(this.deps.db, batch.batchId, { state: 'void', detail: 'expired unexecuted (seqno unchanged)', updatedAt: now }, { state: 'void', detail: 'expired unexecuted (seqno unchanged)', updatedAt: now });
      return true;
    }
    if (!pastBound) return false;
    this.toReview(batch, 'not found on chain within the bound, seqno moved on');
    return true;
  }

  /**
   * The wallet's transaction was found: each payment is matched to its own messages by its reference. A
   * transaction that is not the signed batch (failed, elsewhere, another total, a message naming no payment)
   * sends every payment of it to review; a payment whose own messages are wrong goes to review alone.
   */
  private recordExecuted(batch: FragmentBatchRow, tx: ChainTransaction, now: number): void {
    const rows = batchPayments(this.deps.db, batch.batchId).filter((r) => r.state !== 'void');
    const match = matchBatch(
      { success: tx.success, skippedActions: tx.skippedActions, outMessages: tx.outMessages.map((m) => ({ ...m, comment: commentOf(m.body) })) },
      rows.map((r) => ({ orderId: r.orderId, ref: r.ref, amountNano: BigInt(r.amountNano) })),
      this.cfg.payAddresses,
    );
    const evidence = { txHash: tx.hash, txLt: tx.lt, updatedAt: now };
    inTx(this.deps.db, (t) => {
      updateBatch(t, batch.batchId, { ...evidence, txUtime: tx.utime, state: match.problem === null ? 'executed' : 'review', detail: match.problem });
      for (const r of rows) {
        if (!UNSETTLED.includes(r.state as never)) continue;
        const m = match.orders.get(r.orderId);
        const problem = match.problem ?? m?.problem ?? null;
        if (problem !== null) updatePayment(t, r.orderId, { ...evidence, state: 'review', detail: problem });
        else updatePayment(t, r.orderId, { ...evidence, state: 'sent', outHashes: m!.hashes });
      }
    });
    if (match.problem !== null) this.deps.log.warn({ batchId: batch.batchId, problem: match.problem }, 'fragment batch found on chain but not as signed: its payments go to review');
  }

  /**
   * Did Fragment's address take each order's messages? The transactions the batch's messages caused (one
   * paged index call): taken → paid; bounced (the TON came back) → that order alone to manual review, with an
   * alert; not found within the bound of the wallet's transaction → review too.
   */
  private async receipts(batch: FragmentBatchRow): Promise<void> {
    const rows = batchPayments(this.deps.db, batch.batchId).filter((r) => UNSETTLED.includes(r.state as never));
    const now = this.deps.clock.now();
    if (rows.length === 0) {
      updateBatch(this.deps.db, batch.batchId, { state: 'done', updatedAt: now });
      return;
    }
    let children: ChildTransaction[] = [];
    try {
      children = await this.chain.childTransactions(batch.txHash!);
    } catch (e) {
      this.deps.log.warn({ batchId: batch.batchId, err: e }, 'fragment receipts lookup failed');
    }
    const received = new Map(children.map((c) => [c.inMessageHash, c]));
    const pastBound = Math.floor(now / 1000) > (batch.txUtime ?? 0) + this.cfg.lookupBoundSec;
    const bounced: string[] = [];
    let open = 0;
    inTx(this.deps.db, (t) => {
      for (const r of rows) {
        const receipt = receiptOf(r.outHashes ?? [], received);
        if (receipt === 'paid') updatePayment(t, r.orderId, { state: 'paid', updatedAt: now });
        else if (receipt === 'bounced') {
          bounced.push(r.orderId);
          updatePayment(t, r.orderId, { state: 'review', detail: 'bounced: Fragment did not take the payment, the TON came back to the wallet', updatedAt: now });
        } else if (pastBound) updatePayment(t, r.orderId, { state: 'review', detail: "sent on chain, but Fragment's receipt not found within the bound", updatedAt: now });
        else open++;
      }
      if (open === 0) updateBatch(t, batch.batchId, { state: 'done', updatedAt: now });
    });
    for (const orderId of bounced) this.health.alert('payment_bounced', `order ${orderId}: Fragment's address bounced the payment (the TON came back to the wallet)`);
  }

  /** Nothing provable within the bound: every unsettled payment of the batch goes to manual review. */
  private toReview(batch: FragmentBatchRow, detail: string): void {
    const now = this.deps.clock.now();
    moveBatch(this.deps.db, batch.batchId, { state: 'review', detail, updatedAt: now }, { state: 'review', detail, updatedAt: now });
  }
}
