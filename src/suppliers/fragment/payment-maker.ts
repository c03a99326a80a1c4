import type { Clock } from '../../kernel/clock.js';
import type { Db } from '../../store/db.js';
import { getPayment, lastUsedSeqno, paymentWithRef, putPayment, unsettledPayments, updatePayment } from '../../store/fragment-payments-repo.js';
import type { Logger } from '../../kernel/log.js';
import type { Toncenter, WalletState } from '../chains/toncenter-wallet.js';
import { UpstreamUnavailable, type DeliveryOutcome, type DeliveryRequest } from '../types.js';
import type { FragmentConfig } from '../../config/fragment.js';
import { FragmentAlreadyPremium, FragmentRejected, type FragmentApi, type FragmentProduct, type LinkAnswer } from './fragment-api.js';
import { DOWN_RETRY_SEC, type FragmentHealth } from './fragment-health.js';
import type { HotWalletState } from './hot-wallet-state.js';
import { checkComment, checkPayment, maxWithTolerance } from './payment-checks.js';
import { SETTLE_POLL_MS, type PaymentSettler } from './payment-settler.js';
import type { HotWallet } from './wallet.js';

const FUNDS_RETRY_SEC = 300;

/**
 * Makes one new payment for an order: search the recipient, open the request, ask for the transaction,
 * check it (destinations, amount against the order's own cost, validUntil, the comment's quantity and
 * reference), read the wallet, sign, COMMIT THE ROW, send, confirm. Runs one at a time per wallet.
 */
export class PaymentMaker {
  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger },
    private readonly cfg: FragmentConfig,
    private readonly wallet: HotWallet,
    private readonly api: FragmentApi,
    private readonly chain: Toncenter,
    private readonly health: FragmentHealth,
    private readonly walletState: HotWalletState,
    private readonly settler: PaymentSettler,
  ) {}

  async pay(req: DeliveryRequest, costNano: bigint): Promise<DeliveryOutcome> {
    // A second call for this order queued behind the first (it never should): it only settles what the first did.
    const own = getPayment(this.deps.db, req.orderId);
    if (own && own.state !== 'void') return this.settler.settled(own);
    const walletRaw = this.wallet.address.toRawString();
    if (unsettledPayments(this.deps.db, walletRaw).some((p) => p.orderId !== req.orderId)) return this.settler.pending(SETTLE_POLL_MS);
    const product: FragmentProduct = req.product;
    let answer: LinkAnswer;
    let reqId: string;
    try {
      const found = await this.health.call(() => this.api.search(product, req.username, product === 'premium' ? req.quantity : 3));
      if (found.kind === 'not_found') return { kind: 'failed', detail: 'recipient not found on Fragment' };
      if (found.kind === 'already_premium') return { kind: 'deferred' };
      const init = await this.health.call(() => this.api.init(product, found.found.recipient, req.quantity));
      reqId = init.reqId;
      answer = await this.health.call(() => this.api.link(product, init.reqId, this.wallet.account()), 'link');
    } catch (e) {
      if (e instanceof FragmentAlreadyPremium) return { kind: 'deferred' };
      // Fragment refused this request (nothing was paid): the order fails and is refunded
      if (e instanceof FragmentRejected) return { kind: 'failed', detail: `Fragment refused: ${e.message}` };
      throw e;
    }
    const tx = answer.transaction;
    const nowSec = Math.floor(this.deps.clock.now() / 1000);
    const check = checkPayment(tx, { allowed: this.cfg.payAddresses, maxNano: maxWithTolerance(costNano, this.cfg.toleranceBps), nowSec, maxValidSec: this.cfg.maxValidSec });
    if (!check.ok) return this.refuse(req.orderId, check.reason);
    const comment = checkComment(tx, { product, quantity: req.quantity });
    if (!comment.ok) return this.refuse(req.orderId, comment.reason);
    // a reference Fragment already handed out for a paid request is not paid twice
    const earlier = paymentWithRef(this.deps.db, comment.ref);
    if (earlier && earlier.orderId !== req.orderId) return this.refuse(req.orderId, `the reference Ref#${comment.ref} was already paid for order ${earlier.orderId}`);
    let w: WalletState;
    try {
      w = await this.walletState.refresh();
    } catch (e) {
      throw new UpstreamUnavailable(DOWN_RETRY_SEC, `wallet state not read: ${(e as Error).message}`);
    }
    // toncenter may not show yet the seqno a settled payment used: signing with it would never execute
    const used = lastUsedSeqno(this.deps.db, walletRaw);
    if (used !== null && w.seqno <= used) return this.settler.pending(SETTLE_POLL_MS);
    const needNano = check.totalNano + this.cfg.feeReserveNano;
    if (w.balanceNano < needNano) {
      this.walletState.markFundsLow(product, w.balanceNano, needNano);
      throw new UpstreamUnavailable(FUNDS_RETRY_SEC, 'hot wallet balance too low');
    }
    const validUntil = Math.min(tx.validUntil, nowSec + this.cfg.sendTtlSec);
    const signed = this.wallet.sign(tx.messages, w.seqno, validUntil, w.deployed);
    const now = this.deps.clock.now();
    // Written before the message leaves: from here on this order can only be settled by the chain.
    putPayment(this.deps.db, {
      orderId: req.orderId,
      product,
      state: 'signed',
      wallet: walletRaw,
      seqno: w.seqno,
      validUntil,
      normHash: signed.normHash,
      boc: signed.boc,
      amountNano: check.totalNano.toString(),
      reqId,
      ref: comment.ref,
      confirmMethod: answer.confirm?.method ?? null,
      confirmParams: answer.confirm?.params ?? null,
      confirmedAt: null,
      txHash: null,
      txLt: null,
      detail: null,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.chain.send(signed.boc);
      updatePayment(this.deps.db, req.orderId, { state: 'sent', updatedAt: this.deps.clock.now() });
    } catch (e) {
      // The message may have left: it is never signed again; the lookup settles it.
      this.deps.log.warn({ orderId: req.orderId, err: e }, 'fragment payment send outcome unknown');
    }
    await this.settler.confirmToFragment(getPayment(this.deps.db, req.orderId)!);
    return this.settler.pending(SETTLE_POLL_MS);
  }

  /** A transaction that fails a check is never signed: the order fails (refunded) and operators are told. */
  private refuse(orderId: string, reason: string): DeliveryOutcome {
    this.health.alert('payment_refused', `order ${orderId}: ${reason}`);
    return { kind: 'failed', detail: `payment refused before signing: ${reason}` };
  }
}
