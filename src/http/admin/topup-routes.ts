import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { resolveDeposit } from '../../app/deposits/resolve.js';
import { listDeposits } from '../../app/deposits/view.js';
import { cancelTopupRequest, listTopupRequests } from '../../app/topup-request-state.js';
import { createTopupRequest } from '../../app/topup-requests.js';
import { fail } from '../../domain/errors.js';
import type { RawQuery } from '../route.js';

/**
 * Automatic top-ups in the operator API (operator-api.md section 2): exact-amount requests on a partner's
 * behalf (made, listed, canceled), the deposits seen on chain, and manual handling of those that did not match.
 */

const ACTOR = 'operator';

function pid(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) fail('not_found', 'No such partner.');
  return Number(raw);
}

/** What topupRoutes uses of the service. */
export type TopupRoutesDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'bus'>;

export function topupRoutes(deps: TopupRoutesDeps) {
  return (app: FastifyInstance) => {
    app.post<{ Params: { partner_id: string } }>('/partners/:partner_id/topup-requests', async (req, reply) => {
      const r = createTopupRequest(deps, pid(req.params.partner_id), req.body ?? {}, ACTOR);
      reply.code(201);
      return r;
    });
    app.get<{ Params: { partner_id: string }; Querystring: RawQuery }>('/partners/:partner_id/topup-requests', async (req) =>
      listTopupRequests(deps, pid(req.params.partner_id), req.query),
    );
    app.delete<{ Params: { partner_id: string; request_id: string } }>('/partners/:partner_id/topup-requests/:request_id', async (req) =>
      cancelTopupRequest(deps, pid(req.params.partner_id), req.params.request_id, ACTOR),
    );
    app.get<{ Querystring: RawQuery }>('/deposits', async (req) => listDeposits(deps, req.query));
    app.post<{ Params: { deposit_id: string } }>('/deposits/:deposit_id/resolve', async (req) =>
      resolveDeposit(deps, req.params.deposit_id, req.body ?? {}, ACTOR),
    );
  };
}
