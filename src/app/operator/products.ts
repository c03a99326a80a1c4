import { formatAmount } from '../../domain/money.js';
import { fail } from '../../domain/errors.js';
import { ORDER_TYPES } from '../../domain/enums.js';
import { settingsPatchSchema } from '../settings.js';
import { parseOrFail } from '../requests/parse.js';
import { currentPrices } from '../products.js';
import type { Deps } from '../deps.js';

type Product = 'stars' | 'premium' | 'nft';

/**
 * The console's products: each one's switch (the operator API's settings, `product_disabled` when off) with
 * what the supplier charges now and what partners pay (USD; gifts are priced one by one from the market:
 * their figures are the fees per gift and the margin).
 */
export interface ProductSwitchView {
  product: Product;
  enabled: boolean;
  costs: Record<string, string>;
  prices: Record<string, string>;
}

export function productSwitches(deps: Pick<Deps, 'suppliers' | 'settings'>): { items: ProductSwitchView[] } {
  const s = deps.settings.get();
  const costs = deps.suppliers.goods.costs();
  const prices = currentPrices(deps);
  const usd = (n: number | undefined) => (n === undefined ? '' : formatAmount(n, 'USD'));
  const margin = `${(s.margin_bps / 100).toFixed(2)} %`;
  return {
    items: [
      { product: 'stars' as const, enabled: s.products.stars.enabled, costs: costs ? { per_1000: usd(costs.starsPer1000) } : {}, prices: prices ? { per_1000: usd(prices.starsPer1000) } : {} },
      {
        product: 'premium' as const,
        enabled: s.products.premium.enabled,
        costs: costs ? { '3': usd(costs.premium[3]), '6': usd(costs.premium[6]), '12': usd(costs.premium[12]) } : {},
        prices: prices ? { '3': usd(prices.premium[3]), '6': usd(prices.premium[6]), '12': usd(prices.premium[12]) } : {},
      },
      { product: 'nft' as const, enabled: s.products.nft.enabled, costs: { fees_per_gift: formatAmount(deps.suppliers.gifts.feesMilli(), 'TON') }, prices: { margin } },
    ],
  };
}

/** Switches one product on or off through the operator API's settings update (audited `settings.update`). */
export function switchProduct(deps: Pick<Deps, 'clock' | 'suppliers' | 'settings'>, product: string, body: Record<string, unknown>, actor: string): ProductSwitchView {
  if (!(ORDER_TYPES as readonly string[]).includes(product)) fail('not_found', 'No such product: stars, premium or nft.');
  const patch = parseOrFail(settingsPatchSchema, { products: { [product as Product]: body } });
  deps.settings.update(patch, deps.clock.now(), actor);
  return productSwitches(deps).items.find((x) => x.product === product)!;
}
