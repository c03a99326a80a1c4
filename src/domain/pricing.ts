import { Decimal } from 'decimal.js';

/**
 * One price rule for every partner (partner-api.md "What the service does", rule 2):
 * price = supplier cost × (1 + margin), rounded up to the currency's minor unit.
 */
export type PremiumMonths = 3 | 6 | 12;
export const PREMIUM_MONTHS: readonly PremiumMonths[] = [3, 6, 12];

export interface SupplierCosts {
  /** USD cents for 1000 stars. */
  starsPer1000: number;
  /** USD cents per Premium term. */
  premium: Record<PremiumMonths, number>;
}

export interface PriceList {
  starsPer1000: number;
  premium: Record<PremiumMonths, number>;
}

/** Margin in basis points (500 = 5 %). */
export function withMargin(costMinor: number, marginBps: number): number {
  return new Decimal(costMinor).mul(10_000 + marginBps).div(10_000).toDecimalPlaces(0, Decimal.ROUND_CEIL).toNumber();
}

export function priceList(costs: SupplierCosts, marginBps: number): PriceList {
  return {
    starsPer1000: withMargin(costs.starsPer1000, marginBps),
    premium: {
      3: withMargin(costs.premium[3], marginBps),
      6: withMargin(costs.premium[6], marginBps),
      12: withMargin(costs.premium[12], marginBps),
    },
  };
}

/** The price of `quantity` stars in cents: the per-1000 price pro rata, rounded up to the cent. */
export function starsPrice(pricePer1000: number, quantity: number): number {
  return new Decimal(pricePer1000).mul(quantity).div(1000).toDecimalPlaces(0, Decimal.ROUND_CEIL).toNumber();
}

/** `price_per_star`, six decimals: exactly price_per_1000 / 1000, so the two figures never disagree. */
export function pricePerStar(pricePer1000: number): string {
  return new Decimal(pricePer1000).div(100).div(1000).toFixed(6);
}

/** NFT: listing price plus transfer and network fees (milli-TON), with the margin, rounded up to 0.001 TON. */
export function giftPartnerPrice(priceMilli: number, feesMilli: number, marginBps: number): number {
  return withMargin(priceMilli + feesMilli, marginBps);
}
