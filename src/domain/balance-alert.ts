import { DECIMALS, parseAmount, type Currency } from './money.js';

/**
 * Low-balance alerts, pure: a threshold per currency, and when a debit calls for an
 * alert. One alert when a debit leaves the balance below the threshold; not again until the balance has
 * been back at or above it. That it has been back is seen at the next debit (the balance before it is at or
 * above the threshold), so credits need no bookkeeping; `alerted` covers a threshold saved while the
 * balance was already below it (the next debit alerts).
 */

/** A threshold as the contract formats money ("100.00" USD, "50.000" TON): a positive amount with at most the currency's decimals. */
export function parseThreshold(value: unknown, currency: Currency): number | null {
  // fewer decimals are fine ("100", "100.5"); more are refused even when they are zeros ("100.000" USD)
  if (typeof value !== 'string' || !new RegExp(`^\\d{1,13}(\\.\\d{1,${DECIMALS[currency]}})?$`).test(value)) return null;
  const minor = parseAmount(value, currency);
  return minor !== null && minor > 0 ? minor : null;
}

export function thresholdRule(currency: Currency): string {
  return `a positive amount as a string with at most ${DECIMALS[currency]} decimals (e.g. "${currency === 'USD' ? '100.00' : '50.000'}"), or null to clear it`;
}

export interface AlertState {
  threshold: number;
  alerted: boolean;
}

/** The state after a debit from `before` to `after` (minor units), and whether the owners are to be told. */
export function afterDebit(s: AlertState, before: number, after: number): { alert: boolean; alerted: boolean } {
  if (after >= s.threshold) return { alert: false, alerted: false };
  const alert = !s.alerted || before >= s.threshold;
  return { alert, alerted: true };
}
