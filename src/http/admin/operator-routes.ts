import type { FastifyInstance } from 'fastify';
import { fail } from '../../domain/errors.js';
import { route, type RawQuery } from '../route.js';
import { sendCsv } from '../csv.js';
import { exportPartnerLedger, exportPartnerOrders } from '../../app/exports.js';
import { inviteForPartner } from '../../app/operator/partners.js';
import { LEDGER_EXPORT_QUERY, ORDER_EXPORT_QUERY } from '../../app/requests/queries.js';
import type { Deps } from '../../app/deps.js';
import { adjustBalance } from '../../app/adjustments.js';
import { alertsView, setAlerts } from '../../app/balance-alerts.js';
import { issueKey, type KeyCache } from '../../app/keys.js';
import { ledgerCheck, ledgerPage } from '../../app/ledger.js';
import { cancelPremium, getOperatorOrder, listReviews, resolveReview } from '../../app/orders/review.js';
import { createPartner, partnerNameOf, partnerView } from '../../app/partners.js';
import { settingsPatchSchema } from '../../app/settings.js';
import { creditTopup, type TopupInput } from '../../app/topups.js';
import { saveWebhook } from '../../app/webhooks/config.js';
import { listDeliveries } from '../../app/webhooks/deliveries.js';
import { objectBody, parseOrFail } from '../../app/requests/parse.js';


type P = { Params: { partner_id: string } };
type O = { Params: { order_id: string } };
/** A query string read by its use case (src/app/ledger.ts, webhooks/deliveries.ts). */
type Q = { Querystring: RawQuery };

const ACTOR = 'operator';

export function pid(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) fail('not_found', 'No such partner.');
  return Number(raw);
}

/** What operatorRoutes uses of the service. */
export type OperatorRoutesDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'suppliers' | 'secrets' | 'settings' | 'bus' | 'wake' | 'supplierCalls'>;

/** The operator API's partners, keys, webhooks, invites, exports, settings, orders, reviews and ledger (operator-api.md section 2). */
export function operatorRoutes(deps: OperatorRoutesDeps, keys: KeyCache) {
  return (app: FastifyInstance) => {
    app.post('/partners', async (req, reply) => {
      const name = partnerNameOf(objectBody(req));
      reply.code(201);
      return createPartner(deps, name, ACTOR);
    });
    app.get<P>('/partners/:partner_id', async (req) => partnerView(deps, pid(req.params.partner_id)));
    app.post<P>('/partners/:partner_id/topups', async (req, reply) => {
      const r = creditTopup(deps, pid(req.params.partner_id), objectBody(req) as unknown as TopupInput, ACTOR);
      reply.code(r.status);
      return r.body;
    });
    app.post<P>('/partners/:partner_id/keys', async (req, reply) => {
      const b = objectBody(req);
      const r = issueKey(deps, keys, pid(req.params.partner_id), b.ip_whitelist ?? [], ACTOR);
      reply.code(201);
      return r;
    });
    app.put<P>('/partners/:partner_id/webhook', async (req) => saveWebhook(deps, pid(req.params.partner_id), objectBody(req), ACTOR));
    app.get<P>('/partners/:partner_id/alerts', async (req) => alertsView(deps, pid(req.params.partner_id)));
    app.put<P>('/partners/:partner_id/alerts', async (req) => setAlerts(deps, pid(req.params.partner_id), objectBody(req), ACTOR));
    app.get<P & Q>('/partners/:partner_id/ledger', async (req) => ledgerPage(deps, pid(req.params.partner_id), req.query));
    app.post<P>('/partners/:partner_id/adjustments', async (req, reply) => {
      const r = adjustBalance(deps, pid(req.params.partner_id), req.body ?? {}, ACTOR);
      reply.code(201);
      return r;
    });
    // a one-time bot link code, valid 24 h
    app.post<P>('/partners/:partner_id/invites', async (req, reply) => {
      const invite = inviteForPartner(deps, pid(req.params.partner_id), objectBody(req), ACTOR);
      reply.code(201);
      return invite;
    });
    // the partner CSV exports under the partner: the same columns, filters and errors (flat); the partner id's
    // syntax first, then a bad filter, then 404 for an unknown partner
    const partnerId = (req: { params: Record<string, string> }) => pid(req.params.partner_id);
    route(app, 'GET', '/partners/:partner_id/orders/export.csv', { first: partnerId, query: ORDER_EXPORT_QUERY }, async (req, reply) => sendCsv(reply, exportPartnerOrders(deps, partnerId(req), req.query)));
    route(app, 'GET', '/partners/:partner_id/ledger/export.csv', { first: partnerId, query: LEDGER_EXPORT_QUERY }, async (req, reply) => sendCsv(reply, exportPartnerLedger(deps, partnerId(req), req.query)));

    app.put('/settings', async (req) => {
      return deps.settings.update(parseOrFail(settingsPatchSchema, objectBody(req)), deps.clock.now(), ACTOR);
    });
    app.get('/settings', async () => deps.settings.get());

    app.get<O>('/orders/:order_id', async (req) => getOperatorOrder(deps, req.params.order_id));
    app.get('/reviews', async () => listReviews(deps));
    app.post<O>('/orders/:order_id/resolve', async (req) => resolveReview(deps, req.params.order_id, objectBody(req), ACTOR));
    app.post<O>('/orders/:order_id/cancel', async (req) => cancelPremium(deps, req.params.order_id, objectBody(req).note, ACTOR));

    app.get<Q>('/webhook-deliveries', async (req) => listDeliveries(deps, req.query));
    app.get('/ledger/check', async () => ledgerCheck(deps));
  };
}
