import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { exportPartnerLedger, exportPartnerOrders } from '../../app/exports.js';
import { sendCsv } from '../csv.js';
import { pid } from './operator-routes.js';

type P = { Params: { partner_id: string } };

/**
 * The operator API's counterparts of the partner CSV exports, under the partner as
 * GET /partners/{partner_id}/ledger is: the same columns, filters and errors (flat), 404 for an unknown partner.
 */
export function exportRoutes(deps: Pick<Deps, 'db' | 'clock' | 'config'>) {
  return (app: FastifyInstance) => {
    app.get<P>('/partners/:partner_id/orders/export.csv', async (req, reply) => sendCsv(reply, exportPartnerOrders(deps, pid(req.params.partner_id), req.query as Record<string, unknown>)));
    app.get<P>('/partners/:partner_id/ledger/export.csv', async (req, reply) => sendCsv(reply, exportPartnerLedger(deps, pid(req.params.partner_id), req.query as Record<string, unknown>)));
  };
}
