import { describe, expect, it } from 'vitest';
import { PREMIUM_MONTHS, giftPartnerPrice, priceList, pricePerStar, starsPrice, withMargin } from '../../src/domain/pricing.js';

/**
 * The price rule (README "Prices", partner-api.md rules 2–4 and "NFT price rounding"): supplier cost ×
 * (1 + margin), rounded up to the minor unit; gifts add 0.055 TON of transfer and network fees before the
 * margin and round up to 0.001 TON; N stars cost N × price_per_1000 / 1000 rounded up to the cent;
 * price_per_star is price_per_1000 / 1000 with six decimals. Every expected figure is worked out by hand.
 */
describe('withMargin: cost × (1 + bps / 10000), rounded up to the minor unit', () => {
  it.each([
    // cost, bps, price          hand computation
    [1500, 500, 1575], //         1500 × 1.05 = 1575 exactly
    [1599, 500, 1679], //         1599 × 1.05 = 1678.95 → up
    [1199, 500, 1259], //         1199 × 1.05 = 1258.95 → up
    [2899, 500, 3044], //         2899 × 1.05 = 3043.95 → up
    [1, 500, 2], //               1.05 → up
    [20, 500, 21], //             21 exactly
    [0, 500, 0],
    [1000, 0, 1000], //           no margin
    [1000, 700, 1070], //         1070 exactly
    [100, 1000, 110], //          110 exactly (100 × 1.1 in floating point is 110.00000000000001)
    [333, 333, 345], //           333 × 1.0333 = 344.0889 → up
    [12345, 1, 12347], //         12345 × 1.0001 = 12346.2345 → up
    [10000, 10000, 20000], //     100 % margin
  ])('cost %d at %d bps → %d', (cost, bps, price) => {
    expect(withMargin(cost, bps)).toBe(price);
  });
});

describe('priceList: the catalog of GET /products from supplier costs', () => {
  it.each([
    [
      500,
      { starsPer1000: 1500, premium: { 3: 1199, 6: 1599, 12: 2899 } },
      { starsPer1000: 1575, premium: { 3: 1259, 6: 1679, 12: 3044 } },
    ],
    [
      0,
      { starsPer1000: 1500, premium: { 3: 1199, 6: 1599, 12: 2899 } },
      { starsPer1000: 1500, premium: { 3: 1199, 6: 1599, 12: 2899 } },
    ],
    [
      1000, // 10 %: 1234 × 1.1 = 1357.4 → 1358; 999 × 1.1 = 1098.9 → 1099; 1800 → 1980; 3333 × 1.1 = 3666.3 → 3667
      { starsPer1000: 1234, premium: { 3: 999, 6: 1800, 12: 3333 } },
      { starsPer1000: 1358, premium: { 3: 1099, 6: 1980, 12: 3667 } },
    ],
  ] as const)('at %d bps', (bps, costs, prices) => {
    expect(priceList(costs, bps)).toEqual(prices);
  });

  it('Premium terms are 3, 6 and 12 months', () => {
    expect([...PREMIUM_MONTHS]).toEqual([3, 6, 12]);
  });
});

describe('starsPrice: N × price_per_1000 / 1000, rounded up to the cent', () => {
  it.each([
    // price per 1000 (cents), stars, price (cents)
    [1575, 50, 79], //      78.75 → up (the smallest order)
    [1575, 100, 158], //    157.5 → up
    [1575, 1000, 1575],
    [1575, 333, 525], //    524.475 → up
    [1575, 50000, 78750], // the largest order
    [1500, 50, 75], //      exactly
    [1500, 51, 77], //      76.5 → up
    [1, 50, 1], //          0.05 → up: never free
    [2000, 999, 1998], //   exactly
    [1999, 1001, 2001], //  2000.999 → up
  ])('%d per 1000 × %d stars → %d', (per1000, quantity, price) => {
    expect(starsPrice(per1000, quantity)).toBe(price);
  });
});

describe('pricePerStar: six decimals, exactly price_per_1000 / 1000', () => {
  it.each([
    [1575, '0.015750'], // 15.75 USD / 1000
    [1500, '0.015000'],
    [1579, '0.015790'],
    [1, '0.000010'], //   0.01 USD / 1000
    [100000, '1.000000'],
    [99999, '0.999990'],
  ])('%d cents per 1000 → %s', (per1000, text) => {
    expect(pricePerStar(per1000)).toBe(text);
  });
});

describe('giftPartnerPrice: (listing + 0.055 TON fees) × (1 + margin), rounded up to 0.001 TON', () => {
  const FEES = 55; // 0.055 TON (README "Prices")
  it.each([
    // listing (milli-TON), bps, partner price (milli-TON)
    [10000, 500, 10558], // (10 + 0.055) × 1.05 = 10.55775 → 10.558
    [3500, 500, 3733], //   3.555 × 1.05 = 3.73275 → 3.733
    [1234, 500, 1354], //   1.289 × 1.05 = 1.35345 → 1.354
    [145, 500, 210], //     0.2 × 1.05 = 0.21 exactly
    [10000, 0, 10055], //   no margin: listing plus fees
    [999945, 500, 1050000], // 1000 × 1.05 = 1050 exactly
  ])('listing %d at %d bps → %d', (listing, bps, price) => {
    expect(giftPartnerPrice(listing, FEES, bps)).toBe(price);
  });
});
