import { ORDER_STATUSES, ORDER_TYPES } from '../../domain/enums.js';
import type { ErrorCode } from '../../domain/errors.js';

/** Every partner endpoint: what the OpenAPI document says of it. Error codes beyond authentication and the key limit. */
export interface Endpoint {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  parameters?: Record<string, unknown>[];
  body?: string;
  bodyExamples?: Record<string, unknown>;
  response: string;
  okDescription: string;
  responseExample?: unknown;
  errors: ErrorCode[];
  callbacks?: boolean;
}

const q = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }, required = false) => ({ name, in: 'query', required, description, schema });

export const PARTNER_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/me',
    operationId: 'getMe',
    tag: 'Account',
    summary: 'The partner account',
    description: '`balance` and `currency` always mean the dollar balance (kept for compatibility); the TON balance is in `nft_balance` and `balances`.',
    response: 'PartnerAccount',
    okDescription: 'The account.',
    errors: [],
  },
  {
    method: 'get',
    path: '/products',
    operationId: 'getProducts',
    tag: 'Account',
    summary: 'The catalog of prices',
    description: 'The same prices for every partner; they follow the market, so read them before ordering. While supplier costs cannot be read the answer is HTTP 200 `{unavailable: true, reason: "cost_unavailable"}` and orders are refused.',
    response: 'ProductsResponse',
    okDescription: 'The catalog, or the unavailable marker.',
    errors: [],
  },
  {
    method: 'post',
    path: '/validate/recipient',
    operationId: 'validateRecipient',
    tag: 'Validation',
    summary: 'Check a recipient',
    description: 'Resolves a username as an order would. For `premium`, `already_premium: true` means an active subscription now: an order is accepted and waits until it ends. Rate limited per key (scope `validate_recipient`). 503 `product_unavailable` (`upstream_unavailable`, `Retry-After`) when the supplier itself is down (with a real supplier: its session expired, verification needed, unreachable).',
    body: 'ValidateRecipientRequest',
    response: 'ValidateRecipientResult',
    okDescription: 'The recipient exists.',
    errors: ['bad_type', 'recipient_required', 'recipient_not_found', 'resolver_error', 'product_unavailable', 'bad_json'],
  },
  {
    method: 'post',
    path: '/validate/game',
    operationId: 'validateGame',
    tag: 'Validation',
    summary: 'Check a game-platform user',
    description: 'Rate limited per key (scope `validate_recipient`). 503 `product_unavailable` (`upstream_unavailable`, `Retry-After`) when the supplier itself is down (with a real supplier: its session expired, verification needed, unreachable).',
    body: 'ValidateGameRequest',
    response: 'ValidateGameResult',
    okDescription: 'The user exists.',
    errors: ['recipient_required', 'recipient_not_found', 'product_unavailable', 'bad_json'],
  },
  {
    method: 'post',
    path: '/orders',
    operationId: 'createOrder',
    tag: 'Orders',
    summary: 'Create an order',
    description:
      'Debits the partner price at once and answers the order (HTTP 200). The same `idempotency_key` with the same parameters returns the same order with one debit; with other parameters 409 `idempotency_key_reuse`; while the first request is still being created 409 `order_in_progress` (retry in a second). NFT checks run in this order: `max_price` syntax, the recipient (whose errors hide later ones), then price and gift. The outcome arrives by webhook (see callbacks).',
    body: 'OrderRequest',
    bodyExamples: {
      stars: { value: { type: 'stars', idempotency_key: 'order-0001', params: { quantity: 100, recipient: '@durov' } } },
      premium: { value: { type: 'premium', idempotency_key: 'order-0002', params: { months: 3, recipient: '@durov' } } },
      nft: { value: { type: 'nft', idempotency_key: 'order-0003', params: { gift: 'PlushPepe-1234', recipient: '@durov', max_price: '1000' } } },
    },
    response: 'Order',
    okDescription: 'The order (a replay answers the same order).',
    responseExample: {
      order_id: 'PA-100001', type: 'stars', status: 'processing', partner_price: '1.58', currency: 'USD', retail: null, quantity: 100, recipient: '@durov',
      label: '100 звёзд Telegram для @durov', created_at: '2026-03-01T12:00:00.000000', completed_at: null, refunded: false, client_reference: null,
    },
    errors: [
      'bad_json', 'bad_request', 'idempotency_required', 'bad_type', 'validation_error', 'bad_params', 'bad_quantity', 'bad_months', 'bad_gift', 'bad_max_price', 'recipient_required', 'recipient_not_found',
      'bad_webhook_url', 'insufficient_balance', 'gift_not_for_sale', 'gift_reserved', 'price_changed', 'idempotency_key_reuse', 'order_in_progress', 'deferred_order_exists',
      'resolver_error', 'product_unavailable', 'ledger_unavailable',
    ],
    callbacks: true,
  },
  {
    method: 'get',
    path: '/orders',
    operationId: 'listOrders',
    tag: 'Orders',
    summary: 'List own orders',
    description: 'Newest first, keyset paging: pass `next_cursor` back as `cursor`.',
    parameters: [
      q('status', 'processing, completed, partial, canceled or failed', { type: 'string', enum: [...ORDER_STATUSES] }),
      q('type', 'stars, premium or nft', { type: 'string', enum: [...ORDER_TYPES] }),
      q('client_reference', 'only orders created with exactly this client_reference (1 to 128 printable characters, else 400 bad_param)', { type: 'string', minLength: 1, maxLength: 128 }),
      q('from', 'created at or after: ISO 8601 date or date-time (offset optional), or unix seconds'),
      q('to', 'created at or before: same formats as from'),
      q('cursor', 'the next_cursor of the previous page'),
      q('limit', 'page size, 1 to 200, default 50', { type: 'integer', minimum: 1, maximum: 200, default: 50 }),
    ],
    response: 'OrderList',
    okDescription: 'A page of orders.',
    errors: ['bad_status', 'bad_type', 'bad_time', 'bad_limit', 'bad_cursor', 'bad_param'],
  },
  {
    method: 'get',
    path: '/orders/{order_id}',
    operationId: 'getOrder',
    tag: 'Orders',
    summary: 'Read one order',
    description:
      'Another partner\'s order is `not_found` too. With `wait=N` the answer comes as soon as the order is final (completed, or failed/canceled outside manual review), or after N seconds with the order as it is then (check `status`); an order already final answers at once. A key may have `ORDER_WAIT_MAX_PER_KEY` (default 10) waiting requests open at once; past that 429 `rate_limited` with scope `wait` (`limit` is that number, `window_seconds` the longest wait, 30, and `retry_after` when the key\'s soonest wait ends at the latest). Waiting is a convenience: webhooks stay the reliable channel. Other query parameters are ignored.',
    parameters: [
      { name: 'order_id', in: 'path', required: true, schema: { type: 'string' } },
      q('wait', 'seconds to wait for the outcome: a whole number from 1 to 30 (else 400 bad_param)', { type: 'integer', minimum: 1, maximum: 30 }),
    ],
    response: 'Order',
    okDescription: 'The order (final, or as it is when the wait ran out).',
    errors: ['not_found', 'bad_param'],
  },
  {
    method: 'get',
    path: '/nft/collections',
    operationId: 'listCollections',
    tag: 'NFT',
    summary: 'Gift collections',
    description: 'Rate limited per key (scope `nft_catalog`). The catalog is cached for up to one minute.',
    response: 'CollectionList',
    okDescription: 'The collections.',
    errors: ['product_unavailable'],
  },
  {
    method: 'get',
    path: '/nft/gifts',
    operationId: 'listGifts',
    tag: 'NFT',
    summary: 'Gifts of a collection',
    description: 'Sorted by price, keyset paging: a cursor never repeats or skips an item. Rate limited per key (scope `nft_catalog`).',
    parameters: [
      q('collection', 'collection identifier (required)', { type: 'string' }, true),
      q('sort', 'price_asc (default) or price_desc', { type: 'string', enum: ['price_asc', 'price_desc'], default: 'price_asc' }),
      q('cursor', 'the next_cursor of the previous page (same collection and sort)'),
      q('limit', 'page size, 1 to 100, default 20', { type: 'integer', minimum: 1, maximum: 100, default: 20 }),
      q('model', 'attribute filter (also attr_model)'),
      q('backdrop', 'attribute filter (also attr_backdrop)'),
      q('symbol', 'attribute filter (also attr_symbol)'),
    ],
    response: 'GiftList',
    okDescription: 'A page of gifts.',
    errors: ['collection_required', 'bad_sort', 'bad_cursor', 'bad_attr', 'bad_param', 'not_found', 'product_unavailable'],
  },
  {
    method: 'get',
    path: '/nft/gifts/{gift}',
    operationId: 'getGift',
    tag: 'NFT',
    summary: 'The price of one gift',
    description: 'A fresh quote. `available: false` means sold or delisted: an order for it is refused. Rate limited per key (scope `nft_catalog`).',
    parameters: [{ name: 'gift', in: 'path', required: true, schema: { type: 'string' }, example: 'PlushPepe-1234' }],
    response: 'GiftQuote',
    okDescription: 'The quote.',
    errors: ['not_found', 'product_unavailable'],
  },
  {
    method: 'get',
    path: '/ledger',
    operationId: 'listLedger',
    tag: 'Account',
    summary: 'The partner\'s ledger',
    description: 'Every movement of the balances: top-ups, order debits, refunds, each with the balance after it. Newest first, keyset paging like GET /orders: pass `next_cursor` back as `cursor`.',
    parameters: [
      q('currency', 'USD or TON (default: both)', { type: 'string', enum: ['USD', 'TON'] }),
      q('from', 'created at or after: ISO 8601 date or date-time (offset optional), or unix seconds'),
      q('to', 'created at or before: same formats as from'),
      q('cursor', 'the next_cursor of the previous page'),
      q('limit', 'page size, 1 to 200, default 50', { type: 'integer', minimum: 1, maximum: 200, default: 50 }),
    ],
    response: 'LedgerList',
    okDescription: 'A page of entries.',
    errors: ['bad_time', 'bad_limit', 'bad_cursor', 'bad_param'],
  },
  {
    method: 'get',
    path: '/stats',
    operationId: 'getStats',
    tag: 'Account',
    summary: 'Order statistics',
    description:
      'The orders created from `from` to `to` (both inclusive; default: the 30 days up to now; at most 366 days, else 400 `bad_range`), per type, status (the status now) and currency: how many, their spend (partner prices debited), how many were refunded and for how much, and the net spend. A refund counts with its order, whenever it was made. `group_by=day` splits the same figures by the UTC day of creation (`day`, `YYYY-MM-DD`). `totals` sums every order per currency.',
    parameters: [
      q('from', 'created at or after: ISO 8601 date or date-time (offset optional), or unix seconds; default 30 days before to'),
      q('to', 'created at or before: same formats as from; default now'),
      q('group_by', '`day`: one set of figures per UTC day', { type: 'string', enum: ['day'] }),
    ],
    response: 'StatsResponse',
    okDescription: 'The figures.',
    responseExample: {
      from: '2026-03-01T00:00:00.000000+00:00', to: '2026-03-31T23:59:59.000000+00:00', group_by: null,
      items: [{ day: null, type: 'stars', status: 'completed', currency: 'USD', count: 10, spend: '15.80', refunded_count: 0, refunded_amount: '0.00', net_spend: '15.80' }],
      totals: [
        { currency: 'USD', count: 10, spend: '15.80', refunded_count: 0, refunded_amount: '0.00', net_spend: '15.80' },
        { currency: 'TON', count: 0, spend: '0.000', refunded_count: 0, refunded_amount: '0.000', net_spend: '0.000' },
      ],
    },
    errors: ['bad_time', 'bad_range', 'bad_param'],
  },
];
