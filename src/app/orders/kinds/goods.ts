import { fail } from '../../../domain/errors.js';
import { PREMIUM_MONTHS, type PremiumMonths } from '../../../domain/pricing.js';
import { openPremiumFor } from '../../../store/orders-repo.js';
import { requireProductAvailable } from '../../products.js';
import type { Deps } from '../../deps.js';
import { goodsPrice, pricesUnavailable } from '../quote.js';
import { requireRecipientText } from '../recipient.js';
import type { OrderKind } from './kind.js';

interface GoodsParams {
  quantity: number;
  recipient: string;
  amount: number;
}

function parseQuantity(deps: Deps, v: unknown): number {
  const { STARS_MIN_PER_ORDER: min, STARS_MAX_PER_ORDER: max } = deps.config;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    fail('bad_quantity', `quantity must be a whole number from ${min} to ${max}.`, { min, max });
  return v;
}

function parseMonths(v: unknown): PremiumMonths {
  if (typeof v !== 'number' || !PREMIUM_MONTHS.includes(v as PremiumMonths)) fail('bad_months');
  return v as PremiumMonths;
}

/** Stars and Premium: priced from the catalog before the key is claimed, debited in USD. */
export function goodsKind(type: 'stars' | 'premium'): OrderKind<GoodsParams> {
  return {
    type,
    parseParams(deps, params) {
      const quantity = type === 'stars' ? parseQuantity(deps, params.quantity) : parseMonths(params.months);
      const recipient = requireRecipientText(params.recipient);
      requireProductAvailable(deps, type);
      const amount = goodsPrice(deps, type, quantity);
      if (amount === null) pricesUnavailable();
      return { quantity, recipient, amount };
    },
    priceFor(_deps, p) {
      return { currency: 'USD', amount: p.amount, quantity: p.quantity, priceUsdRef: null, gift: null, orderId: null };
    },
    reserve(tx, _deps, _priced, _orderId, recipient) {
      // One unfinished Premium order per account (partner-api.md States rule 1), checked in the debiting transaction.
      if (type === 'premium' && openPremiumFor(tx, recipient.username)) fail('deferred_order_exists');
    },
    release() {},
    // the first delivery call when the supplier can first have an outcome
    firstRun: (deps) => ({ stage: 'deliver', afterMs: deps.suppliers.goods.firstCallDelayMs }),
  };
}
