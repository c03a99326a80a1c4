import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appSession, endSession, previewSignIn, redeemSignIn } from '../../app/app-access.js';
import type { Deps } from '../../app/deps.js';
import { SESSION_TTL_MS } from '../../app/app-access.js';
import { callerOf, COOKIE_PATH, requireSameOrigin, SESSION_COOKIE } from './auth.js';
import { objectBody } from '../../app/requests/parse.js';
import type { AppApiDeps } from './context.js';
import type { SessionAnswer } from './types.js';

export const PUBLIC_PATHS = new Set([`${COOKIE_PATH}/sign-in`, `${COOKIE_PATH}/sign-in/preview`]);
/** Export links (src/app/operator/export-links.ts): the token in the path is the credential. */
export const EXPORT_LINK_PATH = `${COOKIE_PATH}/exports/`;

function sessionView(deps: Pick<Deps, 'db' | 'config'>, req: FastifyRequest): SessionAnswer {
  return appSession(deps, callerOf(req));
}

function secure(deps: Pick<Deps, 'config'>, req: FastifyRequest): boolean {
  return req.protocol === 'https' || deps.config.publicBaseUrl.startsWith('https:');
}

function setSessionCookie(deps: Pick<Deps, 'config'>, req: FastifyRequest, reply: FastifyReply, value: string, maxAgeSec: number): void {
  reply.setCookie(SESSION_COOKIE, value, { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure: secure(deps, req), maxAge: maxAgeSec });
}

/**
 * GET /session; POST /sign-in/preview (whom a link signs in as, not spending it); POST /sign-in (a one-time
 * link from the bot → the session cookie, 12 h); POST /sign-out.
 */
export function sessionRoutes(app: FastifyInstance, { deps }: AppApiDeps): void {
  app.get('/session', async (req) => sessionView(deps, req));

  // whom a link signs in as, before it is spent (the page asks "Sign in as <name>?")
  app.post('/sign-in/preview', async (req) => {
    requireSameOrigin(deps, req);
    const v = previewSignIn(deps, objectBody(req).token);
    return { user: { telegram_id: v.telegramUserId, name: v.displayName }, partner: v.partnerName === null ? null : { name: v.partnerName } };
  });

  app.post('/sign-in', async (req, reply) => {
    // No cookie yet, but a sign-in must still come from this service's page (login cross-site forgery).
    requireSameOrigin(deps, req);
    const s = redeemSignIn(deps, objectBody(req).token);
    setSessionCookie(deps, req, reply, s.session, SESSION_TTL_MS / 1000);
    req.appCaller = { telegramUserId: s.telegramUserId, via: 'cookie' };
    return sessionView(deps, req);
  });

  app.post('/sign-out', async (req, reply) => {
    const c = req.cookies[SESSION_COOKIE];
    if (c) endSession(deps, c);
    setSessionCookie(deps, req, reply, '', 0);
    return { ok: true };
  });
}
