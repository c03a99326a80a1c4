import { z } from 'zod';
import { reg, tonAmt, usd } from './fields.js';

/** GET /me and GET /products. */

export const Me = reg(
  'PartnerAccount',
  z.object({
    partner_id: z.number().int(),
    status: z.literal('active'),
    balance: usd.meta({ description: 'the dollar balance (kept for compatibility)' }),
    currency: z.literal('USD'),
    balances: z.object({ USD: usd, TON: tonAmt }),
    nft_balance: tonAmt,
    nft_currency: z.literal('TON'),
    pricing: z.object({ note: z.string() }),
    limits: z.object({
      api_rate_limit: z.number().int(),
      api_rate_burst: z.number().int(),
      nft_catalog_rate_limit: z.number().int(),
      nft_orders_rate_limit: z.number().int(),
      validate_recipient_rate_limit: z.number().int(),
      stars_min_per_order: z.number().int(),
      stars_max_per_order: z.number().int(),
      premium_months: z.array(z.number().int()),
      nft_max_order_ton: tonAmt.nullable().meta({ description: 'the most one NFT order may cost; null: no cap' }),
    }),
  }),
  'GET /me',
);

const available = {
  available: z.boolean().meta({ description: 'whether it can be ordered now: false while it is disabled or its supplier is down (an order gets 503 product_unavailable)' }),
  reason: z.enum(['product_disabled', 'upstream_unavailable']).optional().meta({ description: 'only when available is false: the reason of the 503 an order gets now' }),
};
const premiumPrice = z.object({ partner_price: usd, currency: z.literal('USD'), ...available });
export const Catalog = reg(
  'Catalog',
  z.object({
    currency: z.literal('USD'),
    stars: z.object({
      price_per_1000: usd,
      price_per_star: z.string().regex(/^\d+\.\d{6}$/).meta({ description: 'reference only: price_per_1000 / 1000' }),
      currency: z.literal('USD'),
      min_per_order: z.number().int(),
      max_per_order: z.number().int(),
      ...available,
    }),
    premium: z.object({ '3': premiumPrice, '6': premiumPrice, '12': premiumPrice }),
    nft: z.object({
      ...available,
      pricing_model: z.literal('per_gift'),
      currency: z.literal('TON'),
      balance: z.literal('nft_balance'),
      catalog: z.string(),
      quote: z.string(),
      max_order_ton: tonAmt.nullable().meta({ description: 'the most one NFT order may cost; null: no cap' }),
    }),
  }),
  'GET /products: prices are the same for every partner. Each product (each Premium term) says whether it can be ordered now.',
);
export const CatalogUnavailable = reg(
  'CatalogUnavailable',
  z.object({ unavailable: z.literal(true), reason: z.literal('cost_unavailable') }),
  'GET /products while prices cannot be read (HTTP 200; orders are refused meanwhile).',
);
export const ProductsResponse = reg('ProductsResponse', z.union([Catalog, CatalogUnavailable]), 'GET /products: the catalog, or the unavailable marker (both HTTP 200).');
