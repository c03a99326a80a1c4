import pLimit, { type LimitFunction } from 'p-limit';
import type { Clock } from '../../kernel/clock.js';
import type { Db } from '../../store/db.js';
import { paymentWithRef } from '../../store/fragment-payments-repo.js';
import type { DeliveryOutcome, DeliveryRequest } from '../types.js';
import type { FragmentConfig } from '../../config/fragment.js';
import { FragmentAlreadyPremium, FragmentRejected, type FragmentApi, type LinkAnswer, type LinkMessage } from './fragment-api.js';
import type { FragmentHealth } from './fragment-health.js';
import { checkComment, checkPayment, maxWithTolerance } from './payment-checks.js';
import type { HotWallet } from './wallet.js';

/** An order's Fragment request, checked and ready to be signed into a batch. */
export interface PreparedPayment {
  orderId: string;
  product: 'stars' | 'premium';
  quantity: number;
  reqId: string;
  ref: string;
  messages: LinkMessage[];
  totalNano: bigint;
  /** Fragment's validUntil of the request's transaction (unix seconds) */
  validUntil: number;
  confirm: LinkAnswer['confirm'];
  /** when it was prepared (service clock, ms): batches take the oldest first */
  preparedAt: number;
}

/**
 * Prepares the purchases of orders: search the recipient, open the request, ask for the transaction, check
 * it (destinations, amount against the order's own cost, validUntil, the comment's quantity and reference).
 * Many orders are prepared at once, at most FRAGMENT_PREPARE_CONCURRENCY at a time, and a 429 from Fragment
 * pauses every call (FragmentApi): an answer about one recipient or request decides that order only.
 * Nothing here signs or pays.
 */
export class PurchasePreparer {
  /** Preparations under way at once. */
  private readonly limit: LimitFunction;

  constructor(
    private readonly deps: { db: Db; clock: Clock },
    private readonly cfg: FragmentConfig,
    private readonly wallet: HotWallet,
    private readonly api: FragmentApi,
    private readonly health: FragmentHealth,
    /** references held by payments being prepared or waiting for a batch (not written yet) */
    private readonly refHeldElsewhere: (ref: string, orderId: string) => string | null,
  ) {
    this.limit = pLimit(cfg.prepareConcurrency);
  }

  /** Preparations under way (queued or running). */
  private readonly underWay = new Set<Promise<unknown>>();

  /** A checked payment, or the order's outcome when it cannot be paid (failed, deferred). */
  prepare(req: DeliveryRequest, costNano: bigint): Promise<PreparedPayment | DeliveryOutcome> {
    const run = this.limit(() => this.run(req, costNano));
    // tracked without its outcome: the caller handles the result or the error
    const tracked = run.then(
      () => undefined,
      () => undefined,
    );
    this.underWay.add(tracked);
    void tracked.then(() => this.underWay.delete(tracked));
    return run;
  }

  /**
   * Resolves once the preparations under way now have ended (whatever their outcome), or after `capMs` of
   * real time: a batch about to form takes the orders whose requests are being opened at that moment too.
   */
  async settled(capMs: number): Promise<void> {
    // order steps started in the same turn of the event loop register their preparations first
    await new Promise((r) => setImmediate(r));
    if (this.underWay.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs)));
    try {
      await Promise.race([Promise.allSettled([...this.underWay]), cap]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(req: DeliveryRequest, costNano: bigint): Promise<PreparedPayment | DeliveryOutcome> {
    const product = req.product;
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
    const now = this.deps.clock.now();
    const check = checkPayment(tx, { allowed: this.cfg.payAddresses, maxNano: maxWithTolerance(costNano, this.cfg.toleranceBps), nowSec: Math.floor(now / 1000), maxValidSec: this.cfg.maxValidSec });
    if (!check.ok) return this.refuse(req.orderId, check.reason);
    const comment = checkComment(tx, { product, quantity: req.quantity });
    if (!comment.ok) return this.refuse(req.orderId, comment.reason);
    // a reference Fragment already handed out for a paid (or waiting) request is not paid twice
    const earlier = paymentWithRef(this.deps.db, comment.ref)?.orderId ?? this.refHeldElsewhere(comment.ref, req.orderId);
    if (earlier !== null && earlier !== req.orderId) return this.refuse(req.orderId, `the reference Ref#${comment.ref} was already paid for order ${earlier}`);
    return {
      orderId: req.orderId,
      product,
      quantity: req.quantity,
      reqId,
      ref: comment.ref,
      messages: tx.messages,
      totalNano: check.totalNano,
      validUntil: tx.validUntil,
      confirm: answer.confirm,
      preparedAt: now,
    };
  }

  /** A transaction that fails a check is never signed: the order fails (refunded) and operators are told. */
  private refuse(orderId: string, reason: string): DeliveryOutcome {
    this.health.alert('payment_refused', `order ${orderId}: ${reason}`);
    return { kind: 'failed', detail: `payment refused before signing: ${reason}` };
  }
}
