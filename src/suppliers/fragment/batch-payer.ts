import type { Clock } from '../../kernel/clock.js';
import type { Db } from '../../store/db.js';
import { batchInFlight, lastUsedSeqno, markBatchSent, putBatch, type NewFragmentPayment } from '../../store/fragment-payments-repo.js';
import type { Logger } from '../../kernel/log.js';
import type { Toncenter, WalletState } from '../chains/toncenter-wallet.js';
import type { FragmentConfig } from '../../config/fragment.js';
import type { HotWalletState } from './hot-wallet-state.js';
import { MIN_VALID_AHEAD_SEC } from './payment-checks.js';
import type { PreparedPayment } from './purchase-preparer.js';
import type { HotWallet } from './wallet.js';

/** After the wallet's state could not be read (or showed a seqno already used), the next try waits this long. */
const WALLET_RETRY_MS = 5_000;
/**
 * A batch about to form on an idle wallet waits at most this long (real time: network calls) for the
 * purchases being prepared at that moment, so that orders arriving together leave together. A batch formed
 * as its predecessor lands does not wait: the orders of a whole cycle are waiting already, and the next
 * block is seconds away.
 */
const GATHER_MS = 2_000;
/** A prepared payment is signed only while Fragment's validUntil leaves this much time (else it is prepared again). */
const FRESH_SEC = MIN_VALID_AHEAD_SEC + 10;

/** A batch just signed, written and handed to toncenter. */
export interface SentBatch {
  batchId: string;
  orderIds: string[];
}

/**
 * Gathers prepared payments into batches: one signed transfer of up to FRAGMENT_BATCH_MAX orders (and the
 * wallet's own limit of messages: V4R2 4, V5R1 255), each order with its own messages, amount and payload.
 * One batch in flight per wallet: a batch is formed only when the previous one was found executed on chain or
 * proven never executable, so its seqno is the one the chain expects; meanwhile new orders are prepared and
 * wait here (in memory: nothing of them is signed, so a restart only prepares them again).
 *
 * Forming a batch: read the wallet (its seqno must be above every seqno known used, its balance must cover
 * each payment plus FRAGMENT_FEE_RESERVE_TON), pick the oldest payments that fit, sign, WRITE THE BATCH AND
 * EVERY PAYMENT ROW in one transaction, then send. Picking, signing and writing run without a pause (no
 * await), so nothing else in this process sees a payment half taken.
 */
export class BatchPayer {
  /** prepared payments waiting for a batch, by order id, oldest first */
  private readonly pool = new Map<string, PreparedPayment>();
  private forming: Promise<SentBatch | null> | null = null;
  /** no wallet read before this (service clock, ms): after a failure, the pool waits instead of hammering toncenter */
  private notBefore = 0;
  /** why the last attempt formed nothing (for the log and the operator), null when it formed one */
  lastProblem: string | null = null;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger },
    private readonly cfg: FragmentConfig,
    private readonly wallet: HotWallet,
    private readonly chain: Toncenter,
    private readonly walletState: HotWalletState,
    /** resolves when the purchases being prepared now are ready (or after the cap) */
    private readonly gathered: (capMs: number) => Promise<void>,
  ) {}

  get waiting(): number {
    return this.pool.size;
  }

  /** The order's prepared payment waiting for a batch, if any. */
  held(orderId: string): PreparedPayment | undefined {
    return this.pool.get(orderId);
  }

  add(p: PreparedPayment): void {
    this.pool.set(p.orderId, p);
  }

  /** Takes the order's payment out of the pool (it will be prepared again if asked): true when it was there. */
  drop(orderId: string): boolean {
    return this.pool.delete(orderId);
  }

  /** The order (other than `orderId`) whose waiting payment carries this reference, or null. */
  refHeld(ref: string, orderId: string): string | null {
    for (const p of this.pool.values()) if (p.ref === ref && p.orderId !== orderId) return p.orderId;
    return null;
  }

  /**
   * No batch forms for `ms` (service clock): a batch proven void frees its orders, which prepare their
   * payments again at their next step (within a poll); they then leave together rather than one by one.
   */
  hold(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.deps.clock.now() + ms);
  }

  /** Whether a waiting payment can still be signed (Fragment's validUntil far enough ahead). */
  fresh(p: PreparedPayment): boolean {
    return p.validUntil >= Math.floor(this.deps.clock.now() / 1000) + FRESH_SEC;
  }

  /**
   * Forms and sends the next batch if the pool holds payments and no batch is in flight: resolves to the
   * batch sent, or null when none was. null at once when an attempt is under way already (its caller waits
   * for it; the others need not hold a job slot each).
   */
  kick(opts: { gather: boolean }): Promise<SentBatch | null> | null {
    if (this.forming) return null;
    const run = this.form(opts.gather)
      .catch((e) => {
        this.deps.log.error({ err: e }, 'fragment batch not formed');
        return null;
      })
      .finally(() => {
        this.forming = null;
      });
    this.forming = run;
    return run;
  }

  private async form(gather: boolean): Promise<SentBatch | null> {
    if (this.pool.size === 0) return null;
    const walletRaw = this.wallet.address.toRawString();
    if (batchInFlight(this.deps.db, walletRaw)) return null;
    if (this.deps.clock.now() < this.notBefore) return null;
    if (gather) await this.gathered(GATHER_MS);
    let w: WalletState;
    try {
      w = await this.walletState.refresh();
    } catch (e) {
      return this.wait(`wallet state not read: ${(e as Error).message}`);
    }
    // toncenter may not show yet the seqno an executed batch used: signing with it would never execute
    const used = lastUsedSeqno(this.deps.db, walletRaw);
    if (used !== null && w.seqno <= used) return this.wait(`the node shows seqno ${w.seqno}, ${used} was already used`);
    // --- from here to the write, no await: the pool, the database and the signature move together ---
    if (batchInFlight(this.deps.db, walletRaw)) return null;
    const picked = this.pick(w.balanceNano);
    if (picked.length === 0) return null;
    const nowMs = this.deps.clock.now();
    const nowSec = Math.floor(nowMs / 1000);
    const validUntil = Math.min(nowSec + this.cfg.sendTtlSec, ...picked.map((p) => p.validUntil));
    const signed = this.wallet.sign(
      picked.flatMap((p) => p.messages),
      w.seqno,
      validUntil,
      w.deployed,
    );
    const batchId = signed.normHash;
    const base = { wallet: walletRaw, seqno: w.seqno, validUntil, normHash: signed.normHash, createdAt: nowMs, updatedAt: nowMs };
    const rows: NewFragmentPayment[] = picked.map((p) => ({
      ...base,
      orderId: p.orderId,
      batchId,
      product: p.product,
      state: 'signed',
      amountNano: p.totalNano.toString(),
      reqId: p.reqId,
      ref: p.ref,
      confirmMethod: p.confirm?.method ?? null,
      confirmParams: p.confirm?.params ?? null,
    }));
    try {
      // Written before the transfer leaves: from here on these orders can only be settled by the chain.
      putBatch(
        this.deps.db,
        {
          ...base,
          batchId,
          boc: signed.boc,
          state: 'signed',
          orders: picked.length,
          messages: picked.reduce((a, p) => a + p.messages.length, 0),
          amountNano: picked.reduce((a, p) => a + p.totalNano, 0n).toString(),
        },
        rows,
      );
    } catch (e) {
      // nothing was sent: the payments wait in the pool again (an order with a live payment is settled by it)
      this.deps.log.error({ err: e }, 'fragment batch not written; nothing was sent');
      for (const p of picked) this.pool.set(p.orderId, p);
      return this.wait(`batch not written: ${(e as Error).message}`);
    }
    for (const p of picked) this.pool.delete(p.orderId);
    this.lastProblem = null;
    // --- written: the transfer may leave now ---
    try {
      await this.chain.send(signed.boc);
      markBatchSent(this.deps.db, batchId, this.deps.clock.now());
    } catch (e) {
      // The transfer may have left: it is never signed or sent again; the lookup settles it.
      this.deps.log.warn({ batchId, orders: picked.length, err: e }, 'fragment batch send outcome unknown');
    }
    return { batchId, orderIds: picked.map((p) => p.orderId) };
  }

  /**
   * The oldest fresh payments that fit: at most FRAGMENT_BATCH_MAX orders, the wallet's limit of messages,
   * and the balance (each payment plus the fee reserve). A payment the whole balance cannot cover marks its
   * product short of funds (an alert; that product's new orders get 503); stale ones leave the pool.
   */
  private pick(balanceNano: bigint): PreparedPayment[] {
    const picked: PreparedPayment[] = [];
    let messages = 0;
    let need = 0n;
    for (const p of this.pool.values()) {
      if (picked.length >= this.cfg.batchMax) break;
      if (!this.fresh(p)) {
        this.pool.delete(p.orderId);
        continue;
      }
      const cost = p.totalNano + this.cfg.feeReserveNano;
      if (cost > balanceNano) {
        this.walletState.markFundsLow(p.product, balanceNano, cost);
        continue;
      }
      if (messages + p.messages.length > this.wallet.maxMessages || need + cost > balanceNano) continue;
      picked.push(p);
      messages += p.messages.length;
      need += cost;
    }
    return picked;
  }

  private wait(problem: string): null {
    this.notBefore = this.deps.clock.now() + WALLET_RETRY_MS;
    if (this.lastProblem !== problem) this.deps.log.warn({ problem }, 'fragment batch waits');
    this.lastProblem = problem;
    return null;
  }
}
