import type { LedgerEntryKind } from './enums.js';
import type { Currency } from './money.js';

/**
 * Ledger rules: pure arithmetic of one append-only entry. The database holds the same rules as CHECK
 * constraints and triggers (src/store/schema/ledger.ts): this module refuses first, with a clear error.
 */
export type EntryKind = LedgerEntryKind;

export interface EntryPlan {
  currency: Currency;
  amount: number; // signed minor units
  kind: EntryKind;
  balanceAfter: number;
}

export class InsufficientBalance extends Error {
  constructor(
    readonly currency: Currency,
    readonly balance: number,
  ) {
    super('insufficient balance');
  }
}

/**
 * The database refused an entry as a second one of its kind: a second debit or refund of one order, a second
 * credit of one top-up (the unique indexes of src/store/schema/ledger.ts). Nothing of the statement was written.
 */
export class DuplicateEntry extends Error {
  constructor(
    readonly kind: EntryKind,
    readonly ref: string,
  ) {
    super(`a ${kind} entry already exists for ${ref}`);
  }
}

/**
 * Plans an entry; anything that would take the balance below zero is refused. An adjustment (support's
 * correction of a mistaken credit or debit) is signed either way, never zero.
 */
export function planEntry(balance: number, currency: Currency, kind: EntryKind, amount: number): EntryPlan {
  if (!Number.isSafeInteger(amount)) throw new Error('amount must be an integer of minor units');
  if (kind === 'adjustment') {
    if (amount === 0) throw new Error('an adjustment is not zero');
  } else if (kind === 'order_debit') {
    if (amount > 0) throw new Error('a debit is negative');
  } else if (amount < 0) throw new Error('a credit is positive');
  const balanceAfter = balance + amount;
  if (balanceAfter < 0) throw new InsufficientBalance(currency, balance);
  return { currency, amount, kind, balanceAfter };
}

/** Top-up minimums (partner-api.md "Activation and top-up rules"), in minor units. */
export function topupMinimum(currency: Currency, firstTopup: boolean): number {
  if (firstTopup) return currency === 'USD' ? 1000 : 10_000;
  return currency === 'USD' ? 500 : 10_000;
}

/** Which networks accept which currency. */
export const NETWORKS_BY_CURRENCY: Record<Currency, readonly string[]> = {
  USD: ['ton', 'trc20', 'bep20'],
  TON: ['ton'],
};
