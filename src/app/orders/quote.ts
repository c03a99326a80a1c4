import { Decimal } from 'decimal.js';
import { failUpstreamUnavailable } from '../../domain/errors.js';
import type { Currency } from '../../domain/money.js';
import { starsPrice, type PremiumMonths } from '../../domain/pricing.js';
import { cachedBalancesOf } from '../../store/ledger-repo.js';
import { currentPrices, giftsOffered } from '../products.js';
import type { Deps } from '../deps.js';
import { requireOrderingAllowed } from '../partners.js';

/** The price of a Stars or Premium order at today's prices, in cents; null while prices are unavailable. */
export function goodsPrice(deps: Pick<Deps, 'suppliers' | 'settings'>, type: 'stars' | 'premium', quantity: number): number | null {
  const prices = currentPrices(deps);
  if (!prices) return null;
  return type === 'stars' ? starsPrice(prices.starsPer1000, quantity) : prices.premium[quantity as PremiumMonths];
}

/**
 * What the supplier charges for a Stars or Premium order now, in cents: the cost goodsPrice is made from
 * (Stars pro rata, to the nearest cent). Null while costs are unavailable.
 */
export function goodsCost(deps: Pick<Deps, 'suppliers'>, type: 'stars' | 'premium', quantity: number): number | null {
  const costs = deps.suppliers.goods.costs();
  if (!costs) return null;
  return type === 'stars' ? new Decimal(costs.starsPer1000).mul(quantity).div(1000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber() : costs.premium[quantity as PremiumMonths];
}

/** 503 product_unavailable while supplier costs are unknown. */
export function pricesUnavailable(): never {
  failUpstreamUnavailable('Prices are temporarily unavailable.', 30);
}

export interface OrderQuote {
  currency: Currency;
  /** minor units */
  price: number;
  balance: number;
}

/**
 * What an order would cost a partner now and the balance it would come from (the bot's confirmation):
 * the same price createOrder debits. Null while prices are unavailable.
 */
export function quoteGoodsOrder(deps: Pick<Deps, 'db' | 'suppliers' | 'settings'>, partnerId: number, type: 'stars' | 'premium', quantity: number): OrderQuote | null {
  const balance = orderingBalance(deps, partnerId, 'USD');
  const price = goodsPrice(deps, type, quantity);
  if (price === null) return null;
  return { currency: 'USD', price, balance };
}

/** The balance an order in `currency` would be paid from, for a partner allowed to order (the bot's gift confirmation). */
export function orderingBalance(deps: Pick<Deps, 'db' | 'settings'>, partnerId: number, currency: Currency): number {
  requireOrderingAllowed(deps, partnerId);
  return cachedBalancesOf(deps.db, partnerId)[currency];
}

/** What a partner allowed to order can choose from (the bot's /order menu): the products switched on. */
export function orderMenu(deps: Pick<Deps, 'db' | 'config' | 'settings'>, partnerId: number): { starsMin: number; starsMax: number; stars: boolean; premium: boolean; gifts: boolean } {
  requireOrderingAllowed(deps, partnerId);
  const p = deps.settings.get().products;
  return { starsMin: deps.config.STARS_MIN_PER_ORDER, starsMax: deps.config.STARS_MAX_PER_ORDER, stars: p.stars.enabled, premium: p.premium.enabled, gifts: p.nft.enabled && giftsOffered(deps) };
}
