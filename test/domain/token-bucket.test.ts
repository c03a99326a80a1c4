import { describe, expect, it } from 'vitest';
import { budgetOf, take, type Bucket, type BucketRule } from '../../src/domain/token-bucket.js';

/**
 * The token bucket behind the contract's limits (partner-api.md Limits: 120 per minute with a burst of
 * 30 per key; 30 per minute for the NFT catalog; 60 per minute for NFT orders). `retryAfter` is whole
 * seconds until one token is there (the `Retry-After` of 429 rate_limited), at least 1 when refused.
 */
const KEY: BucketRule = { capacity: 30, perMinute: 120 }; //      one token per 500 ms
const CATALOG: BucketRule = { capacity: 30, perMinute: 30 }; //   one token per 2 s
const ORDERS: BucketRule = { capacity: 60, perMinute: 60 }; //    one token per 1 s
const SLOW: BucketRule = { capacity: 5, perMinute: 6 }; //        one token per 10 s
const ONE: BucketRule = { capacity: 1, perMinute: 1 }; //         one token per minute

function drain(rule: BucketRule, now: number): Bucket {
  let b: Bucket | undefined;
  for (let i = 0; i < rule.capacity; i++) {
    const r = take(b, now, rule);
    expect(r.allowed).toBe(true);
    b = r.bucket;
  }
  return b!;
}

describe('a fresh bucket allows a burst of exactly its capacity', () => {
  it.each([
    // rule, retry after the first refusal (s): one token takes 500 ms, 2 s, 1 s, 10 s, 60 s
    ['key 120/min burst 30', KEY, 1],
    ['nft catalog 30/min', CATALOG, 2],
    ['nft orders 60/min', ORDERS, 1],
    ['6/min burst 5', SLOW, 10],
    ['1/min burst 1', ONE, 60],
  ] as const)('%s', (_name, rule, retryAfter) => {
    const b = drain(rule, 1_000_000);
    expect(b.tokens).toBe(0);
    const refused = take(b, 1_000_000, rule);
    expect(refused).toEqual({ allowed: false, bucket: { tokens: 0, updatedAt: 1_000_000 }, retryAfter });
  });
});

describe('refill over time', () => {
  // after draining at t = 0: steps of [ms since the drain, allowed, retryAfter, tokens after]
  it.each([
    ['KEY: a token every 500 ms', KEY, [
      [0, false, 1, 0],
      [250, false, 1, 0.5], // 0.5 token; 250 ms left → rounded up to 1 s
      [500, true, 0, 0], // exactly one token after 500 ms
      [500, false, 1, 0],
      [1500, true, 0, 1], // 1000 ms later: two tokens, one taken
      [1500, true, 0, 0],
    ]],
    ['CATALOG: a token every 2 s', CATALOG, [
      [800, false, 2, 0.4], // 1.2 s to go → 2 s (rounded up, not to the nearest)
      [1000, false, 1, 0.5], // half a token, 1 s to go
      [1999, false, 1, 0.9995],
      [2000, true, 0, 0],
      [2001, false, 2, 0.0005], // 1999 ms to go → 2 s
    ]],
    ['SLOW: a token every 10 s', SLOW, [
      [4000, false, 6, 0.4], // 6 s to go
      [10000, true, 0, 0],
      [60000, true, 0, 4], // 50 s: 5 tokens (the capacity), one taken
    ]],
    ['ONE: a token a minute', ONE, [
      [59_000, false, 1, 59 / 60],
      [60_000, true, 0, 0],
    ]],
  ] as const)('%s', (_name, rule, steps) => {
    let b = drain(rule, 0);
    for (const [at, allowed, retryAfter, tokens] of steps) {
      const r = take(b, at, rule);
      expect({ at, allowed: r.allowed, retryAfter: r.retryAfter }).toEqual({ at, allowed, retryAfter });
      expect(r.bucket.tokens).toBeCloseTo(tokens, 9);
      expect(r.bucket.updatedAt).toBe(at);
      b = r.bucket;
    }
  });

  it('never fills above the capacity, however long the wait', () => {
    const r = take({ tokens: 0, updatedAt: 0 }, 24 * 3600_000, KEY);
    expect(r).toEqual({ allowed: true, bucket: { tokens: 29, updatedAt: 24 * 3600_000 }, retryAfter: 0 });
  });

  it('a refusal takes nothing: the next token comes at the same time as without it', () => {
    const b = drain(KEY, 0);
    const r1 = take(b, 100, KEY);
    const r2 = take(r1.bucket, 200, KEY);
    expect([r1.allowed, r2.allowed]).toEqual([false, false]);
    expect(take(r2.bucket, 500, KEY).allowed).toBe(true);
  });

  it('a clock read earlier than the last update adds no tokens', () => {
    const r = take({ tokens: 0.5, updatedAt: 10_000 }, 5_000, KEY);
    expect(r.allowed).toBe(false);
    expect(r.bucket.tokens).toBe(0.5);
  });
});

describe('budgetOf (RateLimit-* headers)', () => {
  it.each([
    // tokens, rule, limit, remaining, reset (s until full)
    [30, KEY, 30, 30, 0],
    [29, KEY, 30, 29, 1], // 1 token missing at 2 per second: 0.5 s → 1
    [0, KEY, 30, 0, 15], // 30 tokens at 2 per second
    [12.7, KEY, 30, 12, 9], // 17.3 missing / 2 = 8.65 → 9; whole tokens only
    [0, CATALOG, 30, 0, 60],
    [29.5, CATALOG, 30, 29, 1],
    [0, ONE, 1, 0, 60],
    [0.99, ONE, 1, 0, 1], // 0.01 token missing: 0.6 s → 1
  ] as const)('%d tokens → limit %d, remaining %d, reset %d', (tokens, rule, limit, remaining, reset) => {
    expect(budgetOf({ tokens, updatedAt: 0 }, rule)).toEqual({ limit, remaining, reset });
  });
});
