import type { FastifyInstance } from 'fastify';
import { account } from '../../app/account.js';
import { products } from '../../app/products.js';
import { fail } from '../../domain/errors.js';
import { giftFacets, searchGifts } from '../../app/nft/market-search.js';
import { createOrder } from '../../app/orders/create.js';
import { listOwnOrders } from '../../app/orders/query.js';
import { recipientCheck } from '../../app/orders/recipient-check.js';
import { orderDetail } from '../../app/orders/timeline.js';
import { partnerStats } from '../../app/stats.js';
import { ORDER_LIST_QUERY } from '../../app/requests/queries.js';
import { sendJson } from '../frozen-json.js';
import { route, type RawQuery } from '../route.js';
import { linkOfReq } from './auth.js';
import { objectBody } from '../../app/requests/parse.js';
import { actorOf, type AppApiDeps } from './context.js';
import { may } from '../../domain/permissions.js';
import type { SpendAnswer, BalancesAnswer, GiftFacetsAnswer, GiftSearchAnswer, OrderDetailAnswer, RecipientCheckAnswer } from './types.js';

const CLIENT_KEY = /^[A-Za-z0-9_-]{8,100}$/;
/** What a Mini App order may say; no `webhook_url`: the order's signed events go only to the partner's saved webhook. */
const APP_ORDER_FIELDS = new Set(['type', 'params', 'idempotency_key', 'client_reference']);

/** Staff and owners: balances, prices, orders, the recipient check, ordering, the gift market. */
export function orderingRoutes(app: FastifyInstance, { deps, catalog, limiter }: AppApiDeps): void {
  const pid = (req: Parameters<typeof linkOfReq>[1]) => linkOfReq(deps, req).partnerId;

  app.get('/balances', async (req): Promise<BalancesAnswer> => ({ balances: account(deps, pid(req)).balances }));
  // the home screen's spend: the partner API's GET /stats over the last 7 days of the service clock, totals per currency
  app.get('/spend', async (req): Promise<SpendAnswer> => {
    const s = partnerStats(deps, pid(req), { from: deps.clock.now() - 7 * 86_400_000 });
    return { days: 7, from: s.from, to: s.to, totals: s.totals };
  });
  app.get('/products', async (req) => {
    pid(req);
    return products(deps);
  });

  route(app, 'GET', '/orders', { first: pid, query: ORDER_LIST_QUERY }, async (req, reply) => sendJson(reply, listOwnOrders(deps, pid(req), req.query)));
  app.get<{ Params: { order_id: string } }>('/orders/:order_id', async (req): Promise<OrderDetailAnswer> => {
    const link = linkOfReq(deps, req);
    return orderDetail(deps, link.partnerId, req.params.order_id, may({ role: link.role, operator: false }, 'ledger.view'));
  });

  app.post('/recipient-check', async (req): Promise<RecipientCheckAnswer> => {
    const partnerId = pid(req);
    limiter.hit('validate_recipient', `app:${partnerId}`);
    return recipientCheck(deps, partnerId, objectBody(req));
  });

  /**
   * An order as POST /orders makes it (createOrder, which checks the partner's access too). The app makes one
   * `idempotency_key` per confirmation; it is kept apart from the partner's own keys by an `app:` prefix,
   * so a double tap (or a retry) makes one order and never meets a key of the partner's own software.
   * The order is audited with the Telegram user who placed it (`order.create`). It takes no `webhook_url`
   * (400 validation_error): a person of the team must not send the partner's signed events to an address
   * of their own; the events go to the webhook the owner saved.
   */
  app.post('/orders', async (req, reply) => {
    const link = linkOfReq(deps, req);
    const partnerId = link.partnerId;
    const b = objectBody(req);
    if ('webhook_url' in b) fail('validation_error', "webhook_url is not taken here: the order's events go to the partner's saved webhook.", { field: 'webhook_url' });
    for (const k of Object.keys(b)) if (!APP_ORDER_FIELDS.has(k)) fail('validation_error', `Unknown field: ${k}.`, { field: k });
    if (typeof b.idempotency_key !== 'string' || !CLIENT_KEY.test(b.idempotency_key))
      fail('idempotency_required', 'idempotency_key: 8 to 100 letters, digits, "-" or "_", one per confirmation.');
    if (b.type === 'nft') limiter.hit('nft_orders', partnerId);
    const r = await createOrder(deps, partnerId, { ...b, idempotency_key: `app:${b.idempotency_key}` }, { actor: actorOf(link.telegramUserId) });
    return sendJson(reply, r.order);
  });

  app.get<{ Querystring: RawQuery }>('/gifts', async (req): Promise<GiftSearchAnswer> => {
    pid(req);
    return searchGifts(deps, catalog, req.query);
  });
  app.get<{ Querystring: RawQuery }>('/gifts/filters', async (req): Promise<GiftFacetsAnswer> => {
    pid(req);
    return giftFacets(deps, catalog, req.query);
  });
  app.get<{ Params: { gift: string } }>('/gifts/:gift', async (req) => {
    pid(req);
    return catalog.quote(req.params.gift);
  });
}
