import type { Clock } from '../kernel/clock.js';
import { fail } from '../domain/errors.js';
import { budgetOf, take, type Bucket, type BucketRule, type Budget } from '../domain/token-bucket.js';

export type LimitScope = 'key' | 'validate_recipient' | 'nft_catalog' | 'nft_orders' | 'app_user' | 'not_found';

export interface ScopeRule extends BucketRule {
  /** The figure reported as `limit` in the 429 body (per `window_seconds`). */
  limit: number;
}

/**
 * In-memory token buckets per scope and subject, on the service clock. Memory is the right place: the
 * limits protect this one process, and a restart forgetting them is harmless.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<LimitScope, ScopeRule>,
  ) {}

  /**
   * Takes one token or throws 429 rate_limited with the contract's body and Retry-After (and, with
   * `budgetHeaders`, the RateLimit-* headers of this scope). Returns the budget left.
   */
  hit(scope: LimitScope, subject: string | number, budgetHeaders = false): Budget {
    const now = this.clock.now();
    const rule = this.rules[scope];
    const id = `${scope}:${subject}`;
    const r = take(this.buckets.get(id), now, rule);
    this.buckets.set(id, r.bucket);
    this.sweep(now);
    const budget = budgetOf(r.bucket, rule);
    if (!r.allowed) {
      fail(
        'rate_limited',
        `Rate limit exceeded for scope ${scope}. Retry in ${r.retryAfter} s.`,
        { scope, limit: rule.limit, window_seconds: 60, retry_after: r.retryAfter },
        { 'Retry-After': String(r.retryAfter), ...(budgetHeaders ? rateLimitHeaders(budget) : {}) },
      );
    }
    return budget;
  }

  /** Drops buckets that have refilled completely (they equal a fresh bucket). */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000 || this.buckets.size < 10_000) return;
    this.lastSweep = now;
    for (const [id, b] of this.buckets) if (now - b.updatedAt > 120_000) this.buckets.delete(id);
  }
}

/** Sets the RateLimit-* header fields of a budget on an answer (every partner API answer, for the key's general budget): no object made per request. */
export function setRateLimitHeaders(reply: { header(name: string, value: string): unknown }, b: Budget): void {
  reply.header('ratelimit-limit', String(b.limit));
  reply.header('ratelimit-remaining', String(b.remaining));
  reply.header('ratelimit-reset', String(b.reset));
}

/** The same fields as an object, for the 429 answer's headers (the names written once, above). */
export function rateLimitHeaders(b: Budget): Record<string, string> {
  const h: Record<string, string> = {};
  setRateLimitHeaders({ header: (name, value) => (h[name] = value) }, b);
  return h;
}
