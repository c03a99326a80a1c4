import type { Decimal } from 'decimal.js';
import type { Clock } from '../../kernel/clock.js';
import type { EventBus } from '../../kernel/event-bus.js';
import type { SupplierCosts } from '../../domain/pricing.js';
import type { Db } from '../../store/db.js';
import { getPayment, lastUsedSeqno, orderCostNano, putPayment, unsettledPayments, updatePayment, type FragmentPaymentRow } from '../../store/fragment-payments-repo.js';
import type { Logger } from '../../kernel/log.js';
import { normaliseUsername, type SandboxUpstream } from '../sandbox/sandbox-upstream.js';
import { SupplierDown, UpstreamUnavailable, type DeliveryOutcome, type DeliveryRequest, type GoodsProduct, type Recipient, type Suppliers } from '../types.js';
import { fromNano, toNano, type FragmentConfig } from '../../config/fragment.js';
import { FragmentAlreadyPremium, FragmentDown, FragmentRejected, type FragmentApi, type FragmentProblem, type FragmentProduct } from './fragment-api.js';
import { checkPayment, evidenceProblem, maxWithTolerance } from './payment-checks.js';
import { fetchTonUsd, nanoToCents } from './ton-rate.js';
import type { Toncenter, WalletState } from '../chains/toncenter-wallet.js';
import type { HotWallet } from './wallet.js';

/**
 * UPSTREAM=fragment: Stars and Premium bought on Fragment and paid from the operator's hot wallet; gifts
 * stay on the sandbox market. `deliver` is a small state machine over the order's payment row
 * (src/store/schema-fragment.ts):
 *
 *   no row / void → search recipient → init → link → check → sign → ROW WRITTEN (signed) → send → sent
 *                 → Fragment's confirm call (advisory)
 *   signed / sent → on-chain lookup by normalised hash → paid (delivered) | review (manual review)
 *                 → expired with the seqno unused → void (provably unpaid: a fresh attempt may pay)
 *
 * The row is committed before the message leaves, so a crash or a timeout after sending never pays twice:
 * the order waits for the lookup, and goes to manual review if the lookup has not settled within the bound.
 * One payment at a time per wallet (its seqno): others wait while one is unsettled. Every payment of an
 * order is checked against the order's own TON cost (fixed at its first delivery step) plus the tolerance.
 */

export interface FragmentDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  bus: EventBus;
}

interface Prices {
  starsPer1000Nano: bigint;
  premiumNano: Record<3 | 6 | 12, bigint>;
  usdPerTon: Decimal;
  at: number;
}

/** A payment not found on chain is looked up again this often. */
const SETTLE_POLL_MS = 5_000;
/** After validUntil, the index may still be catching up: this long before the seqno is trusted. */
const EXPIRY_GRACE_SEC = 30;
/** How long new orders are told to wait while Fragment or the wallet is down. */
const DOWN_RETRY_SEC = 60;
const FUNDS_RETRY_SEC = 300;
/** Prices older than this many TTLs are not used (`cost_unavailable`). */
const STALE_TTLS = 5;

export class FragmentUpstream implements Suppliers {
  readonly name = 'fragment';
  readonly gifts: Suppliers['gifts'];

  private problem: { kind: FragmentProblem; detail: string; since: number } | null = null;
  /** Per product: the wallet could not pay that product's next order (new orders of it get 503 until topped up). */
  private fundsLow: Partial<Record<GoodsProduct, { balanceNano: bigint; needNano: bigint }>> = {};
  private belowMinAlerted = false;
  private prices: Prices | null = null;
  private lastWallet: (WalletState & { at: number }) | null = null;
  private payQueue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: FragmentDeps,
    private readonly cfg: FragmentConfig,
    readonly wallet: HotWallet,
    private readonly api: FragmentApi,
    private readonly chain: Toncenter,
    sandbox: SandboxUpstream,
  ) {
    this.gifts = sandbox.gifts;
    this.nftStatus = (p) => sandbox.goods.status(p);
  }

  private readonly nftStatus: (p: 'nft') => ReturnType<Suppliers['goods']['status']>;

  // --- background refresh: prices, rate, wallet ---------------------------------------------------

  /** Refreshes prices now and then every FRAGMENT_PRICE_TTL_SEC (real timers; the work reads the clock). */
  start(): void {
    if (this.timer) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.cfg.priceTtlSec * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reads Fragment's prices (for the probe account), the TON/USD rate and the wallet's balance. */
  async refresh(): Promise<void> {
    await Promise.all([this.refreshPrices(), this.refreshWallet().catch((e) => this.deps.log.warn({ err: e }, 'fragment wallet balance not read'))]);
  }

  private async refreshPrices(): Promise<void> {
    try {
      const [usdPerTon, stars, p3, p6, p12] = await Promise.all([
        fetchTonUsd(this.cfg.tonUsdUrl),
        this.quote('stars', 1000),
        this.quote('premium', 3),
        this.quote('premium', 6),
        this.quote('premium', 12),
      ]);
      this.prices = { starsPer1000Nano: stars.nano, premiumNano: { 3: p3.nano, 6: p6.nano, 12: p12.nano }, usdPerTon, at: this.deps.clock.now() };
      this.cleared('call');
      // KYC shows only when a transaction is asked for: while it is the problem, ask for the probe's (never
      // signed), so the 503 ends when Fragment lets the account pay again even with no order waiting
      if (this.problem?.kind === 'need_verify') {
        await this.api.link('stars', stars.reqId, this.wallet.account());
        this.cleared('link');
      }
    } catch (e) {
      if (e instanceof FragmentDown) this.markProblem(e);
      else this.deps.log.warn({ err: e }, 'fragment prices not read');
    }
  }

  /** Fragment's price in nanoTON for `quantity` (stars) or months (premium), for the probe account. */
  private async quote(product: FragmentProduct, quantity: number): Promise<{ nano: bigint; reqId: string }> {
    const s = await this.api.search(product, this.cfg.probeUsername, quantity);
    if (s.kind !== 'found') throw new Error(`price probe account ${s.kind} on Fragment (${product})`);
    const init = await this.api.init(product, s.found.recipient, quantity);
    return { nano: toNano(trimTon(init.amountTon)), reqId: init.reqId };
  }

  async refreshWallet(): Promise<WalletState> {
    const w = await this.chain.wallet(this.wallet.address.toString());
    this.lastWallet = { ...w, at: this.deps.clock.now() };
    if (w.balanceNano < this.cfg.walletMinNano) {
      if (!this.belowMinAlerted)
        this.alert('wallet_below_min', `hot wallet balance below FRAGMENT_WALLET_MIN_TON`, { balance_ton: fromNano(w.balanceNano), need_ton: fromNano(this.cfg.walletMinNano) });
      this.belowMinAlerted = true;
    } else this.belowMinAlerted = false;
    for (const [product, low] of Object.entries(this.fundsLow) as [GoodsProduct, { needNano: bigint }][]) if (w.balanceNano >= low.needNano) delete this.fundsLow[product];
    return w;
  }

  // --- state shown to operators -------------------------------------------------------------------

  walletView() {
    const w = this.lastWallet;
    return {
      address: this.wallet.friendlyAddress,
      address_raw: this.wallet.address.toRawString(),
      version: this.wallet.version,
      balance_ton: w ? fromNano(w.balanceNano) : null,
      seqno: w ? w.seqno : null,
      deployed: w ? w.deployed : null,
      checked_at: w ? new Date(w.at).toISOString() : null,
      min_ton: fromNano(this.cfg.walletMinNano),
      below_min: w ? w.balanceNano < this.cfg.walletMinNano : null,
      funds_low: Object.keys(this.fundsLow).length
        ? Object.fromEntries(Object.entries(this.fundsLow).map(([product, l]) => [product, { balance_ton: fromNano(l.balanceNano), need_ton: fromNano(l.needNano) }]))
        : null,
      fragment: this.problem ? { ok: false, problem: this.problem.kind, since: new Date(this.problem.since).toISOString() } : { ok: true, problem: null, since: null },
      prices_at: this.prices ? new Date(this.prices.at).toISOString() : null,
    };
  }

  /** For /metrics (src/ops/metrics.ts): the hot wallet's address and last known balance. */
  walletGauge() {
    const w = this.lastWallet;
    return {
      address: this.wallet.friendlyAddress,
      version: this.wallet.version,
      balanceTon: w ? Number(fromNano(w.balanceNano)) : null,
      minTon: Number(fromNano(this.cfg.walletMinNano)),
      up: this.problem === null && Object.keys(this.fundsLow).length === 0,
    };
  }

  paymentView(orderId: string) {
    const p = getPayment(this.deps.db, orderId);
    if (!p) return null;
    return {
      order_id: p.orderId,
      state: p.state,
      amount_ton: fromNano(BigInt(p.amountNano)),
      seqno: p.seqno,
      valid_until: p.validUntil,
      message_hash: p.normHash,
      tx_hash: p.txHash,
      tx_lt: p.txLt,
      confirmed_at: p.confirmedAt === null ? null : new Date(p.confirmedAt).toISOString(),
      detail: p.detail,
      attempts: p.attempts,
    };
  }

  // --- problems and alerts ------------------------------------------------------------------------

  private alert(problem: string, detail: string, extra: { balance_ton?: string; need_ton?: string } = {}): void {
    this.deps.log.warn({ problem, detail, ...extra }, 'fragment supplier alert');
    this.deps.bus.emit('alert', { kind: 'supplier', supplier: 'fragment', problem, detail, ...extra });
  }

  private markProblem(e: FragmentDown): void {
    if (this.problem?.kind !== e.problem) this.alert(e.problem, e.message);
    this.problem = { kind: e.problem, detail: e.message, since: this.problem?.since ?? this.deps.clock.now() };
  }

  /**
   * A Fragment call succeeded. Any success shows the session works and Fragment answers; only a transaction
   * link handed out shows that KYC no longer blocks payments (Fragment asks for it at that step alone).
   */
  private cleared(by: 'call' | 'link'): void {
    if (!this.problem || (this.problem.kind === 'need_verify' && by !== 'link')) return;
    this.deps.log.info({ problem: this.problem.kind }, 'fragment back up');
    this.problem = null;
  }

  /** Runs a Fragment call; a FragmentDown marks the problem and becomes UpstreamUnavailable (wait, retry). */
  private async fragment<T>(fn: () => Promise<T>, by: 'call' | 'link' = 'call'): Promise<T> {
    try {
      const r = await fn();
      this.cleared(by);
      return r;
    } catch (e) {
      if (e instanceof FragmentDown) {
        this.markProblem(e);
        throw new SupplierDown(DOWN_RETRY_SEC, e.message);
      }
      throw e;
    }
  }

  // --- Suppliers ----------------------------------------------------------------------------------

  /** A recipient search; an answer Fragment gives that we do not know is a resolver failure (502 resolver_error). */
  private async search(product: FragmentProduct, username: string, months?: number) {
    try {
      return await this.fragment(() => this.api.search(product, username, months));
    } catch (e) {
      if (e instanceof FragmentRejected) throw new UpstreamUnavailable(DOWN_RETRY_SEC, `Fragment search: ${e.message}`);
      throw e;
    }
  }

  readonly resolver = {
    resolve: async (username: string): Promise<Recipient | null> => {
      const u = normaliseUsername(username);
      if (!u) return null;
      const stars = await this.search('stars', u);
      if (stars.kind !== 'found') return null;
      const premium = await this.search('premium', u, 3);
      return { username: u, displayName: stars.found.name, premiumActive: premium.kind === 'already_premium', canReceiveGifts: true };
    },
    checkGameUser: async (username: string) => {
      const u = normaliseUsername(username);
      if (!u) return { found: false };
      const r = await this.search('stars', u);
      return r.kind === 'found' ? { found: true, displayName: r.found.name } : { found: false };
    },
  };

  readonly goods = {
    firstCallDelayMs: 0,
    costs: (): SupplierCosts | null => {
      const p = this.prices;
      if (!p || this.deps.clock.now() - p.at > STALE_TTLS * this.cfg.priceTtlSec * 1000) return null;
      return {
        starsPer1000: nanoToCents(p.starsPer1000Nano, p.usdPerTon),
        premium: { 3: nanoToCents(p.premiumNano[3], p.usdPerTon), 6: nanoToCents(p.premiumNano[6], p.usdPerTon), 12: nanoToCents(p.premiumNano[12], p.usdPerTon) },
      };
    },
    status: (product: GoodsProduct | 'nft') => {
      if (product === 'nft') return this.nftStatus('nft');
      if (this.problem) return { up: false, retryAfterSec: DOWN_RETRY_SEC } as const;
      if (this.fundsLow[product]) return { up: false, retryAfterSec: FUNDS_RETRY_SEC } as const;
      return { up: true } as const;
    },
    deliver: (req: DeliveryRequest): Promise<DeliveryOutcome> => this.deliver(req),
    // a payment that may have left (or did) and whose order has no outcome yet: support must not cancel it
    paymentInFlight: (orderId: string): boolean => {
      const row = getPayment(this.deps.db, orderId);
      return row !== undefined && row.state !== 'void';
    },
  };

  private async deliver(req: DeliveryRequest): Promise<DeliveryOutcome> {
    const row = getPayment(this.deps.db, req.orderId);
    if (row && row.state !== 'void') return this.settled(row);
    // The order's cost is fixed now, before it waits for its turn: the first call comes right after the
    // order was accepted, so this is the cost its price was made from.
    const prices = this.prices;
    if (!prices) throw new UpstreamUnavailable(DOWN_RETRY_SEC, 'Fragment prices not known yet');
    const costNano = orderCostNano(this.deps.db, req.orderId, costOf(prices, req.product, req.quantity), this.deps.clock.now());
    // a new payment: one at a time per wallet, so the seqno read below is the one the chain will expect
    const run = this.payQueue.then(() => this.pay(req, costNano));
    this.payQueue = run.catch(() => undefined);
    return run;
  }

  private settled(row: FragmentPaymentRow): Promise<DeliveryOutcome> | DeliveryOutcome {
    if (row.state === 'paid') return { kind: 'delivered' };
    if (row.state === 'review') return { kind: 'unconfirmed' };
    return this.settle(row);
  }

  private pending(afterMs: number): DeliveryOutcome {
    return { kind: 'pending', retryAt: this.deps.clock.now() + afterMs };
  }

  private async pay(req: DeliveryRequest, costNano: bigint): Promise<DeliveryOutcome> {
    // A second call for this order queued behind the first (it never should): it only settles what the first did.
    const own = getPayment(this.deps.db, req.orderId);
    if (own && own.state !== 'void') return this.settled(own);
    const walletRaw = this.wallet.address.toRawString();
    if (unsettledPayments(this.deps.db, walletRaw).some((p) => p.orderId !== req.orderId)) return this.pending(SETTLE_POLL_MS);
    const product: FragmentProduct = req.product;
    let answer;
    let reqId;
    try {
      const found = await this.fragment(() => this.api.search(product, req.username, product === 'premium' ? req.quantity : 3));
      if (found.kind === 'not_found') return { kind: 'failed', detail: 'recipient not found on Fragment' };
      if (found.kind === 'already_premium') return { kind: 'deferred' };
      const init = await this.fragment(() => this.api.init(product, found.found.recipient, req.quantity));
      reqId = init.reqId;
      answer = await this.fragment(() => this.api.link(product, init.reqId, this.wallet.account()), 'link');
    } catch (e) {
      if (e instanceof FragmentAlreadyPremium) return { kind: 'deferred' };
      // Fragment refused this request (nothing was paid): the order fails and is refunded
      if (e instanceof FragmentRejected) return { kind: 'failed', detail: `Fragment refused: ${e.message}` };
      throw e;
    }
    const tx = answer.transaction;
    const nowSec = Math.floor(this.deps.clock.now() / 1000);
    const check = checkPayment(tx, { allowed: this.cfg.payAddresses, maxNano: maxWithTolerance(costNano, this.cfg.toleranceBps), nowSec, maxValidSec: this.cfg.maxValidSec });
    if (!check.ok) {
      this.alert('payment_refused', `order ${req.orderId}: ${check.reason}`);
      return { kind: 'failed', detail: `payment refused before signing: ${check.reason}` };
    }
    let w: WalletState;
    try {
      w = await this.refreshWallet();
    } catch (e) {
      throw new UpstreamUnavailable(DOWN_RETRY_SEC, `wallet state not read: ${(e as Error).message}`);
    }
    // toncenter may not show yet the seqno a settled payment used: signing with it would never execute
    const used = lastUsedSeqno(this.deps.db, walletRaw);
    if (used !== null && w.seqno <= used) return this.pending(SETTLE_POLL_MS);
    const needNano = check.totalNano + this.cfg.feeReserveNano;
    if (w.balanceNano < needNano) {
      if (!this.fundsLow[product]) this.alert('wallet_funds_low', `the hot wallet cannot pay the next ${product} order`, { balance_ton: fromNano(w.balanceNano), need_ton: fromNano(needNano) });
      this.fundsLow[product] = { balanceNano: w.balanceNano, needNano };
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
    await this.confirmToFragment(getPayment(this.deps.db, req.orderId)!);
    return this.pending(SETTLE_POLL_MS);
  }

  /**
   * Tells Fragment about the sent message as its page does (the link answer's confirm call), once. Advisory:
   * its failure changes nothing about the payment, which the chain settles; a later settle step tries again
   * while the message is still valid (a crash between sending and this call included).
   */
  private async confirmToFragment(row: FragmentPaymentRow): Promise<void> {
    if (!row.confirmMethod || row.confirmedAt !== null) return;
    try {
      await this.api.confirm(row.product as FragmentProduct, { method: row.confirmMethod, params: row.confirmParams ?? {} }, this.wallet.account(), row.boc);
      updatePayment(this.deps.db, row.orderId, { confirmedAt: this.deps.clock.now() });
      this.cleared('call');
    } catch (e) {
      if (e instanceof FragmentDown) this.markProblem(e);
      this.deps.log.warn({ orderId: row.orderId, err: e }, 'fragment confirm call failed (the chain settles the payment)');
    }
  }

  /** Settles a payment that may have left, by the chain alone. */
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
      if (problem === null) {
        updatePayment(this.deps.db, row.orderId, { state: 'paid', txHash: tx.hash, txLt: tx.lt, updatedAt: now });
        return { kind: 'delivered' };
      }
      updatePayment(this.deps.db, row.orderId, { state: 'review', txHash: tx.hash, txLt: tx.lt, detail: problem, updatedAt: now });
      return { kind: 'unconfirmed' };
    }
    const nowSec = Math.floor(now / 1000);
    if (nowSec <= row.validUntil + EXPIRY_GRACE_SEC) {
      await this.confirmToFragment(row);
      return this.pending(SETTLE_POLL_MS);
    }
    const pastBound = nowSec > row.validUntil + this.cfg.lookupBoundSec;
    let w: WalletState;
    try {
      w = await this.refreshWallet();
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

  private toReview(row: FragmentPaymentRow, detail: string): DeliveryOutcome {
    updatePayment(this.deps.db, row.orderId, { state: 'review', detail, updatedAt: this.deps.clock.now() });
    return { kind: 'unconfirmed' };
  }
}

/** The TON cost (nanoTON) of `quantity` stars (pro rata of 1000, rounded up) or of a Premium term. */
function costOf(p: Prices, product: GoodsProduct, quantity: number): bigint {
  return product === 'stars' ? (p.starsPer1000Nano * BigInt(quantity) + 999n) / 1000n : p.premiumNano[quantity as 3 | 6 | 12];
}

/** Fragment writes amounts like "0.2596" or "12.5": at most 9 decimals are meaningful. */
function trimTon(s: string): string {
  const [w, f = ''] = s.split('.');
  return f ? `${w}.${f.slice(0, 9)}` : w;
}
