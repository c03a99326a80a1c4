import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, nextAttemptDelay } from '../../src/domain/webhook-retry-schedule.js';

/**
 * partner-api.md Emission rule 3 and Limits: "Retries come after 1 minute, 5 minutes, 30 minutes, 2 hours
 * and 6 hours, for 6 attempts in total, then the service stops."
 */
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('the retry schedule', () => {
  it('is 1 min, 5 min, 30 min, 2 h, 6 h: 6 attempts in total', () => {
    expect([...RETRY_DELAYS_MS]).toEqual([1 * MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 6 * HOUR]);
    expect(MAX_ATTEMPTS).toBe(6);
  });

  it.each([
    // failed attempts so far, delay to the next one
    [1, 1 * MIN],
    [2, 5 * MIN],
    [3, 30 * MIN],
    [4, 2 * HOUR],
    [5, 6 * HOUR],
    [6, null], // the sixth attempt was the last
    [7, null],
    [0, null], // nothing was attempted yet: no retry delay
    [-1, null],
  ])('after %d failed attempt(s) → %s', (made, delay) => {
    expect(nextAttemptDelay(made)).toBe(delay);
  });

  it('the last attempt comes 8 h 36 min after the first', () => {
    let at = 0;
    for (let n = 1; nextAttemptDelay(n) !== null; n++) at += nextAttemptDelay(n)!;
    expect(at).toBe(8 * HOUR + 36 * MIN);
  });
});
