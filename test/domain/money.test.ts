import { describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { DECIMALS, amountAsNumber, formatAmount, parseAmount, parsePositiveDecimal } from '../../src/domain/money.js';

/**
 * Money as the contract spells it (partner-api.md "What the service does", rule 4): JSON strings with two
 * decimals for USD and three for TON; inside the service, integer minor units (cents, milli-TON).
 */
describe('decimals per currency', () => {
  it('USD has 2, TON has 3', () => {
    expect(DECIMALS).toEqual({ USD: 2, TON: 3 });
  });
});

describe('parseAmount', () => {
  it.each([
    // text, currency, minor units
    ['12.5', 'USD', 1250],
    ['12.50', 'USD', 1250],
    ['12', 'USD', 1200],
    ['0', 'USD', 0],
    ['0.01', 'USD', 1],
    ['10.00', 'USD', 1000], // the first top-up minimum
    ['5', 'USD', 500],
    ['25.02', 'USD', 2502],
    ['12.500', 'USD', 1250], // trailing zero: the same value, nothing is rounded
    ['90071992547409.91', 'USD', 9007199254740991], // Number.MAX_SAFE_INTEGER cents
    ['10', 'TON', 10000],
    ['0.001', 'TON', 1],
    ['10.558', 'TON', 10558],
    ['12.5', 'TON', 12500],
    ['1000.000', 'TON', 1000000],
  ] as const)('%s %s → %d', (text, currency, minor) => {
    expect(parseAmount(text, currency)).toBe(minor);
  });

  it.each([
    // more places than the currency has: refused, never rounded
    ['12.505', 'USD'],
    ['0.001', 'USD'],
    ['0.009', 'USD'],
    ['1.2345', 'TON'],
    ['0.0001', 'TON'],
    // not a plain non-negative decimal
    ['-1', 'USD'],
    ['-0.01', 'USD'],
    ['+1', 'USD'],
    ['1e3', 'USD'],
    ['1E3', 'TON'],
    ['1,50', 'USD'],
    ['1 000', 'USD'],
    ['.5', 'USD'],
    ['5.', 'USD'],
    ['0x10', 'USD'],
    ['١٢', 'USD'], // Arabic-Indic digits
    ['12.5 USD', 'USD'],
    ['$12.5', 'USD'],
    ['NaN', 'USD'],
    ['Infinity', 'TON'],
    ['', 'USD'],
    [' ', 'USD'],
    ['abc', 'TON'],
    ['90071992547409.92', 'USD'], // one cent above the largest safe integer
  ] as const)('%j %s → null', (text, currency) => {
    expect(parseAmount(text, currency)).toBeNull();
  });

  it.each([
    [12.5, 'USD', 1250],
    [10, 'TON', 10000],
    [0.001, 'TON', 1],
  ] as const)('number %d %s → %d', (n, currency, minor) => {
    expect(parseAmount(n, currency)).toBe(minor);
  });

  it.each([[0.1 + 0.2], [-1], [Number.NaN], [Number.POSITIVE_INFINITY], [1e21]])('number %d → null', (n) => {
    expect(parseAmount(n, 'USD')).toBeNull();
  });

  it.each([[null], [undefined], [true], [{}], [['12.5']], [new Decimal(1)]])('non-text %j → null', (v) => {
    expect(parseAmount(v, 'USD')).toBeNull();
  });
});

describe('formatAmount', () => {
  it.each([
    [1250, 'USD', '12.50'],
    [1200, 'USD', '12.00'],
    [0, 'USD', '0.00'],
    [1, 'USD', '0.01'],
    [5, 'USD', '0.05'],
    [99, 'USD', '0.99'],
    [-1250, 'USD', '-12.50'],
    [100000, 'USD', '1000.00'],
    [9007199254740991, 'USD', '90071992547409.91'],
    [0, 'TON', '0.000'],
    [1, 'TON', '0.001'],
    [10, 'TON', '0.010'],
    [10558, 'TON', '10.558'],
    [10000, 'TON', '10.000'],
    [1000000, 'TON', '1000.000'],
    [-55, 'TON', '-0.055'],
  ] as const)('%d %s → %s', (minor, currency, text) => {
    expect(formatAmount(minor, currency)).toBe(text);
  });

  it('writes every whole amount exactly as Decimal does (both currencies, signs, -0, every digit count)', () => {
    const samples = [-0, 9007199254740991, -9007199254740991];
    let seed = 12345; // a fixed pseudo-random sequence: the same samples on every run
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let digits = 1; digits <= 15; digits++) for (let i = 0; i < 40; i++) samples.push(Math.floor(next() * 10 ** digits) * (i % 2 ? -1 : 1));
    for (const minor of samples)
      for (const currency of ['USD', 'TON'] as const) expect(formatAmount(minor, currency), `${minor} ${currency}`).toBe(new Decimal(minor).div(currency === 'USD' ? 100 : 1000).toFixed(DECIMALS[currency]));
    // not a whole number of minor units: rounded by Decimal as before
    expect(formatAmount(1.5, 'USD')).toBe('0.02');
    expect(formatAmount(-1.5, 'USD')).toBe('-0.02');
  });

  it.each([0, 1, 7, 99, 100, 1234567, 9007199254740991])('parseAmount(formatAmount(%d)) gives it back in both currencies', (minor) => {
    expect(parseAmount(formatAmount(minor, 'USD'), 'USD')).toBe(minor);
    expect(parseAmount(formatAmount(minor, 'TON'), 'TON')).toBe(minor);
  });
});

describe('amountAsNumber (refund_amount of order.refunded is a JSON number)', () => {
  it.each([
    [1250, 'USD', 12.5],
    [1000, 'USD', 10],
    [1, 'USD', 0.01],
    [7, 'USD', 0.07],
    [10558, 'TON', 10.558],
    [1, 'TON', 0.001],
    [3, 'TON', 0.003],
  ] as const)('%d %s → %d', (minor, currency, n) => {
    expect(amountAsNumber(minor, currency)).toBe(n);
  });
});

describe('parsePositiveDecimal (max_price: "positive TON amount as a string; any number of decimals")', () => {
  it.each([
    ['10', '10'],
    ['10.558', '10.558'],
    ['0.0000001', '1e-7'],
    ['12.3456789', '12.3456789'],
    ['1.', '1'],
    ['.5', '0.5'],
    ['007.5', '7.5'],
  ])('%j → %s', (text, value) => {
    const d = parsePositiveDecimal(text);
    expect(d).not.toBeNull();
    expect(d!.eq(new Decimal(value))).toBe(true);
  });

  it.each([['0'], ['0.000'], ['-1'], ['+1'], ['1e3'], [' 1'], ['1 '], ['1,5'], [''], ['.'], ['abc'], ['Infinity'], ['NaN'], ['0x1']])('%j → null', (text) => {
    expect(parsePositiveDecimal(text)).toBeNull();
  });

  it.each([[12], [12.5], [null], [undefined], [{}]])('non-string %j → null (the contract wants a string)', (v) => {
    expect(parsePositiveDecimal(v)).toBeNull();
  });
});
