import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { exportPartnerLedger, exportPartnerOrders } from '../../app/exports.js';
import { LEDGER_EXPORT_QUERY, ORDER_EXPORT_QUERY } from '../../app/requests/queries.js';
import { sendCsv } from '../csv.js';
import { route } from '../openapi/endpoint.js';
import { pid } from './operator-routes.js';

/**
 * The operator API's counterparts of the partner CSV exports, under the partner as
 * GET /partners/{partner_id}/ledger is: the same columns, filters and errors (flat), 404 for an unknown partner
 * (after the filters: a bad filter is refused first). The partner id's own syntax comes before both.
 */
export function exportRoutes(deps: Pick<Deps, 'db' | 'clock' | 'config'>) {
  return (app: FastifyInstance) => {
    const partnerId = (req: { params: Record<string, string> }) => pid(req.params.partner_id);
    route(app, 'GET', '/partners/:partner_id/orders/export.csv', { first: partnerId, query: ORDER_EXPORT_QUERY }, async (req, reply) => sendCsv(reply, exportPartnerOrders(deps, partnerId(req), req.query)));
    route(app, 'GET', '/partners/:partner_id/ledger/export.csv', { first: partnerId, query: LEDGER_EXPORT_QUERY }, async (req, reply) => sendCsv(reply, exportPartnerLedger(deps, partnerId(req), req.query)));
  };
}
