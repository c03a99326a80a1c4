import type { z } from 'zod';
import { fail } from '../../../domain/errors.js';
import type { PremiumMonths } from '../../../domain/pricing.js';
import { openPremiumFor } from '../../../store/orders-repo.js';
import { requireProductAvailable } from '../../products.js';
import type { Deps } from '../../deps.js';
import { goodsCost, goodsPrice, pricesUnavailable } from '../quote.js';
import { PremiumParams, StarsParams } from '../../requests/orders.js';
import { ORDER_PARAMS_RULES, parseRequest, starsParamsRules, type IssueRules } from '../../requests/parse.js';
import type { OrderKind } from './kind.js';

const DAY = 86_400_000;
/** Premium gives up 365 days after the order (partner-api.md States rule 1: `expired`, refunded). */
export const PREMIUM_GIVE_UP_MS = 365 * DAY;
/**
 * Stars give up a day after the order: the contract names no time, and a day covers a supplier outage and
 * the longest lookup of a payment sent on chain (FRAGMENT_LOOKUP_BOUND_SEC is at most a day).
 */
export const STARS_GIVE_UP_MS = DAY;

interface GoodsParams {
  quantity: number;
  recipient: string;
  amount: number;
  cost: number | null;
}

/** StarsParams with the configured bounds of `quantity` (STARS_MIN_PER_ORDER..STARS_MAX_PER_ORDER), made once per bounds. */
let starsParams: { min: number; max: number; schema: z.ZodType<{ quantity: number; recipient: string }>; rules: IssueRules } | null = null;
function starsParamsFor(deps: Pick<Deps, 'config'>) {
  const { STARS_MIN_PER_ORDER: min, STARS_MAX_PER_ORDER: max } = deps.config;
  if (starsParams?.min !== min || starsParams.max !== max)
    starsParams = { min, max, schema: StarsParams.extend({ quantity: StarsParams.shape.quantity.min(min).max(max) }), rules: starsParamsRules(min, max) };
  return starsParams;
}

function parseGoodsParams(deps: Pick<Deps, 'config'>, type: 'stars' | 'premium', params: Record<string, unknown>): { quantity: number; recipient: string } {
  if (type === 'premium') {
    const p = parseRequest(PremiumParams, params, ORDER_PARAMS_RULES);
    return { quantity: p.months as PremiumMonths, recipient: p.recipient };
  }
  const { schema, rules } = starsParamsFor(deps);
  return parseRequest(schema, params, rules);
}

/** Stars and Premium: priced from the catalog before the key is claimed, debited in USD. */
export function goodsKind(type: 'stars' | 'premium'): OrderKind<GoodsParams> {
  return {
    type,
    parseParams(deps, params) {
      const { quantity, recipient } = parseGoodsParams(deps, type, params);
      requireProductAvailable(deps, type);
      const amount = goodsPrice(deps, type, quantity);
      if (amount === null) pricesUnavailable();
      return { quantity, recipient, amount, cost: goodsCost(deps, type, quantity) };
    },
    priceFor(_deps, p) {
      return { currency: 'USD', amount: p.amount, supplierCost: p.cost, quantity: p.quantity, priceUsdRef: null, gift: null, fixedGift: null, orderId: null };
    },
    reserve(tx, _deps, _priced, _orderId, recipient) {
      // One unfinished Premium order per account (partner-api.md States rule 1), checked in the debiting transaction.
      if (type === 'premium' && openPremiumFor(tx, recipient.username)) fail('deferred_order_exists');
    },
    release() {},
    // the first delivery call when the supplier can first have an outcome
    firstRun: (deps) => ({ stage: 'deliver', afterMs: deps.suppliers.goods.firstCallDelayMs }),
    giveUpMs: type === 'premium' ? PREMIUM_GIVE_UP_MS : STARS_GIVE_UP_MS,
  };
}
