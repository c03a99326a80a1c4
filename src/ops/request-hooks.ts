import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../kernel/log.js';
import type { ServiceMetrics } from './metrics.js';

/**
 * One `onResponse` hook for what every answered request feeds: the request metrics (when metrics are on)
 * and one JSON log line (when the log level includes info): request id, method, route template, status,
 * duration and the partner id when the caller is a partner (or the route names one). Never headers, bodies
 * or query strings: they carry API keys, tokens and webhook secrets.
 */
export function installRequestHooks(app: FastifyInstance, opts: { metrics: ServiceMetrics | null; log: Logger | null }): void {
  const { metrics, log } = opts;
  if (!metrics && !log) return;
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const ms = reply.elapsedTime;
    metrics?.observeRequest(route, req.method, reply.statusCode, ms / 1000);
    if (log) {
      const partnerId = (req as { partner?: { partnerId: number } }).partner?.partnerId ?? numberParam(req.params, 'partner_id');
      log.info({ req_id: req.id, method: req.method, route, status: reply.statusCode, ms: Math.round(ms * 100) / 100, ...(partnerId === undefined ? {} : { partner_id: partnerId }) }, 'request');
    }
    done();
  });
}

function numberParam(params: unknown, name: string): number | undefined {
  const v = (params as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
}
