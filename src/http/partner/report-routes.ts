import type { FastifyInstance } from 'fastify';
import { partnerStats } from '../../app/stats.js';
import { sendJson } from '../frozen-json.js';
import { partnerOf, type PartnerRouteDeps } from './routes.js';

/** The partner API's reports (issue 15): statistics. */
export function reportRoutes() {
  return (app: FastifyInstance, ctx: PartnerRouteDeps) => {
    const { deps } = ctx;
    app.get('/stats', async (req, reply) => sendJson(reply, partnerStats(deps, partnerOf(req), req.query as Record<string, unknown>)));
  };
}
