import type { Currency } from './money.js';

/** Ledger rules: pure arithmetic of one append-only entry. */
export type EntryKind = 'topup' | 'order_debit' | 'order_refund';

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

/** Plans an entry; a debit that would take the balance below zero is refused. */
export function planEntry(balance: number, currency: Currency, kind: EntryKind, amount: number): EntryPlan {
  if (!Number.isSafeInteger(amount)) throw new Error('amount must be an integer of minor units');
  if (kind === 'order_debit' && amount > 0) throw new Error('a debit is negative');
  if (kind !== 'order_debit' && amount < 0) throw new Error('a credit is positive');
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
