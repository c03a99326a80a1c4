import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
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
 * Every answer carries `X-Request-Id` (the request's id, which its log lines carry as `req_id`): set when
 * the request arrives (an `onRequest` hook, the cheapest place: answers, errors and 404s keep the headers
 * set before them), so no hook runs when the answer is sent. The answers Fastify makes before any hook
 * (src/http/errors.ts frameworkErrors) set it themselves.
 */
export function installResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header('x-request-id', req.id);
    done();
  });
}

/**
 * The `WWW-Authenticate` challenge every 401 carries (RFC 9110): `Bearer` for the partner, operator and
 * metrics tokens, `tma` for the Mini App's API (Telegram initData, or its session cookie). Set by each
 * place that answers 401 (the error handler, the metrics route, the bot's webhook).
 */
export function authChallenge(url: string): string {
  return url.startsWith('/api/app/') ? 'tma' : 'Bearer';
}
