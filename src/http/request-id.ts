import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ids } from '../kernel/ids.js';

/**
 * Request ids: an incoming `X-Request-Id` that looks like an id (1–128 visible ASCII characters of the usual
 * id alphabets: a proxy's, a load balancer's or a partner's own) is kept, anything else is replaced by a
 * fresh one, so that a partner's support ticket, the proxy's access log and this service's log lines name
 * the same request. Never longer than 128 characters and never anything a log reader could misread.
 */
const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdFor(incoming: string | string[] | undefined, ids: Ids): string {
  const v = Array.isArray(incoming) ? undefined : incoming;
  return v !== undefined && SANE.test(v) ? v : ids.uuid();
}

/**
 * Every answer carries `X-Request-Id` (the request's id, which its log lines carry as `req_id`), and every 401
 * carries `WWW-Authenticate` (RFC 9110): `Bearer` for the partner, operator and metrics tokens, `tma` for the
 * Mini App's API (Telegram initData, or its session cookie).
 */
export function installResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
    reply.header('x-request-id', req.id);
    if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', req.url.startsWith('/api/app/') ? 'tma' : 'Bearer');
    done(null, payload);
  });
}
