import type { Clock } from '../kernel/clock.js';
import { fail } from '../domain/errors.js';
import { budgetOf, freshBucket, remainingOf, resetOf, takeInPlace, type Bucket, type BucketRule, type Budget } from '../domain/token-bucket.js';

export type LimitScope = 'key' | 'validate_recipient' | 'nft_catalog' | 'nft_orders' | 'app_user' | 'not_found';

export interface ScopeRule extends BucketRule {
  /** The figure reported as `limit` in the 429 body (per `window_seconds`). */
  limit: number;
}

/** What the RateLimit-* headers are set on (a Fastify reply). */
interface HeaderSink {
  header(name: string, value: string): unknown;
}

/**
 * In-memory token buckets per scope and subject, on the service clock. Memory is the right place: the
 * limits protect this one process, and a restart forgetting them is harmless. One map per scope, keyed by
 * the subject itself, and each bucket changed in place: a request makes no object here.
 */
export class RateLimiter {
  private readonly buckets = new Map<LimitScope, Map<string | number, Bucket>>();
  private size = 0;
  private lastSweep = 0;
  /** The scope's RateLimit-Limit text, made once. */
  private readonly limitText = new Map<LimitScope, string>();

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<LimitScope, ScopeRule>,
  ) {
    for (const scope of Object.keys(rules) as LimitScope[]) {
      this.buckets.set(scope, new Map());
      this.limitText.set(scope, String(rules[scope].capacity));
    }
  }

  /**
   * Takes one token or throws 429 rate_limited with the contract's body and Retry-After (and, with
   * `budgetHeaders`, the RateLimit-* headers of this scope). Returns the budget left.
   */
  hit(scope: LimitScope, subject: string | number, budgetHeaders = false): Budget {
    const bucket = this.taken(scope, subject, budgetHeaders);
    return budgetOf(bucket, this.rules[scope]);
  }

  /**
   * Takes one token and sets the scope's RateLimit-* headers on `reply` (every partner API answer carries
   * the key's general budget), or throws 429 as `hit` with `budgetHeaders`.
   */
  hitWithHeaders(scope: LimitScope, subject: string | number, reply: HeaderSink): void {
    const bucket = this.taken(scope, subject, true);
    setRateLimitHeaders(reply, this.limitText.get(scope)!, remainingOf(bucket), resetOf(bucket, this.rules[scope]));
  }

  private taken(scope: LimitScope, subject: string | number, budgetHeaders: boolean): Bucket {
    const now = this.clock.now();
    const rule = this.rules[scope];
    const map = this.buckets.get(scope)!;
    let bucket = map.get(subject);
    if (bucket === undefined) {
      bucket = freshBucket(now, rule);
      map.set(subject, bucket);
      this.size++;
      this.sweep(now);
    }
    const retryAfter = takeInPlace(bucket, now, rule);
    if (retryAfter !== 0) {
      fail(
        'rate_limited',
        `Rate limit exceeded for scope ${scope}. Retry in ${retryAfter} s.`,
        { scope, limit: rule.limit, window_seconds: 60, retry_after: retryAfter },
        { 'Retry-After': String(retryAfter), ...(budgetHeaders ? rateLimitHeaders(budgetOf(bucket, rule)) : {}) },
      );
    }
    return bucket;
  }

  /** Drops buckets that have refilled completely (they equal a fresh bucket); looked at when a bucket is added. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000 || this.size < 10_000) return;
    this.lastSweep = now;
    for (const map of this.buckets.values())
      for (const [subject, b] of map)
        if (now - b.updatedAt > 120_000) {
          map.delete(subject);
          this.size--;
        }
  }
}

/** Sets the RateLimit-* header fields of a budget on an answer (the one place their names are written). */
function setRateLimitHeaders(reply: HeaderSink, limit: string, remaining: number, reset: number): void {
  reply.header('ratelimit-limit', limit);
  reply.header('ratelimit-remaining', String(remaining));
  reply.header('ratelimit-reset', String(reset));
}

/** The same fields as an object, for the 429 answer's headers. */
export function rateLimitHeaders(b: Budget): Record<string, string> {
  const h: Record<string, string> = {};
  setRateLimitHeaders({ header: (name, value) => (h[name] = value) }, String(b.limit), b.remaining, b.reset);
  return h;
}
