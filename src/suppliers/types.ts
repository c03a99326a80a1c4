import type { DepositNetwork } from '../domain/chain-address.js';
import type { ObservedTransfer } from '../domain/deposit-matching.js';
import type { SupplierCosts } from '../domain/pricing.js';

/**
 * What the service needs from its suppliers. The sandbox adapter (src/suppliers/sandbox) implements these;
 * a production adapter implements the same. Nothing outside an adapter knows which one runs.
 */

/** A supplier or resolver that did not answer: retry later. */
export class UpstreamUnavailable extends Error {
  constructor(
    readonly retryAfterSec: number = 30,
    message = 'upstream unavailable',
  ) {
    super(message);
  }
}

/**
 * The supplier as a whole is down (its session expired, its account must be verified, it does not answer):
 * new orders get 503 product_unavailable (upstream_unavailable) rather than a resolver error.
 */
export class SupplierDown extends UpstreamUnavailable {}

/** Gifts are not offered (GIFTS_UPSTREAM=off): 503 product_unavailable with `product_disabled`. */
export class GiftsDisabled extends Error {
  constructor() {
    super('gifts are not offered (GIFTS_UPSTREAM=off)');
  }
}

export type SupplyStatus = { up: true } | { up: false; retryAfterSec: number };

export interface Recipient {
  /** Normalised username: no leading @, lower case. */
  username: string;
  displayName: string;
  premiumActive: boolean;
  canReceiveGifts: boolean;
}

export interface RecipientResolver {
  /** null when no such account; throws UpstreamUnavailable when the resolver fails. */
  resolve(username: string): Promise<Recipient | null>;
  /** Game-platform user check (POST /validate/game); throws UpstreamUnavailable when down. */
  checkGameUser(username: string): Promise<{ found: boolean; displayName?: string }>;
}

export type GoodsProduct = 'stars' | 'premium';

export interface DeliveryRequest {
  orderId: string;
  product: GoodsProduct;
  /** stars: the count; premium: months */
  quantity: number;
  username: string;
  createdAt: number;
  /**
   * false past the order's give-up time: report on a payment already made, but make none (a payment proven
   * never made is not replaced; answer `pending`, and the order gives up). Absent: true.
   */
  mayPay?: boolean;
}

export type DeliveryOutcome =
  | { kind: 'delivered' }
  | { kind: 'failed'; detail: string }
  /** accepted, not finished yet: ask again at `retryAt` */
  | { kind: 'pending'; retryAt: number }
  /** Premium: the account has an active subscription; try again later */
  | { kind: 'deferred' }
  /** Stars: transfer sent but delivery not confirmed */
  | { kind: 'unconfirmed' };

export interface GoodsSupplier {
  /** Current supplier costs, or null while they cannot be read (`cost_unavailable`). */
  costs(): SupplierCosts | null;
  /** Whether orders for a product can be placed now. */
  status(product: GoodsProduct): SupplyStatus;
  /**
   * Delivers an order, or reports on a delivery already under way. Must be idempotent by `orderId`:
   * a crash can repeat the call.
   */
  deliver(req: DeliveryRequest): Promise<DeliveryOutcome>;
  /**
   * How long after an order the first `deliver` call is worth making. 0 for a supplier whose first call
   * places the order. The sandbox needs no placing call and can only answer `pending` for its delivery
   * time, so asking before then would cost a job run and a transaction per order for nothing.
   */
  readonly firstCallDelayMs: number;
  /**
   * True while a payment for the order may have left (or did) and the order has no outcome yet: support
   * must not cancel it, or it could be both delivered and refunded. Absent: nothing is ever in flight
   * outside a running `deliver` call (the sandbox).
   */
  paymentInFlight?(orderId: string): boolean;
  /**
   * What the supplier recorded of an order's payment, for an operator deciding a review. Absent: the
   * supplier pays nothing per order that it could show (the sandbox).
   */
  paymentEvidence?(orderId: string): GoodsPaymentEvidence;
}

/** A supplier's record of an order's payment (amounts in TON with all nine places: evidence, not prices). */
export interface GoodsPaymentEvidence {
  payment: {
    state: string;
    amount_ton: string;
    /** The reference the payment carries (its comment). */
    ref: string | null;
    tx_hash: string | null;
    supplier_answer: string | null;
    attempts: number;
    confirmed_at: string | null;
    updated_at: string;
  } | null;
  /** The TON cost the order was fixed at, when the supplier prices in TON. */
  cost_ton: string | null;
}

export interface Suppliers {
  name: string;
  resolver: RecipientResolver;
  goods: GoodsSupplier;
  gifts: GiftMarket;
}

// --- what the supplier accounts hold --------------------------------------------------------------

/**
 * What a supplier account holds, as the console's overview shows it. `pays` says which partner balance it
 * pays for: the Fragment hot wallet pays in TON for Stars and Premium sold for USD, the gift account pays
 * for gifts sold for TON.
 */
export interface SupplierFund {
  supplier: string;
  currency: 'TON' | 'STARS' | 'USD';
  /** Decimal string in `currency`. */
  amount: string;
  /** When the figure was read (ISO 8601 with offset). */
  updated_at: string;
  pays?: 'USD' | 'TON';
}

/** An adapter that holds money reports its accounts (as last known: the overview never waits for a supplier). */
export interface SupplierAccount {
  funds(): SupplierFund[];
}

/** DNS entries consulted before real DNS by the webhook resolver (sandbox only). */
export interface HostTable {
  lookup(hostname: string): string[] | undefined;
}

// --- NFT gifts ----------------------------------------------------------------------------------

export type NftStage = 'create' | 'confirm' | 'queue' | 'pricing' | 'balance' | 'purchase' | 'transfer';
export const NFT_STAGES: readonly NftStage[] = ['create', 'confirm', 'queue', 'pricing', 'balance', 'purchase', 'transfer'];

export interface GiftAttributes {
  model: string;
  backdrop: string;
  symbol: string;
}

export interface GiftListing {
  gift: string;
  name: string;
  num: number;
  collection: string;
  image: string;
  /** listing price in milli-TON */
  priceMilli: number;
  attributes: GiftAttributes;
  /** false: sold or delisted */
  available: boolean;
  /** held by an order elsewhere on the market */
  reserved: boolean;
}

export interface GiftCollection {
  collection: string;
  name: string;
}

export interface GiftPurchase {
  orderId: string;
  gift: string;
  username: string;
  /** the listing price fixed at order time: the market is never paid more */
  fixedPriceMilli: number;
  createdAt: number;
  /** when the current stage began (service clock) */
  stageSince: number;
  /** what identifies the purchase once it was paid (the `receipt` of a paid outcome), for the transfer stage */
  receipt?: string;
}

/**
 * What buying a gift would cost now, as the market's payment form states it. Read right before paying; the
 * application checks it against the order's fixed price before any paid call (src/app/orders/gift-purchase.ts).
 */
export interface PurchaseForm {
  /** the market's id of the form (opaque), paid by `pay` */
  ref: string;
  /** ISO currency or "TON" as the form states it; only TON is ever paid */
  currency: string;
  /** the amount of the form in the currency's smallest unit (nanoTON for TON), as a decimal string */
  amount: string;
}

export type QuoteOutcome = { kind: 'form'; form: PurchaseForm } | { kind: 'fail'; reason: string; stage?: NftStage } | { kind: 'wait'; retryAt: number };

/**
 * The answer to a paid call. `unpaid` is definite (nothing was paid: the form may be read again, or the
 * order fails with `reason`); `unknown` means the money may have gone and the purchase must be reconciled.
 */
export type PayOutcome =
  | { kind: 'paid'; receipt: string }
  | { kind: 'unpaid'; reason?: string; stage?: NftStage; retryAt?: number; detail: string }
  | { kind: 'unknown'; detail: string };

/** Reconciling a purchase whose paid call had no definite answer: never pays again blindly. */
export type ReconcileOutcome = { kind: 'paid'; receipt: string } | { kind: 'unpaid'; detail: string } | { kind: 'unknown'; detail: string };

export type StageOutcome =
  | { kind: 'done'; transferHash?: string }
  | { kind: 'wait'; retryAt: number }
  /** nothing was paid: the order fails (refunded) with `reason`, at `stage` (default: the stage run) */
  | { kind: 'fail'; reason: string; stage?: NftStage }
  /** bought but the transfer to the recipient failed: manual review */
  | { kind: 'stuck' };

export interface GiftMarket {
  /** Whether gift orders can be placed now. */
  status(): SupplyStatus;
  collections(): Promise<GiftCollection[]>;
  /** Every listing of a collection (available or not), or null for an unknown collection. */
  listings(collection: string): Promise<GiftListing[] | null>;
  gift(gift: string): Promise<GiftListing | null>;
  /** Transfer and network fees per gift, milli-TON. */
  feesMilli(): number;
  /** Reference rate for `price_usd_ref`: US cents per TON. */
  tonUsdCents(): number;
  /**
   * Runs one stage other than `purchase`; throws UpstreamUnavailable when the market stalls. Idempotent per
   * order and stage. The `purchase` stage is run by the application with the three calls below.
   */
  runStage(stage: NftStage, p: GiftPurchase): Promise<StageOutcome>;
  /** Reads the payment form of the gift for this purchase; moves no money. */
  quote(p: GiftPurchase): Promise<QuoteOutcome>;
  /** The paid call: pays the form the application checked. One per order at a time. */
  pay(p: GiftPurchase, form: PurchaseForm): Promise<PayOutcome>;
  /** After a crash, a timeout or an unknown answer of `pay`: was the form paid? Never pays blindly. */
  reconcile(p: GiftPurchase, form: PurchaseForm): Promise<ReconcileOutcome>;
  /**
   * The market's own record of the transfer of an order's gift to its recipient: its hash once the transfer
   * was sent (confirmed or not), null when nothing was sent. Read when an operator resolves a stuck order as
   * delivered; throws UpstreamUnavailable when the market does not answer. `paidReceipt` is the receipt of
   * the order's paid purchase as the application recorded it (null when none): a market whose purchase is
   * the transfer answers from it, so no adapter reads the application's records.
   */
  transferOf(orderId: string, paidReceipt: string | null): Promise<{ transferHash: string } | null>;
  /** Public links of a delivered gift. */
  links(gift: string, transferHash: string): { nft_public_url: string; ton_explorer_url: string };
}

// --- chain watchers -----------------------------------------------------------------------------

/**
 * A chain watcher reads the transfers into our deposit addresses on one network, from an opaque
 * `position` (null on the very first poll) to a new one. The caller stores the new position in the same
 * transaction as the deposits it records, so a restart neither misses nor repeats a transfer. A watcher
 * reports only transfers that have the network's required confirmations, and never moves its position
 * past one that does not have them yet. It throws when the API fails; nothing is then recorded.
 */
export interface ChainWatcher {
  readonly network: DepositNetwork;
  poll(position: string | null): Promise<{ transfers: ObservedTransfer[]; position: string }>;
}

// --- the sandbox's switches (the operator API's sandbox routes) ------------------------------------

/** The simulated market's figures (PUT /sandbox/market). */
export interface SandboxMarket {
  stars_per_1000_cost: number; // cents
  premium_cost: { '3': number; '6': number; '12': number }; // cents
  unavailable: boolean;
}

/** The simulated faults (PUT /sandbox/faults). */
export interface SandboxFaults {
  ledger_unavailable: boolean;
  resolver_error: boolean;
  upstream_unavailable: { stars: boolean; premium: boolean; nft: boolean };
  purchase_funds_low: boolean;
}
