import { fail, failUpstreamUnavailable } from '../domain/errors.js';
import { formatAmount } from '../domain/money.js';
import { priceList, pricePerStar, type PriceList } from '../domain/pricing.js';
import type { Deps } from './deps.js';

/** Current partner prices, or null while supplier costs are unavailable. */
export function currentPrices(deps: Pick<Deps, 'suppliers' | 'settings'>): PriceList | null {
  const costs = deps.suppliers.goods.costs();
  return costs ? priceList(costs, deps.settings.get().margin_bps) : null;
}

/** Gifts are sold only with a real gift supplier or the sandbox's (GIFTS_UPSTREAM not `off`). */
export function giftsOffered(deps: Pick<Deps, 'config'>): boolean {
  return deps.config.gifts.upstream !== 'off';
}

/** 503 product_unavailable (`product_disabled`) while GIFTS_UPSTREAM=off: the gift routes and nft orders. */
export function failGiftsDisabled(): never {
  fail('product_unavailable', 'Gifts are not offered.', { reason: 'product_disabled' });
}

/** Whether the product is switched on by the operator (and, for gifts, offered at all). */
export function productEnabled(deps: Pick<Deps, 'config' | 'settings'>, product: 'stars' | 'premium' | 'nft'): boolean {
  return deps.settings.get().products[product].enabled && (product !== 'nft' || giftsOffered(deps));
}

/** Whether a product can be ordered now, and if not why (the reason of its 503 product_unavailable). */
export type ProductState = { up: true } | { up: false; reason: 'product_disabled' } | { up: false; reason: 'upstream_unavailable'; retryAfterSec: number };

export function productState(deps: Pick<Deps, 'config' | 'suppliers' | 'settings'>, product: 'stars' | 'premium' | 'nft'): ProductState {
  if (!productEnabled(deps, product)) return { up: false, reason: 'product_disabled' };
  const s = product === 'nft' ? deps.suppliers.gifts.status() : deps.suppliers.goods.status(product);
  return s.up ? { up: true } : { up: false, reason: 'upstream_unavailable', retryAfterSec: s.retryAfterSec };
}

/** Refuses orders for a product that is disabled or whose supplier is down (503 product_unavailable). */
export function requireProductAvailable(deps: Pick<Deps, 'config' | 'suppliers' | 'settings'>, product: 'stars' | 'premium' | 'nft'): void {
  const s = productState(deps, product);
  if (s.up) return;
  if (s.reason === 'product_disabled') fail('product_unavailable', `${product} ordering is disabled.`, { reason: 'product_disabled' });
  failUpstreamUnavailable('The supplier is temporarily unavailable.', s.retryAfterSec);
}

/** `available` of GET /products, with the reason an order would get while it is false. */
function availability(deps: Pick<Deps, 'config' | 'suppliers' | 'settings'>, product: 'stars' | 'premium' | 'nft') {
  const s = productState(deps, product);
  return s.up ? { available: true } : { available: false, reason: s.reason };
}

/**
 * GET /products. Each product says whether it can be ordered now (`available`, false while it is disabled or
 * its supplier is down, with `reason` as the order's 503 would give it). The contract fixes the keys of
 * `premium` to the three terms, so Premium says it in each term.
 */
export function products(deps: Pick<Deps, 'config' | 'suppliers' | 'settings'>) {
  const prices = currentPrices(deps);
  if (!prices) return { unavailable: true as const, reason: 'cost_unavailable' as const };
  const { config } = deps;
  const premium = availability(deps, 'premium');
  const term = (months: 3 | 6 | 12) => ({ partner_price: formatAmount(prices.premium[months], 'USD'), currency: 'USD' as const, ...premium });
  return {
    currency: 'USD' as const,
    stars: {
      price_per_1000: formatAmount(prices.starsPer1000, 'USD'),
      price_per_star: pricePerStar(prices.starsPer1000),
      currency: 'USD' as const,
      min_per_order: config.STARS_MIN_PER_ORDER,
      max_per_order: config.STARS_MAX_PER_ORDER,
      ...availability(deps, 'stars'),
    },
    premium: { '3': term(3), '6': term(6), '12': term(12) },
    nft: {
      ...availability(deps, 'nft'),
      pricing_model: 'per_gift' as const,
      currency: 'TON' as const,
      balance: 'nft_balance' as const,
      catalog: '/api/partner/v1/nft/gifts',
      quote: '/api/partner/v1/nft/gifts/{gift}',
      max_order_ton: null,
    },
  };
}
