import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../app/deps.js';
import type { KeyCache } from '../app/keys.js';
import { adminRoutes } from './admin/routes.js';
import { installErrorHandling } from './errors.js';
import { registerOpenApi } from './openapi/routes.js';
import { partnerRoutes } from './partner/routes.js';
import type { RateLimiter } from './rate-limiter.js';

export interface HttpDeps {
  deps: Deps;
  keys: KeyCache;
  limiter: RateLimiter;
  adminToken: string | undefined;
  partnerExtra?: Parameters<typeof partnerRoutes>[0]['extra'];
  adminExtra?: ((app: FastifyInstance) => void)[];
  /** More route groups at their own prefixes (the Mini App's API and pages, the sandbox's pictures). */
  more?: { plugin: (app: FastifyInstance) => Promise<void>; prefix?: string }[];
  logger?: boolean | object;
  /** Marks the service as ready for /healthz. */
  ready: () => boolean;
  /** Operations: request hooks (metrics, request log), /readyz, /metrics (src/ops/); run before the API routes. */
  ops?: ((app: FastifyInstance) => void)[];
  /** Sees every request error first (src/store/storage-health.ts). */
  observeError?: (err: unknown) => void;
}

/** Builds the Fastify app; never listens (src/main.ts does, tests use inject or listen themselves). */
export async function buildHttpApp(h: HttpDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: h.logger ?? false,
    trustProxy: h.deps.config.TRUST_PROXY,
    bodyLimit: 64 * 1024,
    // Never echo internal error text: the error handler formats every failure.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  installErrorHandling(app, h.observeError);
  for (const install of h.ops ?? []) install(app);

  app.get('/healthz', async (_req, reply) => {
    if (!h.ready()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });

  await registerOpenApi(app, h.deps.config.publicBaseUrl);
  await app.register(partnerRoutes({ deps: h.deps, keys: h.keys, limiter: h.limiter, extra: h.partnerExtra }), { prefix: '/api/partner/v1' });
  await app.register(adminRoutes({ deps: h.deps, keys: h.keys, adminToken: h.adminToken, extra: h.adminExtra }), { prefix: '/api/admin/v1' });
  for (const m of h.more ?? []) await app.register(m.plugin, m.prefix ? { prefix: m.prefix } : {});
  return app;
}
