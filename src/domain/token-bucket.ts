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
