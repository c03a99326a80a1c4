import { formatAmount } from '../domain/money.js';
import { cachedBalancesOf } from '../store/ledger-repo.js';
import type { Deps } from './deps.js';

/** GET /me: the balances and the limits that apply to the partner. */
export function account(deps: Pick<Deps, 'db' | 'config'>, partnerId: number) {
  const b = cachedBalancesOf(deps.db, partnerId);
  const c = deps.config;
  const usd = formatAmount(b.USD, 'USD');
  const ton = formatAmount(b.TON, 'TON');
  return {
    partner_id: partnerId,
    status: 'active' as const,
    balance: usd,
    currency: 'USD' as const,
    balances: { USD: usd, TON: ton },
    nft_balance: ton,
    nft_currency: 'TON' as const,
    pricing: { note: 'Prices are the same for every partner and follow the market: read them from GET /products before ordering.' },
    limits: {
      api_rate_limit: c.API_RATE_LIMIT,
      api_rate_burst: c.API_RATE_BURST,
      nft_catalog_rate_limit: c.NFT_CATALOG_RATE_LIMIT,
      nft_orders_rate_limit: c.NFT_ORDERS_RATE_LIMIT,
      validate_recipient_rate_limit: c.VALIDATE_RECIPIENT_RATE_LIMIT,
      stars_min_per_order: c.STARS_MIN_PER_ORDER,
      stars_max_per_order: c.STARS_MAX_PER_ORDER,
      premium_months: [3, 6, 12],
      nft_max_order_ton: null,
    },
  };
}
