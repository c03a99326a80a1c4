import { Decimal } from 'decimal.js';
import { failUpstreamUnavailable } from '../../domain/errors.js';
import { formatAmount } from '../../domain/money.js';
import { giftPartnerPrice } from '../../domain/pricing.js';
import { GiftsDisabled, UpstreamUnavailable, type GiftListing } from '../../suppliers/types.js';
import { failGiftsDisabled } from '../products.js';
import type { Deps } from '../deps.js';

/** A gift's partner price and USD reference, and the views of a gift every answer shares. */

/** partner_price of a listing at today's fees and margin (the rule: domain/pricing.ts giftPartnerPrice). */
export function giftPartnerMilli(deps: Pick<Deps, 'suppliers' | 'settings'>, priceMilli: number): number {
  return giftPartnerPrice(priceMilli, deps.suppliers.gifts.feesMilli(), deps.settings.get().margin_bps);
}

/**
 * A gift as an order would buy it now: its listing and the partner price the order would debit. The one
 * NFT pricing path of createOrder, the Mini App's recipient check and the quotes (the bot's confirmation).
 * null when the market does not list the gift.
 */
export async function pricedGift(deps: Pick<Deps, 'suppliers' | 'settings'>, giftId: string): Promise<{ listing: GiftListing; partnerMilli: number } | null> {
  const g = await market(() => deps.suppliers.gifts.gift(giftId));
  return g ? { listing: g, partnerMilli: giftPartnerMilli(deps, g.priceMilli) } : null;
}

export function usdRefCents(deps: Pick<Deps, 'suppliers'>, milli: number): number {
  return new Decimal(milli).mul(deps.suppliers.gifts.tonUsdCents()).div(1000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** The fields every view of a gift shares (list item, quote, an order's `gift` block). */
export function giftBase(g: GiftListing) {
  return { gift: g.gift, name: g.name, num: g.num, collection: g.collection, image: g.image, price_ton: formatAmount(g.priceMilli, 'TON') };
}

export function giftItem(deps: Pick<Deps, 'suppliers' | 'settings'>, g: GiftListing) {
  const partner = giftPartnerMilli(deps, g.priceMilli);
  return {
    ...giftBase(g),
    attributes: g.attributes,
    partner_price: formatAmount(partner, 'TON'),
    currency: 'TON' as const,
    price_usd_ref: formatAmount(usdRefCents(deps, partner), 'USD'),
  };
}

/**
 * Market calls that stall become 503 product_unavailable (upstream_unavailable) with Retry-After; with gifts
 * off (GIFTS_UPSTREAM=off) 503 product_disabled.
 */
export async function market<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof GiftsDisabled) failGiftsDisabled();
    if (e instanceof UpstreamUnavailable)
      failUpstreamUnavailable('The gift market is temporarily unavailable.', e.retryAfterSec);
    throw e;
  }
}

