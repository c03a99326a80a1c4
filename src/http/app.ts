import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../app/deps.js';
import type { KeyCache } from '../app/keys.js';
import type { GiftCatalog } from '../app/nft/gift-catalog.js';
import type { DeliverySender } from '../app/webhooks/sender.js';
import type { PayingWallet, SupplierFundsReader } from '../app/operator/supplier-funds.js';
import type { SandboxControl } from '../app/sandbox-control.js';
import { adminApi } from './admin/index.js';
import { sandboxPictureRoutes, type AdvanceClock } from './admin/sandbox-routes.js';
import type { BotWebhook } from '../app/bot-webhook.js';
import { appApi } from './app-api/index.js';
import { frameworkErrors, installErrorHandling, OPERATOR_API_PREFIX } from './errors.js';
import { installJsonBodyParser } from './json-body.js';
import { registerOpenApi } from './openapi/routes.js';
import { partnerApi } from './partner/index.js';
import { authChallenge, installResponseHeaders, requestIdFor } from './request-id.js';
import type { RateLimiter } from './rate-limiter.js';
import { slowClientOptions, trustProxyHops } from './server-options.js';
import { webappRoutes } from './webapp.js';

export interface HttpDeps {
  deps: Deps;
  keys: KeyCache;
  limiter: RateLimiter;
  /** The gift catalog and its cache, shared with the bot. */
  catalog: GiftCatalog;
  /** Sends a webhook now (redelivery, the test event): the webhook dispatcher. */
  sender: DeliverySender;
  adminToken: string | undefined;
  /** The sandbox market: gift pictures in every mode (gifts stay on it), its operator routes with UPSTREAM=sandbox. */
  sandbox: SandboxControl;
  /** The sandbox clock: moves it forward and runs the jobs that fall due (the scheduler's). */
  advanceClock: AdvanceClock;
  /** The wallet that pays for Stars and Premium when UPSTREAM=fragment: its operator routes. */
  payingWallet: PayingWallet | null;
  /** What the supplier accounts hold (the console's overview). */
  supplierFunds: SupplierFundsReader;
  /** Marks the service as ready for /healthz. */
  ready: () => boolean;
  /** Operations: request hooks (metrics, request log), /readyz, /metrics (src/ops/); run before the API routes. */
  ops?: ((app: FastifyInstance) => void)[];
  /** Sees every request error first (src/store/storage-health.ts, and the log of unexpected errors with their request id). */
  observeError?: (err: unknown, reqId: string) => void;
  /** Hooks added before any route (the tests check every answer against the OpenAPI document with one). */
  instrument?: (app: FastifyInstance) => void;
  /** The bot's webhook door when TELEGRAM_WEBHOOK_URL is set (src/app/bot-webhook.ts): served at its path. */
  botWebhook?: BotWebhook | null;
}

/**
 * Builds the Fastify app with every route group; never listens (src/main.ts does, tests use inject or
 * listen themselves).
 */
export async function buildHttpApp(h: HttpDeps): Promise<FastifyInstance> {
  const { deps, keys, limiter, catalog } = h;
  const app = Fastify({
    logger: false,
    // the request id: a sane incoming X-Request-Id, else a fresh one (src/http/request-id.ts)
    requestIdHeader: false,
    genReqId: (req) => requestIdFor(req.headers['x-request-id'], deps.ids),
    trustProxy: trustProxyHops(deps.config.TRUST_PROXY),
    ...slowClientOptions(deps.config.HTTP_REQUEST_TIMEOUT_SECONDS),
    bodyLimit: 64 * 1024,
    // Never echo internal error text: the error handler formats every failure.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // No length limit of the router's own (its default, 100, answers Fastify's 414 body before authentication):
    // each route judges its ids after the key is checked. The request line is bounded by Node's header limit.
    routerOptions: { maxParamLength: 65_536 },
    frameworkErrors: frameworkErrors(limiter),
  });
  installResponseHeaders(app);
  installErrorHandling(app, { observe: h.observeError, limiter });
  installJsonBodyParser(app);
  h.instrument?.(app);
  for (const install of h.ops ?? []) install(app);

  app.get('/healthz', async (_req, reply) => {
    if (!h.ready()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });

  await registerOpenApi(app, deps.config.publicBaseUrl);
  await app.register(partnerApi({ deps, keys, limiter, catalog, sender: h.sender }), { prefix: '/api/partner/v1' });
  await app.register(adminApi({ deps, keys, adminToken: h.adminToken, advanceClock: h.advanceClock, sandbox: h.sandbox, payingWallet: h.payingWallet }), { prefix: OPERATOR_API_PREFIX });
  await app.register(appApi({ deps, keys, limiter, catalog, sender: h.sender, supplierFunds: h.supplierFunds }), { prefix: '/api/app/v1' });
  await app.register(webappRoutes());
  await app.register(sandboxPictureRoutes(h.sandbox));
  if (h.botWebhook) botWebhookRoute(app, h.botWebhook);
  return app;
}

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** POST at the bot's webhook path: the secret checked, then the update handed to the bot. */
function botWebhookRoute(app: FastifyInstance, hook: BotWebhook): void {
  app.post(hook.path, async (req, reply) => {
    const secret = req.headers[SECRET_HEADER];
    // no detail: a caller without the secret learns nothing
    if (!hook.authentic(secret)) return reply.code(401).header('www-authenticate', authChallenge(req.url)).send();
    const handled = hook.handle(req.body, (json) => reply.type('application/json').send(json), secret);
    // Telegram retries later: the bot is starting or stopping
    if (!handled) return reply.code(503).send();
    await handled;
    // handled without a webhook reply: an empty answer
    if (!reply.sent) reply.send('');
    return reply;
  });
}
