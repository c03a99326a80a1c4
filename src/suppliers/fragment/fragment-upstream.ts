import pLimit from 'p-limit';
import type { Clock } from '../../kernel/clock.js';
import type { EventBus } from '../../kernel/event-bus.js';
import type { SupplierCosts } from '../../domain/pricing.js';
import type { Db } from '../../store/db.js';
import { fragmentOrderCostNano, getBatch, getPayment, orderCostNano } from '../../store/fragment-payments-repo.js';
import type { Logger } from '../../kernel/log.js';
import type { GoodsSide } from '../compose.js';
import { UpstreamUnavailable, type DeliveryOutcome, type DeliveryRequest, type GoodsPaymentEvidence, type GoodsProduct, type SupplierAccount, type SupplierFund } from '../types.js';
import { offsetIso } from '../../domain/time-format.js';
import type { Toncenter, WalletState } from '../chains/toncenter-wallet.js';
import { fromNano, type FragmentConfig } from '../../config/fragment.js';
import { FragmentDown, type FragmentApi } from './fragment-api.js';
import { DOWN_RETRY_SEC, FragmentHealth } from './fragment-health.js';
import { FragmentResolver } from './fragment-resolver.js';
import { HotWalletState } from './hot-wallet-state.js';
import { BatchPayer } from './batch-payer.js';
import { BatchSettler, SETTLE_POLL_MS } from './batch-settler.js';
import { PurchasePreparer } from './purchase-preparer.js';
import { costOf, FragmentPrices } from './prices.js';
import type { HotWallet } from './wallet.js';

/** An order waiting for a batch asks again this often (a batch forms as soon as the one in flight lands). */
const WAIT_POLL_MS = 1_000;
/** An order the whole wallet cannot pay waits this long (a top-up), its product refused meanwhile. */
const FUNDS_RETRY_SEC = 300;

/**
 * UPSTREAM=fragment: Stars and Premium bought on Fragment and paid from the operator's hot wallet (gifts
 * come from GIFTS_UPSTREAM, composed beside it in src/service.ts). This file wires the adapter's parts:
 *
 *   prices.ts             Fragment's prices for the probe account and the TON/USD rate (the catalog's costs)
 *   hot-wallet-state.ts   the wallet's balance and seqno, its money alerts
 *   fragment-health.ts    session / KYC / reachability problems and the operators' alerts
 *   fragment-resolver.ts  recipients
 *   purchase-preparer.ts  an order's Fragment request, checked (many at once, under a limit)
 *   batch-payer.ts        prepared payments gathered into one signed transfer: ROWS COMMITTED, then sent
 *   batch-settler.ts      settling by the chain: executed (per order by its Ref#) | void | review; receipts
 *
 *   no row / void → search recipient → init → link → check → waits for a batch
 *                 → batch: sign → BATCH AND ROWS WRITTEN (signed) → send → sent → Fragment's confirm calls
 *   signed / sent → lookup by normalised hash → executed: each order matched to its own messages by Ref#
 *                 → receipts at Fragment's address → paid (delivered) | bounced → review (that order only)
 *                 → expired with the seqno unused → void (provably unpaid: a fresh batch may pay)
 *
 * The rows are committed before the transfer leaves, so a crash or a timeout after sending never pays
 * twice. One batch in flight per wallet (its seqno); the next forms as soon as it is found on chain. Every
 * payment of an order is checked against the order's own TON cost (fixed at its first delivery step) plus
 * the tolerance.
 */

export interface FragmentDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  bus: EventBus;
}

/** How old the hot wallet's balance may be before the console's overview asks toncenter again. */
const FUNDS_FRESH_MS = 10_000;

export class FragmentUpstream implements GoodsSide, SupplierAccount {
  readonly name = 'fragment';
  readonly resolver: FragmentResolver;
  private readonly health: FragmentHealth;
  private readonly prices: FragmentPrices;
  private readonly walletState: HotWalletState;
  private readonly preparer: PurchasePreparer;
  private readonly payer: BatchPayer;
  private readonly settler: BatchSettler;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: FragmentDeps,
    private readonly cfg: FragmentConfig,
    readonly wallet: HotWallet,
    private readonly api: FragmentApi,
    chain: Toncenter,
  ) {
    this.health = new FragmentHealth(deps);
    this.prices = new FragmentPrices(deps.clock, cfg, api);
    this.walletState = new HotWalletState(deps.clock, cfg, wallet, chain, this.health);
    this.resolver = new FragmentResolver(api, this.health);
    this.preparer = new PurchasePreparer(deps, cfg, wallet, api, this.health, (ref, orderId) => this.payer.refHeld(ref, orderId));
    this.payer = new BatchPayer(deps, cfg, wallet, chain, this.walletState, (capMs) => this.preparer.settled(capMs));
    this.settler = new BatchSettler(deps, cfg, wallet, api, chain, this.health, this.walletState, pLimit(cfg.prepareConcurrency), async (voided) => {
      // a void batch's orders prepare again at their next step: the next batch waits for them
      if (voided) this.payer.hold(WAIT_POLL_MS + 500);
      else await this.kick(false);
    });
  }

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
      const { starsReqId } = await this.prices.read();
      this.health.cleared('call');
      // KYC shows only when a transaction is asked for: while it is the problem, ask for the probe's (never
      // signed), so the 503 ends when Fragment lets the account pay again even with no order waiting
      if (this.health.problem?.kind === 'need_verify') {
        await this.api.link('stars', starsReqId, this.wallet.account());
        this.health.cleared('link');
      }
    } catch (e) {
      if (e instanceof FragmentDown) this.health.markProblem(e);
      else this.deps.log.warn({ err: e }, 'fragment prices not read');
    }
  }

  refreshWallet(): Promise<WalletState> {
    return this.walletState.refresh();
  }

  // --- state shown to operators -------------------------------------------------------------------

  walletView() {
    const p = this.health.problem;
    return {
      ...this.walletState.view(),
      fragment: p ? { ok: false, problem: p.kind, since: new Date(p.since).toISOString() } : { ok: true, problem: null, since: null },
      prices_at: this.prices.current ? new Date(this.prices.current.at).toISOString() : null,
    };
  }

  /** the console's balance lookup under way, if any (funds()) */
  private fundsLookup: Promise<unknown> | null = null;

  /** The console's supplier funds: the hot wallet's last known balance, refreshed in the background (the overview never waits for toncenter). */
  funds(): SupplierFund[] {
    // toncenter answers one request a second without an API key, shared with the batches' lookups: an overview
    // refreshes a balance older than FUNDS_FRESH_MS, one lookup at a time, however often it is opened
    const last = this.walletState.last;
    if (!this.fundsLookup && (!last || this.deps.clock.now() - last.at >= FUNDS_FRESH_MS))
      this.fundsLookup = this.refreshWallet()
        .catch(() => undefined)
        .finally(() => (this.fundsLookup = null));
    const w = this.walletView();
    return w.balance_ton !== null && w.checked_at !== null ? [{ supplier: 'fragment', currency: 'TON', amount: w.balance_ton, updated_at: offsetIso(Date.parse(w.checked_at)), pays: 'USD' }] : [];
  }

  /** For /metrics (src/ops/metrics.ts): the hot wallet's address and last known balance. */
  walletGauge() {
    const w = this.walletState.last;
    return {
      address: this.wallet.friendlyAddress,
      version: this.wallet.version,
      balanceTon: w ? Number(fromNano(w.balanceNano)) : null,
      minTon: Number(fromNano(this.cfg.walletMinNano)),
      up: this.health.problem === null && Object.keys(this.walletState.fundsLow).length === 0,
    };
  }

  paymentView(orderId: string) {
    const p = getPayment(this.deps.db, orderId);
    if (!p) return null;
    const b = getBatch(this.deps.db, p.batchId);
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
      batch: b ? { batch_id: b.batchId, state: b.state, orders: b.orders, messages: b.messages, amount_ton: fromNano(BigInt(b.amountNano)) } : null,
    };
  }

  // --- Suppliers ----------------------------------------------------------------------------------

  readonly goods = {
    firstCallDelayMs: 0,
    costs: (): SupplierCosts | null => this.prices.costs(),
    status: (product: GoodsProduct) => {
      if (this.health.problem) return { up: false, retryAfterSec: DOWN_RETRY_SEC } as const;
      if (this.walletState.fundsLow[product]) return { up: false, retryAfterSec: FUNDS_RETRY_SEC } as const;
      return { up: true } as const;
    },
    deliver: (req: DeliveryRequest): Promise<DeliveryOutcome> => this.deliver(req),
    /**
     * A payment that may have left (or did) and whose order has no outcome yet: support must not cancel it.
     * A payment only prepared (waiting for a batch, never signed) is withdrawn here, so the cancellation that
     * asks can go ahead: nothing of it will be signed.
     */
    paymentInFlight: (orderId: string): boolean => {
      const row = getPayment(this.deps.db, orderId);
      if (row !== undefined && row.state !== 'void') return true;
      this.payer.drop(orderId);
      return false;
    },
    paymentEvidence: (orderId: string): GoodsPaymentEvidence => this.paymentEvidence(orderId),
  };

  /** An order's payment and the TON cost it was fixed at, as a review shows them (operator-api.md GET /reviews). */
  private paymentEvidence(orderId: string): GoodsPaymentEvidence {
    const p = getPayment(this.deps.db, orderId);
    const cost = fragmentOrderCostNano(this.deps.db, orderId);
    return {
      payment: p
        ? {
            state: p.state,
            amount_ton: fromNano(BigInt(p.amountNano)),
            ref: p.ref,
            tx_hash: p.txHash,
            supplier_answer: p.detail,
            attempts: p.attempts,
            confirmed_at: p.confirmedAt === null ? null : offsetIso(p.confirmedAt),
            updated_at: offsetIso(p.updatedAt),
          }
        : null,
      cost_ton: cost === null ? null : fromNano(cost),
    };
  }

  /**
   * Forms the next batch when none is in flight, then makes Fragment's confirm calls for it. `gather`: the
   * wallet was idle, so the batch waits briefly for the purchases being prepared now.
   */
  private async kick(gather: boolean): Promise<void> {
    const run = this.payer.kick({ gather });
    const sent = run ? await run : null;
    if (sent) await this.settler.confirmAll(sent.batchId);
  }

  private async deliver(req: DeliveryRequest): Promise<DeliveryOutcome> {
    const row = getPayment(this.deps.db, req.orderId);
    if (row && row.state !== 'void') {
      const outcome = await this.settler.outcome(row);
      if (outcome) return outcome;
      // its batch was just proven never executable: a fresh payment, in a new batch (unless the order gave up)
    }
    if (req.mayPay === false) {
      this.payer.drop(req.orderId);
      return { kind: 'pending', retryAt: this.deps.clock.now() };
    }
    const held = this.payer.held(req.orderId);
    if (held && this.payer.fresh(held)) {
      await this.kick(true);
      return this.waiting(req.orderId);
    }
    if (held) this.payer.drop(req.orderId); // Fragment's request went stale while it waited: a fresh one
    // The order's cost is fixed now, before it waits for its turn: the first call comes right after the
    // order was accepted, so this is the cost its price was made from.
    const prices = this.prices.current;
    if (!prices) throw new UpstreamUnavailable(DOWN_RETRY_SEC, 'Fragment prices not known yet');
    const costNano = orderCostNano(this.deps.db, req.orderId, costOf(prices, req.product, req.quantity), this.deps.clock.now());
    const prepared = await this.preparer.prepare(req, costNano);
    if ('kind' in prepared) return prepared;
    this.payer.add(prepared);
    await this.kick(true);
    return this.waiting(req.orderId);
  }

  /** After a batch was (maybe) formed: in it, the chain settles the order; else it waits for the next one. */
  private waiting(orderId: string): DeliveryOutcome {
    const row = getPayment(this.deps.db, orderId);
    if (row && row.state !== 'void') return this.settler.pending(SETTLE_POLL_MS);
    const held = this.payer.held(orderId);
    const w = this.walletState.last;
    if (held && w && held.totalNano + this.cfg.feeReserveNano > w.balanceNano) {
      // the whole wallet cannot pay it: it waits for a top-up (its product refuses new orders meanwhile)
      this.payer.drop(orderId);
      throw new UpstreamUnavailable(FUNDS_RETRY_SEC, 'hot wallet balance too low');
    }
    return this.settler.pending(WAIT_POLL_MS);
  }
}
