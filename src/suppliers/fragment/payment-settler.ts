import type { Clock } from '../../kernel/clock.js';
import type { Db } from '../../store/db.js';
import { getPayment, updatePayment, type FragmentPaymentRow } from '../../store/fragment-payments-repo.js';
import type { Logger } from '../../kernel/log.js';
import type { Toncenter, WalletState } from '../chains/toncenter-wallet.js';
import type { DeliveryOutcome } from '../types.js';
import type { FragmentConfig } from '../../config/fragment.js';
import type { FragmentApi, FragmentProduct } from './fragment-api.js';
import { FragmentDown } from './fragment-api.js';
import type { FragmentHealth } from './fragment-health.js';
import type { HotWalletState } from './hot-wallet-state.js';
import { evidenceProblem } from './payment-checks.js';
import type { HotWallet } from './wallet.js';

/** A payment not found on chain is looked up again this often. */
export const SETTLE_POLL_MS = 5_000;
/** After validUntil, the index may still be catching up: this long before the seqno is trusted. */
const EXPIRY_GRACE_SEC = 30;

export interface SettleDeps {
  db: Db;
  clock: Clock;
  log: Logger;
}

/**
 * Settles a payment that may have left, by the chain alone: the wallet's transaction for the signed message
 * (its evidence), then the transaction of each of its messages at Fragment's address, which shows whether
 * Fragment took the TON or bounced it back. Also makes Fragment's advisory confirm call.
 */
export class PaymentSettler {
  constructor(
    private readonly deps: SettleDeps,
    private readonly cfg: FragmentConfig,
    private readonly wallet: HotWallet,
    private readonly api: FragmentApi,
    private readonly chain: Toncenter,
    private readonly health: FragmentHealth,
    private readonly walletState: HotWalletState,
  ) {}

  pending(afterMs: number): DeliveryOutcome {
    return { kind: 'pending', retryAt: this.deps.clock.now() + afterMs };
  }

  /** The outcome of a payment row that exists (not void). */
  settled(row: FragmentPaymentRow): Promise<DeliveryOutcome> | DeliveryOutcome {
    if (row.state === 'paid') return { kind: 'delivered' };
    if (row.state === 'review') return { kind: 'unconfirmed' };
    return this.settle(row);
  }

  /**
   * Tells Fragment about the sent message as its page does (the link answer's confirm call), once. Advisory:
   * its failure changes nothing about the payment, which the chain settles; a later settle step tries again
   * while the message is still valid (a crash between sending and this call included).
   */
  async confirmToFragment(row: FragmentPaymentRow): Promise<void> {
    if (!row.confirmMethod || row.confirmedAt !== null) return;
    try {
      await this.api.confirm(row.product as FragmentProduct, { method: row.confirmMethod, params: row.confirmParams ?? {} }, this.wallet.account(), row.boc);
      updatePayment(this.deps.db, row.orderId, { confirmedAt: this.deps.clock.now() });
      this.health.cleared('call');
    } catch (e) {
      if (e instanceof FragmentDown) this.health.markProblem(e);
      this.deps.log.warn({ orderId: row.orderId, err: e }, 'fragment confirm call failed (the chain settles the payment)');
    }
  }

  private async settle(row: FragmentPaymentRow): Promise<DeliveryOutcome> {
    let tx = null;
    try {
      tx = await this.chain.transactionByMessage(row.normHash);
    } catch (e) {
      // the index is down: the seqno and the bound below still apply
      this.deps.log.warn({ orderId: row.orderId, err: e }, 'fragment payment lookup failed');
    }
    const now = this.deps.clock.now();
    if (tx) {
      const problem = evidenceProblem(tx, { allowed: this.cfg.payAddresses, totalNano: BigInt(row.amountNano) });
      if (problem !== null) {
        updatePayment(this.deps.db, row.orderId, { state: 'review', txHash: tx.hash, txLt: tx.lt, detail: problem, updatedAt: now });
        return { kind: 'unconfirmed' };
      }
      if (row.txHash !== tx.hash) updatePayment(this.deps.db, row.orderId, { txHash: tx.hash, txLt: tx.lt, updatedAt: now });
      return this.receipt(getPayment(this.deps.db, row.orderId)!, tx);
    }
    const nowSec = Math.floor(now / 1000);
    if (nowSec <= row.validUntil + EXPIRY_GRACE_SEC) {
      await this.confirmToFragment(row);
      return this.pending(SETTLE_POLL_MS);
    }
    const pastBound = nowSec > row.validUntil + this.cfg.lookupBoundSec;
    let w: WalletState;
    try {
      w = await this.walletState.refresh();
    } catch (e) {
      this.deps.log.warn({ orderId: row.orderId, err: e }, 'fragment wallet state not read');
      // toncenter does not answer at all: nothing can be proven either way, so the bound applies
      if (pastBound) return this.toReview(row, 'not settled within the bound: toncenter does not answer (neither the lookup nor the wallet state)');
      return this.pending(SETTLE_POLL_MS);
    }
    if (w.seqno <= row.seqno) {
      // Expired and its seqno never used: this message can no longer be executed, so nothing was paid.
      updatePayment(this.deps.db, row.orderId, { state: 'void', detail: 'expired unexecuted (seqno unchanged)', updatedAt: now });
      return this.pending(0);
    }
    if (pastBound) return this.toReview(row, 'not found on chain within the bound, seqno moved on');
    return this.pending(SETTLE_POLL_MS);
  }

  /**
   * The wallet sent the payment: did Fragment's address take it? A bounced message (the TON came back) means
   * Fragment was not paid, so the order is not delivered: manual review with an alert (the operator refunds
   * or pays again; the TON is back on the wallet). Not found within the bound: manual review too.
   */
  private async receipt(row: FragmentPaymentRow, tx: { utime: number; outMessages: { hash?: string }[] }): Promise<DeliveryOutcome> {
    const now = this.deps.clock.now();
    let taken = 0;
    for (const m of tx.outMessages) {
      if (!m.hash) continue;
      let dest = null;
      try {
        dest = await this.chain.transactionByMessage(m.hash);
      } catch (e) {
        this.deps.log.warn({ orderId: row.orderId, err: e }, 'fragment receipt lookup failed');
      }
      if (dest && !dest.success) {
        this.health.alert('payment_bounced', `order ${row.orderId}: Fragment's address bounced the payment (the TON came back to the wallet)`);
        return this.toReview(row, 'bounced: Fragment did not take the payment, the TON came back to the wallet');
      }
      if (dest) taken++;
    }
    if (taken === tx.outMessages.length) {
      updatePayment(this.deps.db, row.orderId, { state: 'paid', updatedAt: now });
      return { kind: 'delivered' };
    }
    if (Math.floor(now / 1000) > tx.utime + this.cfg.lookupBoundSec) return this.toReview(row, "sent on chain, but Fragment's receipt not found within the bound");
    return this.pending(SETTLE_POLL_MS);
  }

  private toReview(row: FragmentPaymentRow, detail: string): DeliveryOutcome {
    updatePayment(this.deps.db, row.orderId, { state: 'review', detail, updatedAt: this.deps.clock.now() });
    return { kind: 'unconfirmed' };
  }
}
