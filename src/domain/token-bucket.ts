/**
 * A token bucket, pure. Written by hand rather than taken from a rate-limit library because the windows
 * must follow the injected service clock (the sandbox moves it), and the libraries read Date.now().
 */
export interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface BucketRule {
  capacity: number;
  /** Tokens added per minute. */
  perMinute: number;
}

export interface TakeResult {
  allowed: boolean;
  bucket: Bucket;
  /** Whole seconds until one token is available (0 when allowed). */
  retryAfter: number;
}

export function take(bucket: Bucket | undefined, now: number, rule: BucketRule): TakeResult {
  const perMs = rule.perMinute / 60_000;
  const prev = bucket ?? { tokens: rule.capacity, updatedAt: now };
  const elapsed = Math.max(0, now - prev.updatedAt);
  const tokens = Math.min(rule.capacity, prev.tokens + elapsed * perMs);
  if (tokens >= 1) return { allowed: true, bucket: { tokens: tokens - 1, updatedAt: now }, retryAfter: 0 };
  const waitMs = (1 - tokens) / perMs;
  return { allowed: false, bucket: { tokens, updatedAt: now }, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/**
 * The budget a bucket shows in the RateLimit-* headers (IETF draft "RateLimit header fields"): `limit` is
 * the capacity (the most requests that can be sent at once), `remaining` the whole tokens left, `reset`
 * whole seconds until the bucket is full again (0 when it is).
 */
export interface Budget {
  limit: number;
  remaining: number;
  reset: number;
}

export function budgetOf(bucket: Bucket, rule: BucketRule): Budget {
  const missing = Math.max(0, rule.capacity - bucket.tokens);
  return {
    limit: rule.capacity,
    remaining: Math.max(0, Math.floor(bucket.tokens)),
    reset: missing === 0 ? 0 : Math.ceil(missing / (rule.perMinute / 60)),
  };
}
