import type { FastifyInstance } from 'fastify';
import { authenticate } from '../../app/keys.js';
import type { Endpoint } from '../route.js';
import { accountEndpoints, accountRoutes } from './account-routes.js';
import type { PartnerContext } from './context.js';
import { ledgerEndpoints, ledgerRoutes } from './ledger-routes.js';
import { nftEndpoints, nftRoutes } from './nft-routes.js';
import { orderEndpoints, orderRoutes } from './order-routes.js';
import { reportEndpoints, reportRoutes } from './report-routes.js';
import { validationEndpoints, validationRoutes } from './validation-routes.js';
import { webhookLogEndpoints, webhookLogRoutes } from './webhook-log-routes.js';

export type { PartnerContext } from './context.js';

/** Every partner endpoint's documentation, in the order of the OpenAPI document. */
export const PARTNER_ENDPOINTS: Endpoint[] = [...accountEndpoints, ...validationEndpoints, ...orderEndpoints, ...nftEndpoints, ...ledgerEndpoints, ...reportEndpoints, ...webhookLogEndpoints];

/** The partner API, /api/partner/v1: authentication and the per-key limit run once for every route. */
export function partnerApi(ctx: PartnerContext) {
  const { deps, keys, limiter } = ctx;
  return async (app: FastifyInstance) => {
    // A callback hook rather than an async one: it runs on every partner request and does no I/O.
    app.addHook('onRequest', (req, reply, done) => {
      try {
        req.partner = authenticate(deps, keys, req.headers.authorization, req.ip, req.raw.socket);
        // the key's general budget on every answer, errors included (a 429 of this scope carries them in its error)
        limiter.hitWithHeaders('key', req.partner.keyId, reply);
      } catch (e) {
        done(e as Error);
        return;
      }
      done();
    });
    for (const group of [accountRoutes, validationRoutes, orderRoutes, nftRoutes, ledgerRoutes, reportRoutes, webhookLogRoutes]) group(app, ctx);
  };
}
