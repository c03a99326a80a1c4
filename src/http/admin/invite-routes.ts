import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../app/deps.js';
import { createInvite } from '../../app/invites.js';
import { fail } from '../../domain/errors.js';
import { BOT_ROLES } from '../../domain/enums.js';
import { parseOrFail } from '../../app/validation.js';

/** POST /partners/{partner_id}/invites (operator-api.md section 2): a one-time bot link code, valid 24 h. */

const inviteSchema = z.object({ role: z.enum(BOT_ROLES) }).strict();

export function inviteRoutes(deps: Deps) {
  return (app: FastifyInstance) => {
    app.post<{ Params: { partner_id: string } }>('/partners/:partner_id/invites', async (req, reply) => {
      if (!/^\d{1,15}$/.test(req.params.partner_id)) fail('not_found', 'No such partner.');
      const body = req.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) fail('validation_error', 'The body must be a JSON object.');
      const { role } = parseOrFail(inviteSchema, body);
      const invite = createInvite(deps, Number(req.params.partner_id), role, 'operator');
      reply.code(201);
      return invite;
    });
  };
}
