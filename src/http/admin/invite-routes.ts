import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { inviteForPartner } from '../../app/operator/partners.js';
import { isJsonObject } from '../../app/requests/parse.js';
import { fail } from '../../domain/errors.js';

/** POST /partners/{partner_id}/invites (operator-api.md section 2): a one-time bot link code, valid 24 h. */

export function inviteRoutes(deps: Pick<Deps, 'db' | 'clock' | 'ids'>) {
  return (app: FastifyInstance) => {
    app.post<{ Params: { partner_id: string } }>('/partners/:partner_id/invites', async (req, reply) => {
      if (!/^\d{1,15}$/.test(req.params.partner_id)) fail('not_found', 'No such partner.');
      const body = req.body ?? {};
      if (!isJsonObject(body)) fail('validation_error', 'The body must be a JSON object.');
      const invite = inviteForPartner(deps, Number(req.params.partner_id), body, 'operator');
      reply.code(201);
      return invite;
    });
  };
}
