import { z } from 'zod';
import { CURRENCIES, ORDER_STATUSES, ORDER_TYPES } from '../../domain/enums.js';
import * as req from '../../app/requests/orders.js';
import { clientRef, localTime, offsetTime, reg, tonAmt, usd } from './fields.js';

/** The order as partners see it, and the bodies of POST /orders. */

export const GiftAttributes = z.object({ model: z.string(), backdrop: z.string(), symbol: z.string() });
/** The fields every view of a gift has (src/app/nft/gift-prices.ts giftBase). */
export const GiftBase = z.object({
  gift: z.string(),
  name: z.string(),
  num: z.number().int(),
  collection: z.string(),
  image: z.string(),
  price_ton: tonAmt,
});
const OrderGift = GiftBase.extend({ attributes: GiftAttributes });
const Delivery = z.object({ nft_public_url: z.string(), ton_explorer_url: z.string(), transfer_hash: z.string(), completed_at: offsetTime });
const Failure = z.object({
  stage: z.enum(['create', 'confirm', 'queue', 'pricing', 'balance', 'purchase', 'transfer']),
  reason: z.string().meta({ description: 'gift_not_for_sale, gift_reserved, price_above_cap, amount_above_cap, invalid_price, invalid_upstream_price, pricing_failed, gift_unavailable, invalid_recipient, insufficient_funds, nft_disabled, hub_rejected, queue_rejected, delivery_failed, manual_refund' }),
});

const orderFields = {
  order_id: z.string().meta({ description: 'opaque: `PA-<number>` (stars, premium) or `pa_<uuid>` (nft)', example: 'PA-100001' }),
  type: z.enum(ORDER_TYPES),
  status: z.enum(ORDER_STATUSES),
  partner_price: z.string().regex(/^\d+\.\d{2,3}$/).meta({ description: 'the amount debited, in `currency` (2 decimals USD, 3 TON)' }),
  currency: z.enum(CURRENCIES),
  price_usd_ref: usd.nullable().optional().meta({ description: 'nft only: reporting reference' }),
  quantity: z.number().int().meta({ description: 'stars: the count; premium: months; nft: 1' }),
  recipient: z.string().meta({ description: 'as given' }),
  label: z.string().meta({ description: 'always Russian', example: '100 звёзд Telegram для @durov' }),
  created_at: localTime,
  completed_at: offsetTime.nullable(),
  refunded: z.boolean(),
  client_reference: clientRef.nullable().meta({ description: 'the partner\'s own reference given at creation; null when none was given' }),
  gift: OrderGift.optional().meta({ description: 'nft only' }),
  delivery: Delivery.nullable().optional().meta({ description: 'nft only; null until completed' }),
  failure: Failure.nullable().optional().meta({ description: 'nft only; null unless failed' }),
};
export const Order = reg('Order', z.object({ ...orderFields, retail: z.string().nullable().meta({ description: 'always null' }) }), 'An order as the partner sees it.');
export const WebhookOrder = reg('WebhookOrder', z.object(orderFields), 'The order in webhook `data`: as GET /orders/{order_id} without `retail`.');

// The request bodies are the validator's schemas (src/app/requests/orders.ts), registered here for the document.
export const StarsParams = reg('StarsParams', req.StarsParams, 'params for type stars');
export const PremiumParams = reg('PremiumParams', req.PremiumParams, 'params for type premium');
export const NftParams = reg('NftParams', req.NftParams, 'params for type nft');
export const StarsOrderRequest = reg('StarsOrderRequest', req.StarsOrderRequest, 'POST /orders body for Stars');
export const PremiumOrderRequest = reg('PremiumOrderRequest', req.PremiumOrderRequest, 'POST /orders body for Premium');
export const NftOrderRequest = reg('NftOrderRequest', req.NftOrderRequest, 'POST /orders body for an NFT gift');
export const OrderRequest = reg(
  'OrderRequest',
  req.OrderRequest,
  'POST /orders body: one of three shapes chosen by `type`. Unknown fields are accepted and ignored, at the root and in `params`.',
  { type: 'stars', idempotency_key: 'order-2026-0001', params: { quantity: 100, recipient: '@durov' } },
);
export const OrderList = reg(
  'OrderList',
  z.object({ items: z.array(Order), count: z.number().int(), next_cursor: z.string().nullable() }),
  'GET /orders: newest first; pass next_cursor back as `cursor` for the next page (null on the last page).',
);
