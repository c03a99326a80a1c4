/** Delays after attempt 1..5 (partner-api.md Emission rule 3): 6 attempts in total. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When the attempt after `attemptsMade` failed attempts is due, or null when the schedule is used up. */
export function nextAttemptDelay(attemptsMade: number): number | null {
  return attemptsMade >= 1 && attemptsMade <= RETRY_DELAYS_MS.length ? RETRY_DELAYS_MS[attemptsMade - 1] : null;
}
