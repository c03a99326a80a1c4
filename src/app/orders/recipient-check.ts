import { fail } from '../../domain/errors.js';
import { formatAmount, type Currency } from '../../domain/money.js';
import { cachedBalancesOf } from '../../store/ledger-repo.js';
import type { Deps } from '../deps.js';
import { pricedGift } from '../nft/gift-prices.js';
import { NftGift } from '../requests/orders.js';
import { isJsonObject, ORDER_PARAMS_RULES, parseRequest } from '../requests/parse.js';
import { validateRecipient } from './recipient.js';
import { ORDER_KINDS } from './kinds/index.js';

/** What recipientCheck uses of the service. */
export type RecipientCheckDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'suppliers' | 'settings'>;

/**
 * The Mini App's live check before a confirmation: the recipient (as POST /validate/recipient resolves
 * it), the price the order would be debited now (the order kinds' own parsing and pricing) and the
 * balance after it. Nothing is reserved: the order itself checks everything again.
 */
export async function recipientCheck(deps: RecipientCheckDeps, partnerId: number, body: unknown) {
  const b = isJsonObject(body) ? body : fail('validation_error', 'The body must be a JSON object.');
  const type = b.type;
  if (type !== 'stars' && type !== 'premium' && type !== 'nft') fail('bad_type');
  const username = b.username ?? b.recipient;
  let amount: number | null = null;
  let currency: Currency = 'USD';
  let available = true;
  if (type === 'nft') {
    currency = 'TON';
    if (b.gift !== undefined) {
      // the order's own gift syntax and pricing
      const priced = await pricedGift(deps, parseRequest(NftGift, b, ORDER_PARAMS_RULES).gift);
      if (!priced) fail('bad_gift');
      amount = priced.partnerMilli;
      available = priced.listing.available && !priced.listing.reserved;
    }
  } else {
    // the goods kind parses quantity or months and prices them (its params carry the amount)
    const parsed = ORDER_KINDS[type].parseParams(deps, { quantity: b.quantity, months: b.months, recipient: username }) as unknown as { amount: number };
    amount = parsed.amount;
  }
  const recipient = await validateRecipient(deps, { type, username });
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
