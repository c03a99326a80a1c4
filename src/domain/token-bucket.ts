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
  const b = bucket ? { tokens: bucket.tokens, updatedAt: bucket.updatedAt } : freshBucket(now, rule);
  const retryAfter = takeInPlace(b, now, rule);
  return { allowed: retryAfter === 0, bucket: b, retryAfter };
}

export function freshBucket(now: number, rule: BucketRule): Bucket {
  return { tokens: rule.capacity, updatedAt: now };
}

/**
 * `take` on a bucket owned by the caller, changed in place (the rate limiter's buckets, taken from on every
 * request: no object made). Returns 0 when a token was taken, else the whole seconds until one is there.
 */
export function takeInPlace(b: Bucket, now: number, rule: BucketRule): number {
  const perMs = rule.perMinute / 60_000;
  const elapsed = Math.max(0, now - b.updatedAt);
  const tokens = Math.min(rule.capacity, b.tokens + elapsed * perMs);
  b.updatedAt = now;
  if (tokens >= 1) {
    b.tokens = tokens - 1;
    return 0;
  }
  b.tokens = tokens;
  const waitMs = (1 - tokens) / perMs;
  return Math.max(1, Math.ceil(waitMs / 1000));
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
  return { limit: rule.capacity, remaining: remainingOf(bucket), reset: resetOf(bucket, rule) };
}

/** The budget's `remaining` (whole tokens left). */
export function remainingOf(bucket: Bucket): number {
  return Math.max(0, Math.floor(bucket.tokens));
}

/** The budget's `reset` (whole seconds until full, 0 when full). */
export function resetOf(bucket: Bucket, rule: BucketRule): number {
  const missing = Math.max(0, rule.capacity - bucket.tokens);
  return missing === 0 ? 0 : Math.ceil(missing / (rule.perMinute / 60));
}
