import { eq } from 'drizzle-orm';
import { Decimal } from 'decimal.js';
import { fail } from '../../domain/errors.js';
import { formatAmount, parsePositiveDecimal } from '../../domain/money.js';
import { giftHolds } from '../../store/schema-nft.js';
import { giftBase, giftPartnerMilli, market, usdRefCents } from '../nft/catalog.js';
import { requireProductAvailable } from '../catalog.js';
import type { OrderKindHandler } from './create.js';
import { requireRecipientText } from './recipient.js';

const GIFT_ID = /^[A-Za-z][A-Za-z0-9]*-\d{1,9}$/;

/**
 * NFT orders (partner-api.md rule 6): max_price syntax, then the recipient (resolved by createOrder; its
 * errors hide everything after), then price and gift checks; paid from the TON balance; id `pa_<uuid>`.
 */
export const nftHandler: OrderKindHandler = {
  async prepare(deps, params) {
    requireProductAvailable(deps, 'nft');
    const maxPrice = parsePositiveDecimal(params.max_price);
    if (!maxPrice) fail('bad_max_price');
    const rawRecipient = requireRecipientText(params.recipient);
    return async () => {
      const giftId = params.gift;
      if (typeof giftId !== 'string' || !GIFT_ID.test(giftId)) fail('bad_gift');
      const g = await market(() => deps.suppliers.gifts.gift(giftId));
      if (!g) fail('bad_gift');
      const amount = giftPartnerMilli(deps, g.priceMilli);
      // The debit is never above max_price: compare in exact decimals.
      if (new Decimal(amount).div(1000).gt(maxPrice))
        fail('price_changed', `The gift costs ${formatAmount(amount, 'TON')} TON, above max_price.`, { current_price: formatAmount(amount, 'TON'), currency: 'TON' });
      if (!g.available) fail('gift_not_for_sale');
      if (g.reserved) fail('gift_reserved');
      const orderId = `pa_${deps.ids.uuid()}`;
      return {
        type: 'nft',
        currency: 'TON',
        amount,
        quantity: 1,
        recipient: rawRecipient,
        priceUsdRef: usdRefCents(deps, amount),
        orderId,
        stage: 'create',
        gift: { ...giftBase(g), attributes: g.attributes },
        inTx: (tx) => {
          // One unfinished order per gift, across all partners: checked and taken in the debiting transaction.
          if (tx.select().from(giftHolds).where(eq(giftHolds.gift, g.gift)).get()) fail('gift_reserved');
          tx.insert(giftHolds).values({ gift: g.gift, orderId, createdAt: deps.clock.now() }).run();
        },
      };
    };
  },
};
