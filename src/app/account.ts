import { formatAmount } from '../domain/money.js';
import { cachedBalancesOf } from '../store/ledger-repo.js';
import type { Deps } from './deps.js';

/**
 * The answers made from one committed balances object (it is replaced on every entry, see cachedBalancesOf):
 * frozen, so that GET /me's JSON text is also made once per balance change (src/http/frozen-json.ts).
 */
const answers = new WeakMap<object, ReturnType<typeof makeAccount>>();

/** GET /me: the balances and the limits that apply to the partner. */
export function account(deps: Pick<Deps, 'db' | 'config'>, partnerId: number) {
  const b = cachedBalancesOf(deps.db, partnerId);
  let a = answers.get(b);
  if (!a || a.partner_id !== partnerId || a.config !== deps.config) {
    a = makeAccount(deps, partnerId, b);
    answers.set(b, a);
  }
  return a.view;
}

function makeAccount(deps: Pick<Deps, 'config'>, partnerId: number, b: Readonly<Record<'USD' | 'TON', number>>) {
  return { partner_id: partnerId, config: deps.config, view: Object.freeze(accountView(deps, partnerId, b)) };
}

function accountView(deps: Pick<Deps, 'config'>, partnerId: number, b: Readonly<Record<'USD' | 'TON', number>>) {
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
