import type { FastifyInstance } from 'fastify';
import { listOwnLedger } from '../../app/partner-ledger.js';
import { sendJson } from '../frozen-json.js';
import { partnerOf, type PartnerRouteDeps } from './routes.js';

/** The partner API's additions for integrators (issue 15): the ledger. */
export function integratorRoutes() {
  return (app: FastifyInstance, ctx: PartnerRouteDeps) => {
    const { deps } = ctx;
    app.get('/ledger', async (req, reply) => sendJson(reply, listOwnLedger(deps, partnerOf(req), req.query as Record<string, unknown>)));
  };
}
