import type { FastifyInstance } from 'fastify';
import { replayOrCreate } from '../../app/orders/create.js';
import { noteBodyText, replayedBody } from '../../app/orders/idempotency.js';
import { installRememberingJsonParser } from '../json-body.js';
import { getOwnOrder, listOwnOrders, readOwnOrder } from '../../app/orders/query.js';
import { sendJson } from '../frozen-json.js';
import { isJsonObject } from '../../app/requests/parse.js';
import { ORDER_LIST_QUERY, ORDER_READ_QUERY, type OrderListInput } from '../../app/requests/queries.js';
import { documented, pathParam, type Endpoint } from '../route.js';
import { clientGone, partnerOf, type PartnerContext } from './context.js';

const CREATE: Endpoint = {
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
    nft: { value: { type: 'nft', idempotency_key: 'order-0003', params: { gift: 'HomemadeCake-6344', recipient: '@durov', max_price: '5.000' } } },
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
  callbacks: ['order.completed', 'order.failed', 'order.refunded', 'balance.low'],
};

const LIST: Endpoint<OrderListInput> = {
  method: 'get',
  path: '/orders',
  operationId: 'listOrders',
  tag: 'Orders',
  summary: 'List own orders',
  description: 'Newest first, keyset paging: pass `next_cursor` back as `cursor`.',
  query: ORDER_LIST_QUERY,
  response: 'OrderList',
  okDescription: 'A page of orders.',
  errors: ['bad_status', 'bad_type', 'bad_time', 'bad_limit', 'bad_cursor', 'bad_param'],
};

const GET: Endpoint<{ wait?: number }> = {
  method: 'get',
  path: '/orders/{order_id}',
  operationId: 'getOrder',
  tag: 'Orders',
  summary: 'Read one order',
  description:
    'Another partner\'s order is `not_found` too. With `wait=N` the answer comes as soon as the order is final (completed, or failed/canceled outside manual review), or after N seconds with the order as it is then (check `status`); an order already final answers at once. A key may have `ORDER_WAIT_MAX_PER_KEY` (default 10) waiting requests open at once; past that 429 `rate_limited` with scope `wait` (`limit` is that number, `window_seconds` the longest wait, 30, and `retry_after` when the key\'s soonest wait ends at the latest). Waiting is a convenience: webhooks stay the reliable channel. Other query parameters are ignored.',
  parameters: [pathParam('order_id')],
  query: ORDER_READ_QUERY,
  response: 'Order',
  okDescription: 'The order (final, or as it is when the wait ran out).',
  errors: ['not_found', 'bad_param'],
};

export const orderEndpoints = [CREATE, LIST, GET];

/** POST /orders, GET /orders, GET /orders/{order_id}: answers made by sendJson (cached JSON of each order version). */
export function orderRoutes(app: FastifyInstance, { deps, limiter }: PartnerContext): void {
  // in a scope of its own: its body parser remembers replayed texts (a retry's body is parsed once per text)
  void app.register(async (scope) => {
    installRememberingJsonParser(scope, replayedBody, noteBodyText);
    // not async: a replay is answered at once (replayOrCreate), only a new order is awaited
    documented(scope, CREATE, (req, reply) => {
      const body = req.body;
      // NFT orders also count against their own scope, per partner
      if (isJsonObject(body) && body.type === 'nft') limiter.hit('nft_orders', partnerOf(req));
      const r = replayOrCreate(deps, partnerOf(req), body);
      return r instanceof Promise ? r.then((created) => sendJson(reply, created.order)) : sendJson(reply, r.order);
    });
  });
  documented(app, LIST, async (req, reply) => sendJson(reply, listOwnOrders(deps, partnerOf(req), req.query)));
  // not async: a plain read (no `wait`) answers at once, without a promise and its microtask
  documented(app, GET, (req, reply) => {
    const { wait } = req.query;
    if (wait === undefined) return sendJson(reply, getOwnOrder(deps, partnerOf(req), req.params.order_id));
    return readOwnOrder(deps, req.partner!, req.params.order_id, wait, () => clientGone(reply)).then((o) => sendJson(reply, o));
  });
}
