import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { identify } from './auth.js';
import { orderingRoutes } from './ordering-routes.js';
import { operatorRoutes } from './operator-routes.js';
import { ownerRoutes } from './owner-routes.js';
import { EXPORT_LINK_PATH, sessionRoutes, PUBLIC_PATHS } from './session-routes.js';

import type { AppApiDeps } from './context.js';

export type { AppApiDeps } from './context.js';

/**
 * The Mini App's API, /api/app/v1 (README "The Mini App"): every route but sign-in authenticates the
 * Telegram user and counts against their `app_user` rate limit; routes map the user to their partner and
 * role as the bot does, and call the application services the bot and the partner API call.
 */
export function appApi(ctx: AppApiDeps) {
  return async (app: FastifyInstance) => {
    await app.register(cookie);
    app.addHook('onRequest', (req, _reply, done) => {
      try {
        const path = req.url.split('?')[0];
        if (PUBLIC_PATHS.has(path) || path.startsWith(EXPORT_LINK_PATH)) ctx.limiter.hit('app_user', `ip:${req.ip}`);
        else {
          req.appCaller = identify(ctx.deps, req);
          ctx.limiter.hit('app_user', req.appCaller.telegramUserId);
        }
      } catch (e) {
        done(e as Error);
        return;
      }
      done();
    });
    sessionRoutes(app, ctx);
    orderingRoutes(app, ctx);
    ownerRoutes(app, ctx);
    operatorRoutes(app, ctx);
  };
}
