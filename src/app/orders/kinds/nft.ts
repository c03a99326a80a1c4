import { Decimal } from 'decimal.js';
import { fail } from '../../../domain/errors.js';
import { formatAmount, parsePositiveDecimal } from '../../../domain/money.js';
import { holdGift, isGiftHeld, releaseGiftOf } from '../../../store/gift-holds-repo.js';
import { requireProductAvailable } from '../../products.js';
import { giftBase, pricedGift, usdRefCents } from '../../nft/gift-prices.js';
import { NftGift, NftParamsBeforeRecipient } from '../../requests/orders.js';
import { ORDER_PARAMS_RULES, parseRequest } from '../../requests/parse.js';
import type { OrderKind } from './kind.js';

/** NFT processing gives up within the hour when the market stalls (partner-api.md States rule 2). */
export const NFT_GIVE_UP_MS = 3_600_000;

interface NftParams {
  recipient: string;
  maxPrice: Decimal;
  /** the params as sent: the gift is parsed after the recipient is resolved */
  params: Record<string, unknown>;
}

/**
 * NFT orders (partner-api.md rule 6): max_price syntax, then the recipient (resolved by createOrder; its
 * errors hide everything after), then the gift and its price; paid from the TON balance; id `pa_<uuid>`.
 * An unfinished order holds its gift (one per gift, across all partners) until it ends.
 */
export const nftKind: OrderKind<NftParams> = {
  type: 'nft',
  parseParams(deps, params) {
    requireProductAvailable(deps, 'nft');
    const p = parseRequest(NftParamsBeforeRecipient, params, ORDER_PARAMS_RULES);
    return { maxPrice: parsePositiveDecimal(p.max_price)!, recipient: p.recipient, params };
  },
  async priceFor(deps, p) {
    const giftId = parseRequest(NftGift, p.params, ORDER_PARAMS_RULES).gift;
    const priced = await pricedGift(deps, giftId);
    if (!priced) fail('bad_gift');
    const { listing: g, partnerMilli: amount } = priced;
    // The debit is never above max_price: compare in exact decimals.
    if (new Decimal(amount).div(1000).gt(p.maxPrice))
      fail('price_changed', `The gift costs ${formatAmount(amount, 'TON')} TON, above max_price.`, { current_price: formatAmount(amount, 'TON'), currency: 'TON' });
    if (!g.available) fail('gift_not_for_sale');
    if (g.reserved) fail('gift_reserved');
    return {
      currency: 'TON',
      amount,
      // what the market charges: the listing price and its transfer and network fees (the price's base)
      supplierCost: g.priceMilli + deps.suppliers.gifts.feesMilli(),
      quantity: 1,
      priceUsdRef: usdRefCents(deps, amount),
      gift: { ...giftBase(g), attributes: g.attributes },
      fixedGift: { id: g.gift, collection: g.collection, priceMilli: g.priceMilli },
      orderId: `pa_${deps.ids.uuid()}`,
    };
  },
  reserve(tx, deps, priced, orderId) {
    const gift = priced.fixedGift!.id;
    if (isGiftHeld(tx, gift)) fail('gift_reserved');
    holdGift(tx, gift, orderId, deps.clock.now());
  },
  release(tx, order) {
    releaseGiftOf(tx, order.orderId);
  },
  firstRun: () => ({ stage: 'create', afterMs: 0 }),
  giveUpMs: NFT_GIVE_UP_MS,
};
