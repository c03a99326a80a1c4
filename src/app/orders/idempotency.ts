import crypto from 'node:crypto';
import type { z } from 'zod';
import { fail } from '../../domain/errors.js';
import { pythonStyleJson } from '../../domain/python-style-json.js';
import { getIdem } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import { OrderEnvelope } from '../requests/orders.js';
import { ORDER_BODY_RULES, parseRequest } from '../requests/parse.js';

/** The envelope of an order request: type, idempotency_key, client_reference. */
export type OrderHead = Readonly<z.output<typeof OrderEnvelope>>;

/**
 * The idempotency of order creation (partner-api.md "Idempotency"): a bound key answers with its order, a
 * key bound to other parameters is 409 `idempotency_key_reuse`, a key whose creation is in flight is 409
 * `order_in_progress`.
 *
 * The claim of a creation in flight lives in memory (`deps.inFlight`): it only has to last while this
 * process works on the request, and a crash forgets it exactly as it should. The durable record is the
 * key bound to its order, written in the debiting transaction (src/app/orders/create.ts).
 */

/**
 * SHA-256 of the canonical request (keys sorted at every level, Python json.dumps spacing).
 * `client_reference` enters only when given, so a request without one keeps the fingerprint that keys
 * bound by earlier versions store.
 */
export function fingerprintOf(body: { type: string; params: unknown; webhook_url: unknown; client_reference?: string | null }): string {
  const { client_reference, ...rest } = body;
  const canonical = client_reference === undefined || client_reference === null ? rest : body;
  return crypto.hash('sha256', pythonStyleJson(canonical, { sortKeys: true }), 'hex');
}

/**
 * Requests replayed lately, by the JSON text of the body: a partner retrying sends the same request again
 * and again, and this skips parsing its envelope again, canonicalising and hashing it (the same text is the
 * same value, so the same envelope and fingerprint). Over HTTP the text is the body exactly as received
 * (`noteBodyText`), and the parsed body is remembered too, so the HTTP layer hands a retry its body without
 * parsing the text again (`replayedBody`): one parse per distinct text. A body from elsewhere (the bot)
 * is keyed by its JSON.stringify text, and only when that has no `null` (JSON.stringify writes a number
 * that parsed as Infinity as null, and such a body must still be refused by fingerprintOf). Only replays
 * are remembered (a first request is never seen again), only short texts (at most ~10 MB in all). Starts
 * afresh when full.
 */
interface Replayed {
  head: OrderHead;
  fingerprint: string;
  /** The body parsed from exactly this text, deeply frozen (null for a text made by JSON.stringify). */
  body: object | null;
}
const replayed = new Map<string, Replayed>();
/** The remembered entry of a body handed out by `replayedBody`. */
const byBody = new WeakMap<object, Replayed>();
/** The text an HTTP body was parsed from. */
const texts = new WeakMap<object, string>();
const MEMO_MAX_TEXT = 1024;

/** Notes the text a request body was parsed from (the HTTP body parser of POST /orders). */
export function noteBodyText(body: unknown, text: string): void {
  if (typeof body === 'object' && body !== null && text.length <= MEMO_MAX_TEXT) texts.set(body, text);
}

/** The parsed body of a text replayed lately, or undefined: the same text parses to the same value. */
export function replayedBody(text: string): object | undefined {
  if (text.length > MEMO_MAX_TEXT) return undefined;
  return replayed.get(text)?.body ?? undefined;
}

/** The memo's text of a body (null: never remembered). */
function memoText(body: unknown): { text: string; exact: boolean } | null {
  if (typeof body !== 'object' || body === null) return null;
  const text = texts.get(body);
  if (text !== undefined) return { text, exact: true };
  const raw = JSON.stringify(body);
  return raw.length <= MEMO_MAX_TEXT && !raw.includes('null') ? { text: raw, exact: false } : null;
}

/** The envelope of a body, parsed (or remembered from an earlier replay of the same text). */
export function orderHead(body: unknown): { head: OrderHead; memo: { text: string; exact: boolean } | null; body: unknown; known?: Replayed } {
  const handed = typeof body === 'object' && body !== null ? byBody.get(body) : undefined;
  if (handed) return { head: handed.head, memo: null, body, known: handed };
  const memo = memoText(body);
  const known = memo === null ? undefined : replayed.get(memo.text);
  if (known) return { head: known.head, memo, body, known };
  return { head: Object.freeze(parseRequest(OrderEnvelope, body, ORDER_BODY_RULES)), memo, body };
}

function requestFingerprint(body: Record<string, unknown>, type: string): string {
  try {
    const ref = typeof body.client_reference === 'string' ? body.client_reference : null;
    return fingerprintOf({ type, params: body.params ?? null, webhook_url: body.webhook_url ?? null, client_reference: ref });
  } catch {
    // JSON.parse turns a number like 1e400 into Infinity, which has no exact JSON form
    fail('bad_request', 'Numbers in the body must be finite.');
  }
}

function rememberReplay(parsed: ReturnType<typeof orderHead>, fingerprint: string): void {
  const memo = parsed.memo;
  if (memo === null) return;
  if (replayed.size >= 10_000) replayed.clear();
  // the body handed to later requests of the same text: nothing may change it
  const body = memo.exact ? deepFreeze(parsed.body as object) : null;
  const r: Replayed = { head: parsed.head, fingerprint, body };
  replayed.set(memo.text, r);
  if (body) byBody.set(body, r);
}

function deepFreeze<T extends object>(v: T): T {
  for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) deepFreeze(x);
  return Object.freeze(v);
}

/** One request's key: its fingerprint, the check for a replay, and the claim while the order is made. */
export class OrderKey {
  readonly fingerprint: string;
  readonly key: string;
  private readonly claimKey: string;
  /** The commit counter at the first check: only a commit binds a key. */
  private commitsAtCheck = -1;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'commits' | 'inFlight'>,
    readonly partnerId: number,
    private readonly parsed: ReturnType<typeof orderHead>,
    body: Record<string, unknown>,
  ) {
    this.key = parsed.head.idempotency_key;
    this.fingerprint = parsed.known?.fingerprint ?? requestFingerprint(body, parsed.head.type);
    this.claimKey = `${partnerId}\u0000${this.key}`;
  }

  /** The order this key is bound to (same request: a replay), or null when the key is new; refuses the rest. */
  replayedOrderId(): string | null {
    this.commitsAtCheck = this.deps.commits.commits;
    return this.boundOrderId();
  }

  /**
   * The same check after an await (the params' checks may have awaited): when no commit happened since the
   * first check, only the in-flight claims can have changed.
   */
  recheck(): string | null {
    return this.deps.commits.commits === this.commitsAtCheck ? this.inFlightCheck() : this.boundOrderId();
  }

  /** Runs the creation with the key claimed in memory; the claim ends with it, whatever the outcome. */
  async whileClaimed<T>(fn: () => Promise<T>): Promise<T> {
    this.deps.inFlight.set(this.claimKey, this.fingerprint);
    try {
      return await fn();
    } finally {
      this.deps.inFlight.delete(this.claimKey);
    }
  }

  private boundOrderId(): string | null {
    const seen = getIdem(this.deps.db, this.partnerId, this.key);
    if (seen) {
      if (seen.fingerprint !== this.fingerprint) fail('idempotency_key_reuse');
      if (!seen.orderId) fail('order_in_progress');
      if (!this.parsed.known) rememberReplay(this.parsed, this.fingerprint);
      return seen.orderId;
    }
    return this.inFlightCheck();
  }

  private inFlightCheck(): null {
    const inFlight = this.deps.inFlight.get(this.claimKey);
    if (inFlight !== undefined) fail(inFlight === this.fingerprint ? 'order_in_progress' : 'idempotency_key_reuse');
    return null;
  }
}
