import { Address, Cell } from '@ton/core';
import type { LinkTransaction } from './fragment-api.js';

/**
 * What must hold before the hot wallet signs a transaction Fragment asked for (pure, no I/O): every
 * message goes to one of Fragment's known addresses, the total is within the order's cost plus the
 * tolerance, the payload is a cell, and validUntil is near. Anything else is refused unsigned.
 */
export interface PaymentLimits {
  /** Fragment's receiving addresses, any TON address form */
  allowed: string[];
  /** the most this order may cost, nanoTON (cost × (1 + tolerance)) */
  maxNano: bigint;
  nowSec: number;
  /** validUntil may be at most this far ahead */
  maxValidSec: number;
}

export type CheckResult = { ok: true; totalNano: bigint } | { ok: false; reason: string };

/** Time a signed message needs to reach the chain: a validUntil sooner than this is refused. */
export const MIN_VALID_AHEAD_SEC = 20;
/** Messages one order's transaction may carry (Fragment asks for one; TON Connect allows 4). */
export const MAX_MESSAGES = 4;
/** Messages one signed transfer of the wallet may carry: V4R2 4, V5R1 255 (its action list's limit). */
export const WALLET_MAX_MESSAGES = { v4r2: 4, v5r1: 255 } as const;

function rawOf(s: string): string | null {
  try {
    return Address.parse(s).toRawString();
  } catch {
    return null;
  }
}

function rawSet(addresses: string[]): Set<string> {
  return new Set(addresses.map(rawOf).filter((x): x is string => x !== null));
}

export function checkPayment(tx: LinkTransaction, limits: PaymentLimits): CheckResult {
  if (tx.messages.length === 0 || tx.messages.length > MAX_MESSAGES) return { ok: false, reason: `${tx.messages.length} messages` };
  const allowed = rawSet(limits.allowed);
  let total = 0n;
  for (const m of tx.messages) {
    const raw = rawOf(m.address);
    if (raw === null || !allowed.has(raw)) return { ok: false, reason: `destination ${m.address} is not a known Fragment address` };
    if (!/^\d{1,20}$/.test(m.amount) || BigInt(m.amount) <= 0n) return { ok: false, reason: `amount ${JSON.stringify(m.amount)} is not a positive nanoTON amount` };
    total += BigInt(m.amount);
    if (m.payload !== undefined) {
      try {
        Cell.fromBase64(m.payload);
      } catch {
        return { ok: false, reason: 'payload is not a BOC cell' };
      }
    }
  }
  if (total > limits.maxNano) return { ok: false, reason: `amount ${total} nanoTON above the limit ${limits.maxNano}` };
  if (!Number.isInteger(tx.validUntil) || tx.validUntil < limits.nowSec + MIN_VALID_AHEAD_SEC)
    return { ok: false, reason: `validUntil ${tx.validUntil} is too soon or past` };
  if (tx.validUntil > limits.nowSec + limits.maxValidSec) return { ok: false, reason: `validUntil ${tx.validUntil} is too far ahead` };
  return { ok: true, totalNano: total };
}

/** The text comment of a payload cell (op 0 and a snake string), or null when it carries none. */
export function commentOf(payload: string | undefined): string | null {
  if (!payload) return null;
  try {
    const s = Cell.fromBase64(payload).beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== 0) return null;
    return s.loadStringTail();
  } catch {
    return null;
  }
}

/**
 * The payment's comment, as Fragment writes it (`50 Telegram Stars \n\nRef#Im2y5itd6`, `Telegram Premium for
 * 3 months \n\nRef#…`), names this order's quantity (stars, or months) and one reference, the same on every
 * message: a transaction for another request is never signed. Answers the reference.
 */
export function checkComment(tx: LinkTransaction, order: { product: 'stars' | 'premium'; quantity: number }): { ok: true; ref: string } | { ok: false; reason: string } {
  let ref: string | null = null;
  for (const m of tx.messages) {
    const text = commentOf(m.payload);
    if (text === null) return { ok: false, reason: 'a message carries no text comment' };
    const refs = refsOf(text);
    if (refs.length !== 1) return { ok: false, reason: `the comment ${JSON.stringify(text)} does not carry exactly one Ref#` };
    if (ref !== null && refs[0] !== ref) return { ok: false, reason: 'the messages carry different references' };
    ref = refs[0];
    const q = order.product === 'stars' ? /^\s*(\d+)\s+Telegram Stars\b/i.exec(text) : /Telegram Premium for (\d+) months?\b/i.exec(text);
    if (!q || Number(q[1]) !== order.quantity)
      return { ok: false, reason: `the comment ${JSON.stringify(text)} is not for ${order.quantity} ${order.product === 'stars' ? 'stars' : 'months of Premium'}` };
  }
  return ref === null ? { ok: false, reason: 'no message' } : { ok: true, ref };
}

function refsOf(text: string): string[] {
  return [...text.matchAll(/Ref#([A-Za-z0-9_-]{1,64})/g)].map((x) => x[1]);
}

/** The one `Ref#` a comment names, or null (none, or more than one). */
export function refOf(comment: string | null): string | null {
  if (comment === null) return null;
  const refs = refsOf(comment);
  return refs.length === 1 ? refs[0] : null;
}

/** cost × (1 + tolerance), rounded up to the nanoTON. */
export function maxWithTolerance(costNano: bigint, toleranceBps: number): bigint {
  return (costNano * BigInt(10_000 + toleranceBps) + 9_999n) / 10_000n;
}

/**
 * Whether a wallet transaction found on chain is the evidence of the payment that was signed: it succeeded
 * and its outgoing messages went only to Fragment's addresses and carried exactly the signed total. null when
 * it is; otherwise why not (the order then goes to manual review: money may have left).
 */
export function evidenceProblem(
  tx: { success: boolean; outMessages: { destination: string; valueNano: bigint }[] },
  expected: { allowed: string[]; totalNano: bigint },
): string | null {
  if (!tx.success) return 'the wallet transaction failed on chain';
  const allowed = rawSet(expected.allowed);
  let total = 0n;
  for (const m of tx.outMessages) {
    const raw = rawOf(m.destination);
    if (raw === null || !allowed.has(raw)) return `the transaction sent to ${m.destination}, not a known Fragment address`;
    total += m.valueNano;
  }
  if (total !== expected.totalNano) return `the transaction sent ${total} nanoTON, the payment was ${expected.totalNano}`;
  return null;
}

/** An outgoing message of the wallet's transaction as the index shows it. */
export interface OutMessage {
  destination: string;
  valueNano: bigint;
  /** the message's hash as the index gives it (to find the transaction that received it) */
  hash?: string;
  /** the text comment of its body, null when it carries none */
  comment: string | null;
}

/** One payment of a batch, as the matching needs it. */
export interface BatchPart {
  orderId: string;
  /** null only for payments written before references were kept (then alone in their batch) */
  ref: string | null;
  amountNano: bigint;
}

export interface BatchMatch {
  /** the whole transaction is not the batch that was signed: every payment of it goes to review */
  problem: string | null;
  /** per order: its own messages' hashes, or why they are not its payment (that order goes to review) */
  orders: Map<string, { hashes: string[]; problem: string | null }>;
}

/**
 * Matches each payment of a batch to its own outgoing messages by the `Ref#` of their comments (never by
 * amount alone), in the wallet's transaction found on chain. The whole transaction is not the batch signed
 * (every payment of it to review) when it failed, sent anywhere but Fragment's addresses, or carried a
 * message naming no payment of the batch. A payment whose own messages are missing (a V5R1 wallet skips a
 * message it cannot pay rather than failing the transfer) or carry another amount goes to review alone.
 */
export function matchBatch(tx: { success: boolean; skippedActions?: number; outMessages: OutMessage[] }, parts: BatchPart[], allowedAddresses: string[]): BatchMatch {
  const orders = new Map<string, { hashes: string[]; problem: string | null }>();
  if (!tx.success) return { problem: 'the wallet transaction failed on chain', orders };
  const allowed = rawSet(allowedAddresses);
  const byRef = new Map(parts.filter((p) => p.ref !== null).map((p) => [p.ref!, p]));
  const mine = new Map<string, OutMessage[]>(parts.map((p) => [p.orderId, []]));
  for (const m of tx.outMessages) {
    const raw = rawOf(m.destination);
    if (raw === null || !allowed.has(raw)) return { problem: `the transaction sent to ${m.destination}, not a known Fragment address`, orders };
    const ref = refOf(m.comment);
    // a payment written before references were kept is alone in its batch: all the messages are its own
    const part = ref !== null ? byRef.get(ref) : parts.length === 1 && parts[0].ref === null ? parts[0] : undefined;
    if (!part) return { problem: `an outgoing message (${m.valueNano} nanoTON) names no payment of the batch: ${JSON.stringify(m.comment)}`, orders };
    mine.get(part.orderId)!.push(m);
  }
  const skipped = tx.skippedActions ? ` (the wallet skipped ${tx.skippedActions} of its messages: its balance did not cover them)` : '';
  for (const p of parts) {
    const ms = mine.get(p.orderId)!;
    const sum = ms.reduce((a, m) => a + m.valueNano, 0n);
    const hashes = ms.map((m) => m.hash).filter((h): h is string => typeof h === 'string' && h !== '');
    let why: string | null = null;
    if (ms.length === 0) why = `no outgoing message carries its reference Ref#${p.ref}${skipped}`;
    else if (sum !== p.amountNano) why = `the transaction sent ${sum} nanoTON for it, the payment was ${p.amountNano}${skipped}`;
    orders.set(p.orderId, { hashes: ms.length === hashes.length ? hashes : [], problem: why });
  }
  return { problem: null, orders };
}

/**
 * Whether Fragment's address took an order's messages: every message received by a successful transaction
 * (`paid`), one of them bounced (`bounced`: the TON came back, Fragment was not paid), or not all found yet.
 */
export function receiptOf(hashes: string[], received: Map<string, { success: boolean }>): 'paid' | 'bounced' | 'waiting' {
  if (hashes.length === 0) return 'waiting';
  let found = 0;
  for (const h of hashes) {
    const t = received.get(h);
    if (t && !t.success) return 'bounced';
    if (t) found++;
  }
  return found === hashes.length ? 'paid' : 'waiting';
}
