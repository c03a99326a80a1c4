import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, type KeyCache } from '../../app/keys.js';
import { account, products } from '../../app/catalog.js';
import type { Deps } from '../../app/deps.js';
import { createOrder } from '../../app/orders/create.js';
import { listOwnOrders, readOwnOrder } from '../../app/orders/query.js';
import { validateGame, validateRecipient } from '../../app/recipients.js';
import { sendJson } from '../frozen-json.js';
import { rateLimitHeaders, type RateLimiter } from '../rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    partner?: { partnerId: number; keyId: string };
  }
}

export interface PartnerRouteDeps {
  deps: Deps;
  keys: KeyCache;
  limiter: RateLimiter;
  /** Extra route groups (NFT catalog) registered inside the authenticated scope. */
  extra?: ((app: FastifyInstance, ctx: PartnerRouteDeps) => void)[];
}

export function partnerOf(req: FastifyRequest): number {
  return req.partner!.partnerId;
}

/** Aborted when the client goes away before its answer is sent (a long wait then gives up its slot). */
export function clientGone(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

/** The partner API, /api/partner/v1: authentication and the per-key limit run once for every route. */
export function partnerRoutes(ctx: PartnerRouteDeps) {
  const { deps, keys, limiter } = ctx;
  return async (app: FastifyInstance) => {
    // A callback hook rather than an async one: it runs on every partner request and does no I/O.
    app.addHook('onRequest', (req, reply, done) => {
      try {
        req.partner = authenticate(deps, keys, req.headers.authorization, req.ip);
        // the key's general budget on every answer, errors included (a 429 of this scope carries them in its error)
        reply.headers(rateLimitHeaders(limiter.hit('key', req.partner.keyId, true)));
      } catch (e) {
        done(e as Error);
        return;
      }
      done();
    });

    app.get('/me', async (req) => account(deps, partnerOf(req)));
    app.get('/products', async () => products(deps));

    app.post('/validate/recipient', async (req) => {
      limiter.hit('validate_recipient', req.partner!.keyId);
      return validateRecipient(deps, req.body);
    });
    app.post('/validate/game', async (req) => {
      limiter.hit('validate_recipient', req.partner!.keyId);
      return validateGame(deps, req.body);
    });

    app.post('/orders', async (req, reply) => {
      const body = req.body as Record<string, unknown> | null;
      if (body && typeof body === 'object' && body.type === 'nft') limiter.hit('nft_orders', partnerOf(req));
      const r = await createOrder(deps, partnerOf(req), body);
      return sendJson(reply, r.order);
    });
    app.get('/orders', async (req, reply) => sendJson(reply, listOwnOrders(deps, partnerOf(req), req.query as Record<string, unknown>)));
    app.get<{ Params: { order_id: string } }>('/orders/:order_id', async (req, reply) =>
      sendJson(reply, await readOwnOrder(deps, req.partner!, req.params.order_id, req.query as Record<string, unknown>, () => clientGone(reply))),
    );

    for (const register of ctx.extra ?? []) register(app, ctx);
  };
}
