import type { FastifyRequest } from 'fastify';
import { callerFromInitData, callerFromSession, linkOf, type AppCaller } from '../../app/app-access.js';
import type { BotLink } from '../../app/bot-users.js';
import type { Deps } from '../../app/deps.js';
import { fail } from '../../domain/errors.js';

/** Authentication of /api/app/v1: `Authorization: tma <initData>` or the session cookie. */

export const SESSION_COOKIE = 'app_session';
export const COOKIE_PATH = '/api/app/v1';

declare module 'fastify' {
  interface FastifyRequest {
    appCaller?: AppCaller;
    appLink?: BotLink;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request that authenticates with the cookie must come from this service's own pages:
 * the cookie is SameSite=Strict already; on top of that the browser's Origin (always sent with a
 * cross-origin or non-GET fetch) must be PUBLIC_BASE_URL's, and Sec-Fetch-Site, when sent, `same-origin`.
 * initData in a header needs no such check (a cross-site page cannot set the header).
 */
export function requireSameOrigin(deps: Pick<Deps, 'config'>, req: FastifyRequest): void {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') fail('forbidden', 'Cross-site request refused.');
  const origin = req.headers.origin;
  // PUBLIC_BASE_URL only: the request's own Host (or X-Forwarded-Host) is written by the client and proves nothing
  if (typeof origin !== 'string' || origin !== new URL(deps.config.publicBaseUrl).origin) fail('forbidden', 'Cross-site request refused: the Origin is not this service.');
}

export function identify(deps: Pick<Deps, 'db' | 'clock' | 'config'>, req: FastifyRequest): AppCaller {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.length > 0) {
    const m = /^tma\s+(\S+)\s*$/i.exec(auth);
    if (!m) fail('unauthorized', 'Use Authorization: tma <initData>.');
    return callerFromInitData(deps, m[1]);
  }
  const cookie = req.cookies?.[SESSION_COOKIE];
  if (!cookie) fail('unauthorized', 'Open the app from Telegram, or sign in with a link from the bot (/app).');
  const caller = callerFromSession(deps, cookie);
  if (!SAFE_METHODS.has(req.method)) requireSameOrigin(deps, req);
  return caller;
}

export function callerOf(req: FastifyRequest): AppCaller {
  return req.appCaller!;
}

export function linkOfReq(deps: Pick<Deps, 'db'>, req: FastifyRequest): BotLink {
  if (!req.appLink) req.appLink = linkOf(deps, callerOf(req));
  return req.appLink;
}
