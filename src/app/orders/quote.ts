import { fail } from '../../domain/errors.js';
import { formatAmount, type Currency } from '../../domain/money.js';
import { starsPrice, type PremiumMonths } from '../../domain/pricing.js';
import { cachedBalancesOf } from '../../store/ledger-repo.js';
import { currentPrices, requireProductAvailable } from '../catalog.js';
import type { Deps } from '../deps.js';
import { giftPartnerMilli, market } from '../nft/catalog.js';
import { validateRecipient } from '../recipients.js';
import { parseMonths, parseQuantity } from './create.js';

/**
 * The Mini App's live check before a confirmation: the recipient (as POST /validate/recipient resolves
 * it), the price the order would be debited now (the order path's parsers and prices) and the balance
 * after it. Nothing is reserved: the order itself checks everything again.
 */
export async function orderQuote(deps: Deps, partnerId: number, body: unknown) {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : fail('validation_error', 'The body must be a JSON object.')) as Record<string, unknown>;
  const type = b.type;
  if (type !== 'stars' && type !== 'premium' && type !== 'nft') fail('bad_type');
  let amount: number | null = null;
  let currency: Currency = 'USD';
  let available = true;
  if (type === 'nft') {
    currency = 'TON';
    if (b.gift !== undefined) {
      if (typeof b.gift !== 'string' || b.gift.length > 100) fail('bad_gift');
      const giftId = b.gift;
      const g = await market(() => deps.suppliers.gifts.gift(giftId));
      if (!g) fail('bad_gift');
      amount = giftPartnerMilli(deps, g.priceMilli);
      available = g.available && !g.reserved;
    }
  } else {
    const qty = type === 'stars' ? parseQuantity(deps, b.quantity) : parseMonths(b.months);
    requireProductAvailable(deps, type);
    const prices = currentPrices(deps);
    if (!prices) fail('product_unavailable', 'Prices are temporarily unavailable.', { reason: 'upstream_unavailable', retry_after: 30 }, { 'Retry-After': '30' });
    amount = type === 'stars' ? starsPrice(prices.starsPer1000, qty) : prices.premium[qty as PremiumMonths];
  }
  const recipient = await validateRecipient(deps, { type, username: b.username ?? b.recipient });
  const balance = cachedBalancesOf(deps.db, partnerId)[currency];
  return {
    recipient,
    price: amount === null ? null : formatAmount(amount, currency),
    currency,
    available,
    balance: formatAmount(balance, currency),
    balance_after: amount === null ? null : formatAmount(balance - amount, currency),
    enough: amount === null ? null : balance >= amount,
  };
}
