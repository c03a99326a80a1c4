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
 * Requests replayed lately, by the JSON text of the parsed body: a partner retrying sends the same request
 * again and again, and this skips parsing its envelope again, canonicalising and hashing it (the same text
 * is the same value, so the same envelope and fingerprint). Only replays are remembered (a first request
 * is never seen again), only short texts (at most ~10 MB in all), and only texts without `null`:
 * JSON.stringify writes a number that parsed as Infinity as null, and such a body must still be refused by
 * fingerprintOf. Starts afresh when full.
 */
interface Replayed {
  head: OrderHead;
  fingerprint: string;
}
const replayed = new Map<string, Replayed>();
const MEMO_MAX_TEXT = 1024;

/** The memo's text of a body (null: never remembered). */
function memoText(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const raw = JSON.stringify(body);
  return raw.length <= MEMO_MAX_TEXT && !raw.includes('null') ? raw : null;
}

/** The envelope of a body, parsed (or remembered from an earlier replay of the same text). */
export function orderHead(body: unknown): { head: OrderHead; memo: string | null; known?: Replayed } {
  const memo = memoText(body);
  const known = memo === null ? undefined : replayed.get(memo);
  if (known) return { head: known.head, memo, known };
  return { head: Object.freeze(parseRequest(OrderEnvelope, body, ORDER_BODY_RULES)), memo };
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

function rememberReplay(memo: string | null, r: Replayed): void {
  if (memo === null) return;
  if (replayed.size >= 10_000) replayed.clear();
  replayed.set(memo, r);
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
      if (!this.parsed.known) rememberReplay(this.parsed.memo, { head: this.parsed.head, fingerprint: this.fingerprint });
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
