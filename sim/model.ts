/**
 * The model of a simulated history: what the simulation knows from the answers it got, kept much simpler
 * than the service (a few maps of balances, transactions, requests and orders), and the contract's rules
 * the invariants compare the service with. Nothing here imports the service: a rule written twice in the
 * same way would only compare the code with itself.
 */

export type Currency = 'USD' | 'TON';
export type OrderType = 'stars' | 'premium' | 'nft';
export type Network = 'ton' | 'trc20' | 'bep20';

export const DAY_MS = 86_400_000;
/** An amount of a request that ended unpaid is kept from other requests this long (operator-api.md §2). */
export const ENDED_REQUEST_HOLD_MS = 30 * DAY_MS;

export interface PartnerM {
  id: number;
  key: string;
  /** The webhook block saved with the receiver's address: every event must reach a delivery. */
  webhook: boolean;
  secret: string | null;
}

export interface OrderM {
  id: string;
  partner: number;
  type: OrderType;
  currency: Currency;
  /** Minor units debited, as the creation answer said. */
  amount: number;
  key: string;
  recipient: string;
  /** NFT: the listing price the order fixed (its `gift.price_ton`), nanoTON: nothing is bought above it. */
  capNano: bigint | null;
  /**
   * An operator resolved the order's review as `refunded` (`maybe`: the answer was lost to a crash): the only
   * way an order whose goods may have gone is refunded.
   */
  operatorRefund: 'no' | 'done' | 'maybe';
  /** An operator resolved the review as `delivered` (a completed order without the supplier's word). */
  operatorDelivered: boolean;
  /** It was seen waiting in manual review (for the coverage). */
  reviewed?: boolean;
  /** The first final state seen: a final order never changes again. */
  final: { status: string; refunded: boolean } | null;
}

/** What a key of POST /orders is bound to, as far as the answers tell. */
export interface KeyM {
  partner: number;
  key: string;
  /** The body of the request that created the order (its JSON), once one did. */
  body: string | null;
  orderId: string | null;
  /** A request under this key whose answer was lost (a crash): it may or may not have made an order. */
  unknown: boolean;
}

/** A chain transaction, by the simulation's own identity of it (64 lower-case hex digits). */
export interface TxM {
  hash: string;
  network: Network;
  currency: Currency;
  amount: number;
  /** The partner it was credited to (null: nobody yet). */
  creditedTo: number | null;
  /** A transfer on chain: the report a watcher makes of it (a watcher may report it again). */
  report?: Record<string, unknown>;
  /** another token or coin: never credited by the service itself */
  ignored?: boolean;
}

export interface RequestM {
  id: string;
  partner: number;
  currency: Currency;
  amountToSend: number;
  commentCode: string | null;
  expiresAt: number;
  state: 'open' | 'paid' | 'canceled';
  /** When it was canceled (an expired one ended at expiresAt). */
  canceledAt: number | null;
}

/** A deposit report whose credit is judged at the next check: who may receive it. */
export interface PendingDeposit {
  tx: TxM;
  /** partner ids, or null for "nobody" (manual handling) */
  allowed: Set<number | null>;
  /** the request the transfer was meant for (for the message) */
  meantFor: string | null;
}

export interface Model {
  /** the suppliers of the history: the sandbox's, or Fragment's (sim/world.ts WorldKind) */
  world: 'sandbox' | 'fragment';
  partners: PartnerM[];
  orders: Map<string, OrderM>;
  keys: Map<string, KeyM>;
  /** Credits the model expects, by `${partner}:${currency}`: top-ups and adjustments. */
  credits: Map<string, number>;
  txs: TxM[];
  requests: RequestM[];
  pendingDeposits: PendingDeposit[];
  /** The gifts the history orders (cheap ones of one collection), with the listing price the history set. */
  gifts: { gift: string; priceMilli: number }[];
  /** The deposit addresses, by `${currency}:${network}` (from a top-up request's answer). */
  addresses?: Record<string, string>;
  /** Faults switched on in the sandbox (the drain at the end switches them off). */
  faultsOn: boolean;
  steps: number;
  /** What the last step's answers were (for a trace). */
  notes: string[];
  /**
   * How often each kind of happening the issue of a step can produce did happen (an order replayed, a transfer
   * paid late, a kill during a support credit…): `--coverage` prints the sums, and the test asserts the fixed
   * budget reaches them, so that an action that silently stops happening is noticed.
   */
  seen: Map<string, number>;
  /** Fragment: each order's TON cost as first seen (it must never change) */
  fragmentCosts: Map<string, bigint>;
  /** Fragment: batches, void batches, re-paid orders and partly bounced transactions already counted (coverage) */
  fragmentBatches: Set<string>;
  fragmentVoid: Set<string>;
  fragmentRepaid: Set<string>;
  fragmentPartial: Set<string>;
}

export function emptyModel(world: Model['world'] = 'sandbox'): Model {
  return {
    world,
    fragmentCosts: new Map(),
    fragmentBatches: new Set(),
    fragmentVoid: new Set(),
    fragmentRepaid: new Set(),
    fragmentPartial: new Set(),
    partners: [], orders: new Map(), keys: new Map(), credits: new Map(), txs: [], requests: [], pendingDeposits: [], gifts: [], faultsOn: false, steps: 0, notes: [], seen: new Map() };
}

/** Counts one happening (see Model.seen). */
export function saw(m: Model, what: string): void {
  m.seen.set(what, (m.seen.get(what) ?? 0) + 1);
}

export const keyOf = (partner: number, key: string) => `${partner}\u0000${key}`;
export const balanceKey = (partner: number, currency: Currency) => `${partner}:${currency}`;

export function addCredit(m: Model, partner: number, currency: Currency, amount: number): void {
  const k = balanceKey(partner, currency);
  m.credits.set(k, (m.credits.get(k) ?? 0) + amount);
}

/** Minor units of a money string of the contract ("12.34" USD → 1234, "1.5" TON → 1500). */
export function minorOf(text: string, currency: Currency): number {
  const places = currency === 'USD' ? 2 : 3;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not an amount: ${text}`);
  const frac = (m[2] ?? '').padEnd(places, '0');
  if (frac.length > places) throw new Error(`too many decimals: ${text}`);
  return Number(m[1]) * 10 ** places + Number(frac);
}

export function textOf(minor: number, currency: Currency): string {
  const places = currency === 'USD' ? 2 : 3;
  const s = String(minor).padStart(places + 1, '0');
  return `${s.slice(0, -places)}.${s.slice(-places)}`;
}

/** The balance the model expects: its credits, less every order it knows, plus the refunds the service made. */
export function expectedBalance(m: Model, partner: number, currency: Currency, refunded: (orderId: string) => boolean): number {
  let b = m.credits.get(balanceKey(partner, currency)) ?? 0;
  for (const o of m.orders.values()) {
    if (o.partner !== partner || o.currency !== currency) continue;
    b -= o.amount;
    if (refunded(o.id)) b += o.amount;
  }
  return b;
}

// --- top-up requests and deposits -----------------------------------------------------------------

function requestOpen(r: RequestM, at: number): boolean {
  return r.state !== 'paid' && at < endOf(r);
}

/** When a request stopped taking payment unless paid: its cancellation, else its expiry. */
function endOf(r: RequestM): number {
  return r.canceledAt !== null ? Math.min(r.canceledAt, r.expiresAt) : r.expiresAt;
}

/** Ended unpaid (canceled, or expired), and still within the hold of its amount. */
function requestEndedUnpaid(r: RequestM, at: number): boolean {
  if (r.state === 'paid') return false;
  return endOf(r) <= at && at < endOf(r) + ENDED_REQUEST_HOLD_MS;
}

/**
 * Who may receive a transfer of `amount` (minor units of `currency`) seen at `at` with `comment`, by the
 * contract's rules (partner-api.md "Activation and top-up rules", operator-api.md §2 topup-requests): the one
 * open request of that exact amount, or the request its comment code names (TON) if that one is open and paid
 * exactly; nobody when the amount or the code belongs to a request that ended unpaid, or when nothing matches.
 * Near a boundary (an expiry, the end of a hold) both sides are allowed: the clock jumps, and a rule read at a
 * millisecond's distance is not what this checks.
 */
export function depositRecipients(requests: readonly RequestM[], currency: Currency, amount: number | null, comment: string | null, at: number): Set<number | null> {
  const out = new Set<number | null>();
  for (const t of [at - 1000, at, at + 1000]) out.add(recipientAt(requests, currency, amount, comment, t));
  return out;
}

function recipientAt(requests: readonly RequestM[], currency: Currency, amount: number | null, comment: string | null, at: number): number | null {
  const ofCurrency = requests.filter((r) => r.currency === currency);
  if (currency === 'TON' && comment) {
    // a code names its own request and no other, whatever the amount
    const named = ofCurrency.find((r) => r.commentCode !== null && comment.toUpperCase().includes(r.commentCode));
    if (named) return requestOpen(named, at) && amount === named.amountToSend ? named.partner : null;
  }
  if (amount === null) return null;
  if (ofCurrency.some((r) => r.amountToSend === amount && requestEndedUnpaid(r, at))) return null;
  const partners = new Set(ofCurrency.filter((r) => r.amountToSend === amount && requestOpen(r, at)).map((r) => r.partner));
  // two partners' requests of one amount: nobody can tell whose it is
  return partners.size === 1 ? [...partners][0] : null;
}

// --- orders and their events ----------------------------------------------------------------------

/** Final by the contract: completed, or the money is back (a failed order not refunded is in review). */
export function isFinal(status: string, refunded: boolean): boolean {
  return status === 'completed' || refunded;
}

/** The events partner-api.md gives an order in this state (each exactly once). */
export function expectedEvents(status: string, refunded: boolean): string[] {
  if (status === 'completed') return ['order.completed'];
  if (refunded) return ['order.failed', 'order.refunded'];
  return [];
}

/** The `reason` of `order.refunded` by the contract (partner-api.md Events). */
export function refundReasons(type: OrderType, manual: boolean): string[] {
  if (type === 'stars') return ['stars_failed'];
  if (type === 'premium') return ['premium_canceled'];
  return manual ? ['nft_manual_refund'] : ['nft_failed'];
}
