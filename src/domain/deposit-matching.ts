import { Decimal } from 'decimal.js';
import { normalizeAddress, type DepositNetwork } from './chain-address.js';
import { NETWORKS_BY_CURRENCY, topupMinimum } from './ledger-rules.js';
import { formatAmount, type Currency } from './money.js';

/**
 * Pure rules of automatic top-ups (partner-api.md "Activation and top-up rules"): the exact amount a
 * top-up request asks for, the TON comment code, and which request a chain transfer pays.
 *
 * Amounts on chain are exact decimals with the token's own precision (USDT 6 or 18 places, TON 9);
 * balances are minor units (cents, milli-TON). A transfer pays a request only when its amount is exactly
 * the request's `amount_to_send`, so it must be a whole number of minor units.
 */

/** Decimal with room for uint256 amounts: the default 20 significant digits would round 18-place values. */
const D = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_DOWN });
const SCALE: Record<Currency, number> = { USD: 100, TON: 1000 };

/** Assets the service credits, and the balance each funds. */
export type DepositAsset = 'USDT' | 'TON';
export const ASSET_CURRENCY: Record<DepositAsset, Currency> = { USDT: 'USD', TON: 'TON' };
export const CURRENCY_ASSET: Record<Currency, DepositAsset> = { USD: 'USDT', TON: 'TON' };

/** How long a top-up request stays open. */
export const TOPUP_REQUEST_TTL_MS = 24 * 3600_000;
/** A transfer within this fraction of an open request's amount is reported as `wrong_amount` for it. */
export const NEAR_AMOUNT_FRACTION = 0.1;
/**
 * The random offset added to a requested amount, in minor units: USD 0.01–0.99, TON 0.001–0.999. Always
 * at least one minor unit, so a round sum is never what a request expects.
 */
export const AMOUNT_OFFSET: Record<Currency, { min: number; max: number }> = { USD: { min: 1, max: 99 }, TON: { min: 1, max: 999 } };

/** Characters of comment codes: upper-case letters and digits without 0/O, 1/I/L. */
export const COMMENT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const COMMENT_CODE_LENGTH = 6;

export type UnmatchedReason = 'wrong_amount' | 'expired_request' | 'unknown_request' | 'below_minimum' | 'wrong_address' | 'wrong_network';

/** Symbol spelling of an asset → the asset the service knows, or null for any other token or coin. */
export function knownAsset(symbol: string): DepositAsset | null {
  const s = symbol.trim().toUpperCase();
  if (s === 'USDT' || s === 'USD₮') return 'USDT';
  if (s === 'TON') return 'TON';
  return null;
}

/** A plain non-negative decimal string (any number of places), normalised ("010.50" → "10.5"), or null. */
export function normalizeDecimal(text: unknown): string | null {
  if (typeof text === 'number') {
    if (!Number.isFinite(text) || text < 0) return null;
    text = new D(text).toFixed();
  }
  if (typeof text !== 'string') return null;
  const s = text.trim();
  if (!/^\d{1,40}(\.\d{1,60})?$/.test(s)) return null;
  return new D(s).toFixed();
}

/** Integer base units of a token (e.g. "10500000" with 6 decimals) → exact decimal string ("10.5"). */
export function unitsToDecimal(units: string | bigint, decimals: number): string {
  const s = typeof units === 'bigint' ? units.toString() : units.trim();
  if (!/^\d+$/.test(s)) throw new Error(`not an integer amount: ${s}`);
  return new D(s).div(new D(10).pow(decimals)).toFixed();
}

/** Exact decimal → minor units of a currency, or null when it has a fraction of a cent / milli-TON. */
export function exactMinor(amount: string, currency: Currency): number | null {
  const d = new D(amount).mul(SCALE[currency]);
  if (!d.isInteger() || d.gt(Number.MAX_SAFE_INTEGER)) return null;
  return d.toNumber();
}

/** Decimal → minor units rounded down (what an operator credits for an amount with a fraction). */
export function floorMinor(amount: string, currency: Currency): number {
  return new D(amount).mul(SCALE[currency]).toDecimalPlaces(0, Decimal.ROUND_DOWN).toNumber();
}

/** The deposit amount as shown: the currency's places when exact, else every digit received. */
export function displayAmount(amount: string, currency: Currency | null): string {
  if (currency) {
    const m = exactMinor(amount, currency);
    if (m !== null) return formatAmount(m, currency);
  }
  return amount;
}

/**
 * How long the amount of a request that ended unpaid (expired or canceled) is kept out of new requests, and
 * how long a transfer of it is still taken for a late payment of that request (`expired_request`).
 */
export const ENDED_AMOUNT_HOLD_MS = 30 * 86_400_000;

/**
 * The exact amount to send for a request: the requested amount plus a random offset of AMOUNT_OFFSET
 * (`randomInt(n)`, 0 ≤ result < n, from the injected randomness source), chosen among the offsets that
 * give an amount no other OPEN request of that currency asks for and that is not a round sum (a whole
 * dollar or TON). So a partner who asks for 100 is told e.g. 100.37, nobody is ever told to send exactly
 * 100.00, and a mistyped round transfer matches no request (manual handling) instead of paying someone
 * else's. Amounts of requests that ended unpaid in the last 30 days (`heldByEndedRequests`) are given only
 * when no other offset is free: a late payment of such a request could otherwise pay the new one
 * (matchDeposit then sends a transfer of that amount to support, to neither partner). Null when every
 * offset is taken by open requests.
 */
export function chooseAmountToSend(
  requested: number,
  currency: Currency,
  takenByOpenRequests: Iterable<number>,
  randomInt: (n: number) => number,
  heldByEndedRequests: Iterable<number> = [],
): number | null {
  const taken = new Set(takenByOpenRequests);
  const held = new Set(heldByEndedRequests);
  const { min, max } = AMOUNT_OFFSET[currency];
  const free: number[] = [];
  const reusable: number[] = [];
  for (let k = min; k <= max; k++) {
    const amount = requested + k;
    if (amount % SCALE[currency] === 0 || taken.has(amount)) continue;
    (held.has(amount) ? reusable : free).push(amount);
  }
  const pool = free.length ? free : reusable;
  return pool.length ? pool[randomInt(pool.length)] : null;
}

/** A random comment code from `randomInt(n)` (0 ≤ result < n). */
export function makeCommentCode(randomInt: (n: number) => number): string {
  let s = '';
  for (let i = 0; i < COMMENT_CODE_LENGTH; i++) s += COMMENT_CODE_ALPHABET[randomInt(COMMENT_CODE_ALPHABET.length)];
  return s;
}

/**
 * Candidate codes in a transfer comment: words of the comment in upper case (the code may stand alone or
 * among other words: "K7QM4X", "top-up k7qm4x"). Lower case and spaces around it are tolerated.
 */
export function commentTokens(comment: string | null | undefined): string[] {
  if (!comment) return [];
  return comment
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => w.length === COMMENT_CODE_LENGTH && [...w].every((c) => COMMENT_CODE_ALPHABET.includes(c)));
}

export interface RequestLike {
  requestId: string;
  partnerId: number;
  currency: Currency;
  amountToSend: number;
  commentCode: string | null;
  status: 'open' | 'credited' | 'expired' | 'canceled';
  createdAt: number;
  expiresAt: number;
  /** When it was canceled (status `canceled`), else null. */
  canceledAt: number | null;
}

export function isOpen(r: RequestLike, now: number): boolean {
  return r.status === 'open' && r.expiresAt > now;
}

/** When a request stopped taking payment unless paid: its cancel time, else its expiry. */
export function endOf(r: RequestLike): number {
  return r.status === 'canceled' && r.canceledAt !== null ? Math.min(r.canceledAt, r.expiresAt) : r.expiresAt;
}

/** Not paid and still taking payment at time `at` (a transfer made then pays it). */
export function takesPaymentAt(r: RequestLike, at: number): boolean {
  return r.status !== 'credited' && at < endOf(r);
}

/** Ended unpaid (expired or canceled) by `at`, less than ENDED_AMOUNT_HOLD_MS before it. */
export function endedUnpaidBefore(r: RequestLike, at: number): boolean {
  return r.status !== 'credited' && endOf(r) <= at && endOf(r) > at - ENDED_AMOUNT_HOLD_MS;
}

/** One configured deposit address. */
export interface DepositAddress {
  asset: DepositAsset;
  network: DepositNetwork;
  address: string;
}

export interface TransferLike {
  network: string;
  asset: string;
  /** Exact decimal string. */
  amount: string;
  to: string;
  comment?: string | null;
}

/** A transfer into one of our addresses as a chain watcher (or the sandbox) sees it. */
export interface ObservedTransfer extends TransferLike {
  network: DepositNetwork;
  /** The network's transaction id; with the network, the key that makes a repeated report harmless. */
  txHash: string;
  from: string | null;
  comment: string | null;
  /** Blocks (TON: masterchain blocks) on top of the transfer, its own included. */
  confirmations: number;
  /** When it was made by the chain's clock (its block time, epoch ms), when the watcher knows it. */
  chainTime?: number | null;
}

export type MatchResult =
  | { kind: 'credit'; request: RequestLike; currency: Currency; amountMinor: number; by: 'comment' | 'amount' }
  | { kind: 'unmatched'; reason: UnmatchedReason; currency: Currency | null; amountMinor: number | null; request: RequestLike | null; note: string }
  | { kind: 'ignored'; note: string };

const money = (minor: number, c: Currency) => `${formatAmount(minor, c)} ${c === 'USD' ? 'USDT' : 'TON'}`;

/**
 * Which request a confirmed transfer pays. `at` is when the transfer was made: its chain time where the
 * watcher knows it, and never later than when it was first seen (the caller takes the earlier of the two).
 * Whether a request was still taking payment is judged at `at`, so a transfer made before the expiry but
 * seen or confirmed after it still pays its request.
 *
 * 1. Another token or coin (not USDT, not TON): `ignored`, never credited.
 * 2. The transfer must be USDT on ton/trc20/bep20 to that network's USDT address, or TON on ton to the
 *    TON address. TON on another network, or a transfer to an address of ours configured for another
 *    network (or on a network where this asset has no address): `wrong_network`. Any other destination
 *    (a stranger's address, the TON address for USDT, the USDT address for TON coin): `wrong_address`.
 * 3. TON: a request code in the comment names that request and no other, whatever the amount: taking
 *    payment at `at` and paid exactly → credited; paid another amount → `wrong_amount`; ended unpaid →
 *    `expired_request`; already paid → `unknown_request`. A code never lets the amount pay someone else.
 * 4. Exact amount (USD always, TON without a usable code). A request that ended unpaid less than 30 days
 *    before `at` with this amount → `expired_request` naming it (its partner's late payment, or, when the
 *    amount had to be given again, a transfer nobody can tell apart: support decides, never either partner
 *    automatically); likewise when requests of two partners were both taking payment at `at`. Otherwise the
 *    request taking payment at `at` with that amount is credited. Otherwise, in this order: not a whole
 *    number of cents/milli-TON → `wrong_amount`; equals a paid request → `unknown_request` (naming it);
 *    below the smallest top-up (USD 5, TON 10) → `below_minimum`; within 10 % of an open request →
 *    `wrong_amount`; else `unknown_request`.
 *
 * `requests`: the open requests of the currency, those that ended (paid or not) less than 30 days before
 * `at`, and those whose codes occur in the comment (any status, any age). The caller re-checks the minimum
 * when crediting (src/app/deposits/record.ts).
 */
export function matchDeposit(deposit: TransferLike, requests: readonly RequestLike[], addresses: readonly DepositAddress[], at: number): MatchResult {
  const asset = knownAsset(deposit.asset);
  if (!asset) return { kind: 'ignored', note: `${deposit.asset} is not accepted for top-ups (only USDT and TON).` };
  const currency = ASSET_CURRENCY[asset];
  const amountText = normalizeDecimal(deposit.amount);
  const minor = amountText === null ? null : exactMinor(amountText, currency);
  const unmatched = (reason: UnmatchedReason, note: string, request: RequestLike | null = null): MatchResult => ({
    kind: 'unmatched',
    reason,
    currency,
    amountMinor: minor,
    request,
    note,
  });

  // 2. Destination and network.
  const network = deposit.network;
  if (!NETWORKS_BY_CURRENCY[currency].includes(network))
    return unmatched('wrong_network', `${asset} is accepted only on ${NETWORKS_BY_CURRENCY[currency].join(', ')}, not on ${network}.`);
  const own = addresses.find((a) => a.asset === asset && a.network === network);
  if (!own || normalizeAddress(network, own.address) !== normalizeAddress(network, deposit.to)) {
    const to = deposit.to.trim();
    const elsewhere = addresses.find((a) => a.network !== network && normalizeAddress(a.network, a.address) === normalizeAddress(a.network, to));
    if (elsewhere) return unmatched('wrong_network', `Sent on ${network} to the address configured for ${elsewhere.asset} on ${elsewhere.network}.`);
    const otherAsset = addresses.find((a) => a.network === network && a.asset !== asset && normalizeAddress(network, a.address) === normalizeAddress(network, to));
    if (otherAsset) return unmatched('wrong_address', `${asset} sent to the ${otherAsset.asset} address on ${network}.`);
    if (!own) return unmatched('wrong_network', `No ${asset} deposit address is configured on ${network}.`);
    return unmatched('wrong_address', `Sent to ${to}, which is not the ${asset} deposit address on ${network}.`);
  }
  if (amountText === null) return unmatched('wrong_amount', `The amount ${deposit.amount} is not a decimal number.`);

  const ofCurrency = requests.filter((r) => r.currency === currency);
  const open = ofCurrency.filter((r) => takesPaymentAt(r, at));

  // 3. TON: the code in the comment names its own request, and only it.
  if (currency === 'TON') {
    const tokens = commentTokens(deposit.comment);
    const byCode = tokens.map((t) => ofCurrency.find((r) => r.commentCode === t)).find((r) => r !== undefined);
    if (byCode) {
      if (byCode.status === 'credited')
        return unmatched('unknown_request', `The comment names request ${byCode.requestId}, which is already paid; it pays no other request.`, byCode);
      if (!takesPaymentAt(byCode, at))
        return unmatched('expired_request', `The comment names request ${byCode.requestId}, which ${endedWord(byCode)} before the transfer.`, byCode);
      if (minor === byCode.amountToSend) return { kind: 'credit', request: byCode, currency, amountMinor: minor, by: 'comment' };
      return unmatched('wrong_amount', `The comment names request ${byCode.requestId}, which asks for ${money(byCode.amountToSend, currency)}; received ${amountText} TON.`, byCode);
    }
  }

  // 4. Exact amount.
  if (minor === null)
    return unmatched('wrong_amount', `${amountText} ${asset} is not a whole number of ${currency === 'USD' ? 'cents' : 'milli-TON'}, so it pays no request.`, nearby(open, amountText, currency));
  const live = open.filter((r) => r.amountToSend === minor).sort((a, b) => endOf(a) - endOf(b));
  const ended = ofCurrency.filter((r) => r.amountToSend === minor && endedUnpaidBefore(r, at)).sort((a, b) => endOf(b) - endOf(a));
  if (ended.length)
    return unmatched(
      'expired_request',
      `${money(minor, currency)} pays request ${ended[0].requestId}, which ${endedWord(ended[0])} before the transfer${live.length ? `; request ${live[0].requestId} of the same amount is open, so support decides whose it is` : ''}.`,
      ended[0],
    );
  if (new Set(live.map((r) => r.partnerId)).size > 1)
    // two partners' requests of one amount both taking payment at `at`: the one that ends first has ended since
    return unmatched('expired_request', `${money(minor, currency)} pays request ${live[0].requestId} or ${live[1].requestId}, of two partners: support decides whose it is.`, live[0]);
  if (live.length) return { kind: 'credit', request: live[0], currency, amountMinor: minor, by: 'amount' };
  const paid = ofCurrency.find((r) => r.status === 'credited' && r.amountToSend === minor);
  if (paid) return unmatched('unknown_request', `${money(minor, currency)} is the amount of request ${paid.requestId}, which is already paid; no open request asks for it.`, paid);
  const smallest = topupMinimum(currency, false);
  if (minor < smallest) return unmatched('below_minimum', `${money(minor, currency)} is below the smallest top-up of ${money(smallest, currency)}.`);
  const near = nearby(open, amountText, currency);
  if (near)
    return unmatched('wrong_amount', `${money(minor, currency)} matches no open request; the closest, ${near.requestId}, asks for ${money(near.amountToSend, currency)}.`, near);
  return unmatched('unknown_request', `${money(minor, currency)} matches no open top-up request.`);
}

const endedWord = (r: RequestLike) => (r.status === 'canceled' && r.canceledAt !== null && r.canceledAt < r.expiresAt ? 'was canceled' : 'expired');

/** The open request closest to the amount, when it is within NEAR_AMOUNT_FRACTION of that request's amount. */
function nearby(open: readonly RequestLike[], amount: string, currency: Currency): RequestLike | null {
  const a = new D(amount);
  let best: { r: RequestLike; dist: Decimal } | null = null;
  for (const r of open) {
    const dist = a.sub(new D(r.amountToSend).div(SCALE[currency])).abs();
    if (best === null || dist.lt(best.dist)) best = { r, dist };
  }
  if (!best) return null;
  return best.dist.lte(new D(best.r.amountToSend).div(SCALE[currency]).mul(NEAR_AMOUNT_FRACTION)) ? best.r : null;
}
