import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError, errorBody } from '../domain/errors.js';
import { authChallenge } from '../http/request-id.js';
import type { ServiceMetrics } from './metrics.js';
import type { Readiness } from './readiness.js';

/** GET /readyz (no auth): 200 `{status: "ready"}`, or 503 `{status: "not_ready", reason, detail?}`. */
export function readyzRoute(readiness: Readiness) {
  return (app: FastifyInstance) => {
    app.get('/readyz', async (_req, reply) => {
      const r = readiness.check();
      if (r) return reply.code(503).header('cache-control', 'no-store').send({ status: 'not_ready', ...r });
      return reply.header('cache-control', 'no-store').send({ status: 'ready' });
    });
  };
}

/**
 * GET /metrics on the main port, only when METRICS_TOKEN is set, behind `Authorization: Bearer <token>`
 * (401 `unauthorized`, nested, otherwise). Without the token the route does not exist (404).
 */
export function metricsRoute(metrics: ServiceMetrics, token: string) {
  const expected = crypto.createHash('sha256').update(token).digest();
  return (app: FastifyInstance) => {
    app.get('/metrics', async (req, reply) => {
      const h = req.headers.authorization;
      const given = typeof h === 'string' && h.startsWith('Bearer ') ? h.slice(7) : '';
      // compare digests of equal length in constant time
      if (!crypto.timingSafeEqual(crypto.createHash('sha256').update(given).digest(), expected)) {
        const e = new ApiError('unauthorized', 'Missing or invalid metrics token.');
        return reply.code(401).header('www-authenticate', authChallenge(req.url)).send(errorBody(e));
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  };
}

/**
 * The metrics listener of METRICS_HOST:METRICS_PORT (no auth: bind it to a private interface). A bare
 * node:http server: it answers GET /metrics and 404 to anything else.
 */
export async function startMetricsServer(metrics: ServiceMetrics, host: string, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  return {
    port: actual,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
