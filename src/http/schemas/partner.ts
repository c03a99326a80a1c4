import { z } from 'zod';
import { CURRENCIES, ORDER_STATUSES, ORDER_TYPES } from '../../domain/enums.js';

/**
 * The partner API's request and response shapes, one zod schema each. They are the source of the OpenAPI
 * document (src/http/openapi/document.ts) and the contract tests check live responses against them.
 */
export const partnerSchemas = z.registry<{ id: string; description?: string; example?: unknown }>();

export const reg = <T extends z.ZodType>(id: string, schema: T, description: string, example?: unknown): T => {
  partnerSchemas.add(schema, { id, description, ...(example === undefined ? {} : { example }) });
  return schema;
};

const usd = z.string().regex(/^-?\d+\.\d{2}$/).meta({ description: 'USD amount, two decimals', example: '15.75' });
const tonAmt = z.string().regex(/^-?\d+\.\d{3}$/).meta({ description: 'TON amount, three decimals', example: '12.345' });
const localTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/).meta({ description: 'ISO 8601 local time with microseconds, no offset', example: '2026-03-01T12:00:00.000000' });
export const offsetTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/).meta({ description: 'ISO 8601 with UTC offset', example: '2026-03-01T12:00:03.000000+00:00' });

// --- errors --------------------------------------------------------------------------------------

export const ErrorObject = reg(
  'ErrorObject',
  z.looseObject({
    code: z.string(),
    detail: z.string(),
  }),
  'An error: a machine code and a human text. Some codes add fields (insufficient_balance: currency and balance; price_changed: current_price; product_unavailable and bad_webhook_url: reason; rate_limited: scope, limit, window_seconds, retry_after).',
);
export const FlatError = reg('FlatError', ErrorObject, 'Order-processing errors: `{code, detail, ...}` at the root.', { code: 'insufficient_balance', detail: 'The USD balance is too low for this order.', currency: 'USD', balance: '3.20' });
export const NestedError = reg(
  'NestedError',
  z.looseObject({ detail: ErrorObject }),
  'Request-level errors (authentication, rate limit, unknown type, missing idempotency_key, malformed request): the error object nested in `detail`. Its extra fields are repeated at the root.',
  { detail: { code: 'unauthorized', detail: 'Missing or invalid API key.' } },
);

/** The error body shapes of the codes that add fields; each code gets its own schema (document.ts uses them). */
const flatErr = <C extends string, S extends z.ZodRawShape>(code: C, extra: S) => z.object({ code: z.literal(code), detail: z.string(), ...extra });
export const InsufficientBalanceError = reg(
  'InsufficientBalanceError',
  flatErr('insufficient_balance', { currency: z.enum(['USD', 'TON']), balance: z.string().regex(/^-?\d+\.\d{2,3}$/).meta({ description: 'the balance of that currency now (2 decimals USD, 3 TON)' }) }),
  '402 insufficient_balance: the balance the order needed, and what it holds.',
);
export const PriceChangedError = reg('PriceChangedError', flatErr('price_changed', { current_price: tonAmt.meta({ description: 'the partner price of the gift now' }), currency: z.literal('TON') }), '409 price_changed: the gift costs more than max_price.');
export const BadQuantityError = reg('BadQuantityError', flatErr('bad_quantity', { min: z.number().int(), max: z.number().int() }), '400 bad_quantity: the bounds of a Stars order.');
export const BadParamError = reg(
  'BadParamError',
  z.object({ code: z.enum(['bad_param', 'bad_attr']), detail: z.string(), param: z.string().meta({ description: 'the query parameter at fault' }) }),
  '400 bad_param / bad_attr: names the query parameter.',
);
export const BadWebhookUrlError = reg(
  'BadWebhookUrlError',
  flatErr('bad_webhook_url', { reason: z.enum(['bad_url', 'bad_scheme', 'bad_host', 'bad_port', 'credentials_in_url', 'private_host', 'too_long']) }),
  '400 bad_webhook_url: the machine reason.',
);
export const ProductUnavailableError = reg(
  'ProductUnavailableError',
  flatErr('product_unavailable', {
    reason: z.enum(['upstream_unavailable', 'product_disabled']),
    retry_after: z.number().int().optional().meta({ description: 'upstream_unavailable: seconds before a sensible retry (also the Retry-After header)' }),
  }),
  '503 product_unavailable: `upstream_unavailable` (with retry_after and Retry-After) or `product_disabled`.',
);
export const ResolverError = reg(
  'ResolverError',
  flatErr('resolver_error', { retry_after: z.number().int().meta({ description: 'seconds before a sensible retry (also the Retry-After header)' }) }),
  '502 resolver_error: recipient resolution failed; retry later.',
);
export const ValidationError = reg(
  'ValidationError',
  flatErr('validation_error', { field: z.string().optional().meta({ description: 'the body field at fault, when one is (for example client_reference)' }) }),
  '400 validation_error: the request body is invalid; `field` names the field when one is at fault.',
);
const storageReason = z.enum(['disk_full', 'io_error', 'read_only', 'busy']).meta({ description: 'what the database answered' });
export const StorageUnavailableError = reg(
  'StorageUnavailableError',
  z.object({ detail: z.object({ code: z.literal('storage_unavailable'), detail: z.string(), reason: storageReason }), reason: storageReason }),
  '503 storage_unavailable (nested): the database cannot take a write now; nothing was written, retry after Retry-After seconds. Its reason is repeated at the root.',
);
const rateLimitFields = {
  scope: z.enum(['key', 'validate_recipient', 'nft_catalog', 'nft_orders', 'wait']),
  limit: z.number().int().meta({ description: 'requests per window_seconds; for scope wait: the waiting requests a key may have open at once (window_seconds is then the longest wait)' }),
  window_seconds: z.number().int(),
  retry_after: z.number().int().meta({ description: 'seconds; also the Retry-After header' }),
};
export const RateLimitedError = reg(
  'RateLimitedError',
  z.object({ detail: z.object({ code: z.literal('rate_limited'), detail: z.string(), ...rateLimitFields }), ...rateLimitFields }),
  '429 rate_limited (nested): the limit that was hit; its fields are repeated at the root.',
  { detail: { code: 'rate_limited', detail: 'Rate limit exceeded for scope key. Retry in 1 s.', scope: 'key', limit: 120, window_seconds: 60, retry_after: 1 }, scope: 'key', limit: 120, window_seconds: 60, retry_after: 1 },
);

// --- account and catalog ------------------------------------------------------------------------

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

const premiumPrice = z.object({ partner_price: usd, currency: z.literal('USD') });
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
      available: z.boolean(),
    }),
    premium: z.object({ '3': premiumPrice, '6': premiumPrice, '12': premiumPrice }),
    nft: z.object({
      available: z.boolean(),
      pricing_model: z.literal('per_gift'),
      currency: z.literal('TON'),
      balance: z.literal('nft_balance'),
      catalog: z.string(),
      quote: z.string(),
      max_order_ton: tonAmt.nullable().meta({ description: 'the most one NFT order may cost; null: no cap' }),
    }),
  }),
  'GET /products: prices are the same for every partner.',
);
export const CatalogUnavailable = reg(
  'CatalogUnavailable',
  z.object({ unavailable: z.literal(true), reason: z.literal('cost_unavailable') }),
  'GET /products while prices cannot be read (HTTP 200; orders are refused meanwhile).',
);
export const ProductsResponse = reg('ProductsResponse', z.union([Catalog, CatalogUnavailable]), 'GET /products: the catalog, or the unavailable marker (both HTTP 200).');

// --- validation ----------------------------------------------------------------------------------

export const ValidateRecipientRequest = reg(
  'ValidateRecipientRequest',
  z.looseObject({ type: z.enum(ORDER_TYPES), username: z.string().meta({ example: '@durov' }) }),
  'POST /validate/recipient body (unknown fields are accepted and ignored)',
);
export const ValidateRecipientResult = reg(
  'ValidateRecipientResult',
  z.object({
    ok: z.literal(true),
    type: z.enum(ORDER_TYPES),
    username: z.string().meta({ description: 'normalised username, no @' }),
    name: z.string().meta({ description: 'the profile name' }),
    already_premium: z.literal(true).optional().meta({ description: 'premium only: an active subscription now; an order waits until it ends (not a refusal)' }),
    can_receive_gifts: z.boolean().optional().meta({ description: 'nft only' }),
  }),
  'The recipient exists. An unknown recipient is 400 recipient_not_found.',
);
export const ValidateGameRequest = reg('ValidateGameRequest', z.looseObject({ username: z.string() }), 'POST /validate/game body (unknown fields are accepted and ignored)');
export const ValidateGameResult = reg(
  'ValidateGameResult',
  z.object({ ok: z.literal(true), username: z.string(), found: z.literal(true), name: z.string().nullable() }),
  'The game-platform user exists. Unknown: 400 recipient_not_found; platform down: 503 product_unavailable.',
);

// --- orders --------------------------------------------------------------------------------------

const GiftAttributes = z.object({ model: z.string(), backdrop: z.string(), symbol: z.string() });
/** The fields every view of a gift has (src/app/nft/gift-prices.ts giftBase). */
const GiftBase = z.object({
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

const clientRef = z.string().min(1).max(128).meta({ description: '1 to 128 printable characters (no control or format characters, no line separators)', example: 'shop-order-8841' });

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

// Request bodies accept and ignore fields they do not know (forward compatible): loose objects, so the
// document says no `additionalProperties: false`, as the service does.
export const StarsParams = reg(
  'StarsParams',
  z.looseObject({ quantity: z.number().int().meta({ description: 'STARS_MIN_PER_ORDER..STARS_MAX_PER_ORDER (default 50..50000)' }), recipient: z.string() }),
  'params for type stars',
);
export const PremiumParams = reg('PremiumParams', z.looseObject({ months: z.union([z.literal(3), z.literal(6), z.literal(12)]), recipient: z.string() }), 'params for type premium');
export const NftParams = reg(
  'NftParams',
  z.looseObject({ gift: z.string().meta({ example: 'PlushPepe-1234' }), recipient: z.string(), max_price: z.string().meta({ description: 'positive TON amount, any number of decimals; the order is refused (409 price_changed) if the price is above it', example: '15.5' }) }),
  'params for type nft',
);
const orderRequestFields = {
  idempotency_key: z.string().max(255).meta({ description: 'mandatory; the same key and params return the same order with one debit' }),
  webhook_url: z.string().optional().meta({ description: 'per-order webhook address (the secret is always the dashboard one)' }),
  client_reference: clientRef.nullable().optional().meta({
    description:
      'optional: your own reference, 1 to 128 printable characters, else 400 validation_error with field client_reference; stored, part of the idempotency fingerprint, returned in every order view and webhook body, and a filter of GET /orders',
  }),
};
export const StarsOrderRequest = reg('StarsOrderRequest', z.looseObject({ type: z.literal('stars'), ...orderRequestFields, params: StarsParams }), 'POST /orders body for Stars');
export const PremiumOrderRequest = reg('PremiumOrderRequest', z.looseObject({ type: z.literal('premium'), ...orderRequestFields, params: PremiumParams }), 'POST /orders body for Premium');
export const NftOrderRequest = reg('NftOrderRequest', z.looseObject({ type: z.literal('nft'), ...orderRequestFields, params: NftParams }), 'POST /orders body for an NFT gift');
export const OrderRequest = reg(
  'OrderRequest',
  z.discriminatedUnion('type', [StarsOrderRequest, PremiumOrderRequest, NftOrderRequest]).meta({
    discriminator: {
      propertyName: 'type',
      mapping: { stars: '#/components/schemas/StarsOrderRequest', premium: '#/components/schemas/PremiumOrderRequest', nft: '#/components/schemas/NftOrderRequest' },
    },
  }),
  'POST /orders body: one of three shapes chosen by `type`. Unknown fields are accepted and ignored, at the root and in `params`.',
  { type: 'stars', idempotency_key: 'order-2026-0001', params: { quantity: 100, recipient: '@durov' } },
);
export const OrderList = reg(
  'OrderList',
  z.object({ items: z.array(Order), count: z.number().int(), next_cursor: z.string().nullable() }),
  'GET /orders: newest first; pass next_cursor back as `cursor` for the next page (null on the last page).',
);

// --- NFT catalog ----------------------------------------------------------------------------------

export const GiftItem = reg(
  'GiftItem',
  GiftBase.extend({
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
  GiftItem.extend({ attributes: GiftAttributes, available: z.boolean(), quoted_at: offsetTime, max_order_price: tonAmt.nullable().meta({ description: 'the most one order may cost; null: no cap' }) }),
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

// --- webhooks ------------------------------------------------------------------------------------

export const OrderEvent = reg(
  'OrderEvent',
  z.object({ event: z.enum(['order.completed', 'order.failed']), order_id: z.string(), data: WebhookOrder }),
  'Body of order.completed and order.failed.',
);
export const RefundEvent = reg(
  'RefundEvent',
  z.object({
    event: z.literal('order.refunded'),
    order_id: z.string(),
    data: z.object({
      order_id: z.string(),
      refund_amount: z.number().meta({ description: 'a JSON number (historical exception to money-as-strings)' }),
      reason: z.enum(['stars_failed', 'premium_canceled', 'nft_failed', 'nft_manual_refund']),
      currency: z.enum(CURRENCIES),
      refund_amount_ton: tonAmt.optional().meta({ description: 'nft refunds: the value to reconcile against' }),
      client_reference: clientRef.nullable().meta({ description: 'the order\'s client_reference; null when none was given' }),
    }),
  }),
  'Body of order.refunded.',
);

// --- ledger (issue 15) ------------------------------------------------------------------------------

export const LedgerEntry = reg(
  'LedgerEntry',
  z.object({
    entry_id: z.number().int(),
    kind: z.enum(['topup', 'order_debit', 'order_refund']).meta({ description: 'topup: a credited deposit; order_debit: an order\'s price; order_refund: its return' }),
    currency: z.enum(CURRENCIES),
    amount: z.string().regex(/^-?\d+\.\d{2,3}$/).meta({ description: 'signed: negative for a debit (2 decimals USD, 3 TON)', example: '-1.58' }),
    balance_after: z.string().regex(/^\d+\.\d{2,3}$/).meta({ description: 'the balance of `currency` right after this entry', example: '48.42' }),
    order_id: z.string().nullable().meta({ description: 'the order of a debit or refund' }),
    topup_id: z.string().nullable().meta({ description: 'the top-up of a credit' }),
    created_at: offsetTime,
  }),
  'One entry of the partner\'s ledger.',
);
export const LedgerList = reg(
  'LedgerList',
  z.object({ items: z.array(LedgerEntry), count: z.number().int(), next_cursor: z.string().nullable() }),
  'GET /ledger: newest first; pass next_cursor back as `cursor` for the next page (null on the last page).',
);

// --- stats (issue 15) -------------------------------------------------------------------------------

const statsMoney = z.string().regex(/^-?\d+\.\d{2,3}$/);
const statsFigures = {
  count: z.number().int().meta({ description: 'orders' }),
  spend: statsMoney.meta({ description: 'their partner prices, debited when they were created (2 decimals USD, 3 TON)', example: '15.80' }),
  refunded_count: z.number().int().meta({ description: 'of these, orders refunded' }),
  refunded_amount: statsMoney.meta({ description: 'the money returned by those refunds', example: '0.79' }),
  net_spend: statsMoney.meta({ description: 'spend less refunded_amount', example: '15.01' }),
};
export const StatsItem = reg(
  'StatsItem',
  z.object({
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().meta({ description: 'the UTC day of creation with group_by=day, else null', example: '2026-03-01' }),
    type: z.enum(ORDER_TYPES),
    status: z.enum(ORDER_STATUSES).meta({ description: 'the status now' }),
    currency: z.enum(CURRENCIES),
    ...statsFigures,
  }),
  'The orders of one type and status (and day, with group_by=day) created in the range.',
);
export const StatsTotal = reg('StatsTotal', z.object({ currency: z.enum(CURRENCIES), ...statsFigures }), 'Every order of one currency created in the range.');
export const StatsResponse = reg(
  'StatsResponse',
  z.object({
    from: offsetTime,
    to: offsetTime,
    group_by: z.string().nullable().meta({ description: '"day" with group_by=day, else null' }),
    items: z.array(StatsItem).meta({ description: 'only combinations with orders; by day, type, status' }),
    totals: z.array(StatsTotal).meta({ description: 'USD and TON, zeros included' }),
  }),
  'GET /stats: orders created from `from` to `to` (both inclusive), counted by their status now; a refund counts with its order.',
);
