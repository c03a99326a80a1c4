import { describe, expect, it } from 'vitest';
import { InsufficientBalance, NETWORKS_BY_CURRENCY, planEntry, topupMinimum } from '../../src/domain/ledger-rules.js';

/** One append-only ledger entry (partner-api.md rules 1, 5, 6) and the top-up rules ("Activation and top-up rules"). */
describe('planEntry', () => {
  it.each([
    // balance, currency, kind, amount, balance after
    [0, 'USD', 'topup', 1000, 1000],
    [1000, 'USD', 'topup', 500, 1500],
    [1000, 'USD', 'order_debit', -79, 921],
    [1000, 'USD', 'order_debit', -1000, 0], // the whole balance: allowed, down to exactly zero
    [921, 'USD', 'order_refund', 79, 1000],
    [0, 'TON', 'topup', 10000, 10000],
    [10558, 'TON', 'order_debit', -10558, 0],
    [0, 'TON', 'order_refund', 10558, 10558],
  ] as const)('%d %s, %s %d → %d', (balance, currency, kind, amount, after) => {
    expect(planEntry(balance, currency, kind, amount)).toEqual({ currency, amount, kind, balanceAfter: after });
  });

  it.each([
    // rule 6: an insufficient balance is refused at once; nothing is reserved
    [0, 'USD', -1],
    [78, 'USD', -79],
    [1000, 'USD', -1001],
    [10557, 'TON', -10558],
  ] as const)('debit from %d %s of %d → InsufficientBalance with the balance', (balance, currency, amount) => {
    let err: unknown;
    try {
      planEntry(balance, currency, 'order_debit', amount);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InsufficientBalance);
    expect({ currency: (err as InsufficientBalance).currency, balance: (err as InsufficientBalance).balance }).toEqual({ currency, balance });
  });

  it.each([
    ['order_debit', 79, 'a debit is negative'],
    ['topup', -500, 'a credit is positive'],
    ['order_refund', -79, 'a credit is positive'],
    ['topup', 12.5, 'amount must be an integer of minor units'],
    ['order_debit', -0.5, 'amount must be an integer of minor units'],
    ['topup', Number.NaN, 'amount must be an integer of minor units'],
    ['topup', Number.POSITIVE_INFINITY, 'amount must be an integer of minor units'],
    ['topup', 2 ** 53, 'amount must be an integer of minor units'],
  ] as const)('%s of %d is a programming error: %s', (kind, amount, message) => {
    expect(() => planEntry(1000, 'USD', kind, amount)).toThrow(message);
    expect(() => planEntry(1000, 'USD', kind, amount)).not.toThrow(InsufficientBalance);
  });
});

describe('topupMinimum', () => {
  it.each([
    // "The first top-up is at least 10.00 in dollars or at least 10 in TON. Later dollar top-ups start
    // from 5. The minimum TON top-up is 10 TON."
    ['USD', true, 1000],
    ['TON', true, 10000],
    ['USD', false, 500],
    ['TON', false, 10000],
  ] as const)('%s, first %s → %d minor units', (currency, first, min) => {
    expect(topupMinimum(currency, first)).toBe(min);
  });
});

describe('networks by currency', () => {
  it.each([
    // "Dollar funding is accepted on the TON, TRC-20 and BEP-20 networks. TON funding is accepted only as
    // the TON coin on the TON network"
    ['USD', ['ton', 'trc20', 'bep20']],
    ['TON', ['ton']],
  ] as const)('%s → %j', (currency, networks) => {
    expect([...NETWORKS_BY_CURRENCY[currency]].sort()).toEqual([...networks].sort());
  });
});
