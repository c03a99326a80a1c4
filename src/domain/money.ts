import { Decimal } from 'decimal.js';

/**
 * Money inside the service is integer minor units: cents for USD, milli-TON for TON.
 * Outside it is a decimal string with a fixed number of places (2 for USD, 3 for TON).
 */
import type { Currency } from './enums.js';

export { isCurrency, type Currency } from './enums.js';

export const DECIMALS: Record<Currency, number> = { USD: 2, TON: 3 };
const SCALE: Record<Currency, number> = { USD: 100, TON: 1000 };


/**
 * "12.5" → 1250 (USD). Returns null when the text is not a plain non-negative decimal or its value has more
 * places than the currency ("12.505" USD); trailing zeros beyond them ("12.500") are accepted: nothing is rounded.
 */
export function parseAmount(text: unknown, currency: Currency): number | null {
  if (typeof text !== 'string' && typeof text !== 'number') return null;
  const s = String(text).trim();
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const d = new Decimal(s);
  const minor = d.mul(SCALE[currency]);
  if (!minor.isInteger()) return null;
  if (minor.gt(Number.MAX_SAFE_INTEGER)) return null;
  return minor.toNumber();
}

/**
 * 1250 → "12.50" (USD); -1250 → "-12.50". A whole number of minor units (every stored amount) is written
 * from its digits, exactly and without a Decimal (it runs several times per order and per balance shown);
 * anything else goes through Decimal, rounded as before.
 */
export function formatAmount(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor)) return new Decimal(minor).div(SCALE[currency]).toFixed(DECIMALS[currency]);
  const places = DECIMALS[currency];
  const digits = String(Math.abs(minor)).padStart(places + 1, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** 1250 → 12.5, for the one numeric field of the contract (`refund_amount`). */
export function amountAsNumber(minor: number, currency: Currency): number {
  return new Decimal(minor).div(SCALE[currency]).toNumber();
}

/** Any positive decimal string (any number of places) → Decimal, else null. Used for `max_price`. */
export function parsePositiveDecimal(text: unknown): Decimal | null {
  if (typeof text !== 'string') return null;
  const s = text.trim();
  if (s !== text || !/^(\d+(\.\d*)?|\.\d+)$/.test(s)) return null;
  const d = new Decimal(s);
  return d.gt(0) ? d : null;
}


/** "1.5" TON → 1_500_000_000n nanoTON (exact decimal arithmetic, no floats). */
export function toNano(s: string): bigint {
  const [whole, frac = ''] = s.split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt((frac + '000000000').slice(0, 9));
}

/** 1_500_000_000n nanoTON → "1.500000000" TON (all nine places). */
export function fromNano(n: bigint): string {
  const neg = n < 0n;
  const a = neg ? -n : n;
  return `${neg ? '-' : ''}${a / 1_000_000_000n}.${(a % 1_000_000_000n).toString().padStart(9, '0')}`;
}
