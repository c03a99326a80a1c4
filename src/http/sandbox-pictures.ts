import type { FastifyInstance } from 'fastify';
import { fail } from '../domain/errors.js';
import type { SandboxControl } from '../app/sandbox-control.js';

/** GET /sandbox/gifts/<gift>.svg (sandbox mode, no auth): the picture a sandbox gift's `image` points to. */
export function sandboxPictureRoutes(sandbox: Pick<SandboxControl, 'gifts'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { file: string } }>('/sandbox/gifts/:file', async (req, reply) => {
      const m = /^([A-Za-z]+-\d{1,9})\.svg$/.exec(req.params.file);
      const svg = m ? sandbox.gifts.picture(m[1]) : null;
      if (!svg) fail('not_found', 'No such gift picture.');
      // The same gift always has the same picture.
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(svg);
    });
  };
}
