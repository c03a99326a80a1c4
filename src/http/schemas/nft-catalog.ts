import { z } from 'zod';
import { offsetTime, reg, tonAmt, usd } from './fields.js';
import { GiftAttributes, GiftBase } from './orders.js';

/** The gift catalog: GET /nft/collections, /nft/gifts, /nft/gifts/{gift}. */

export const GiftItem = reg(
  'GiftItem',
  GiftBase.extend({
    attributes: GiftAttributes.meta({ description: 'what the list filters by (model, backdrop, symbol)' }),
    partner_price: tonAmt.meta({ description: 'final TON amount incl. transfer and network fees, rounded up to 0.001' }),
    currency: z.literal('TON'),
    price_usd_ref: usd,
  }),
  'An item of the gift list.',
);
export const GiftList = reg(
  'GiftList',
  z.object({
    currency: z.literal('TON'),
    items: z.array(GiftItem),
    count: z.number().int(),
    next_cursor: z.string().nullable(),
    source_status: z.literal('live'),
    applied_filters: z.record(z.string(), z.string()),
    ignored_params: z.array(z.string()),
  }),
  'GET /nft/gifts',
);
export const GiftQuote = reg(
  'GiftQuote',
  GiftItem.extend({ available: z.boolean(), quoted_at: offsetTime, max_order_price: tonAmt.nullable().meta({ description: 'the most one order may cost; null: no cap' }) }),
  'GET /nft/gifts/{gift}',
);
export const CollectionList = reg(
  'CollectionList',
  z.object({
    currency: z.literal('TON'),
    items: z.array(
      z.object({
        collection: z.string(),
        name: z.string(),
        count: z.number().int().meta({ description: 'gifts listed now' }),
        floor_price_ton: tonAmt.nullable(),
        floor_partner_price: tonAmt.nullable(),
        currency: z.literal('TON'),
      }),
    ),
    count: z.number().int(),
  }),
  'GET /nft/collections',
);
