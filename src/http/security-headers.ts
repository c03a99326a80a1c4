import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Content-Security-Policy and Referrer-Policy of the pages the service serves to browsers: the Mini App
 * (/app/) and the interactive documentation (/docs). The API's JSON answers need neither.
 */

/** Telegram's web clients, which open the Mini App in a frame; the native apps use a web view. */
export const TELEGRAM_WEB_ORIGINS = ['https://web.telegram.org'] as const;

/**
 * The Mini App: its own scripts and styles only, API calls to its own origin, gift pictures from anywhere
 * over https (supplier images), framed only by itself and Telegram's web clients. Inline styles stay
 * allowed: Preact and the Telegram SDK set style attributes (theme colours); no inline script runs.
 */
export const MINI_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  `frame-ancestors 'self' ${TELEGRAM_WEB_ORIGINS.join(' ')}`,
].join('; ');

/** Sign-in links carry a one-time code in the URL: no page of the service tells another site where it was. */
export const REFERRER_POLICY = 'no-referrer';

/** onRequest hook of the Mini App's routes. */
export function miniAppHeaders(_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('content-security-policy', MINI_APP_CSP);
  reply.header('referrer-policy', REFERRER_POLICY);
  done();
}

/** onRequest hook of the documentation's routes. */
export function docsHeaders(_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('referrer-policy', REFERRER_POLICY);
  done();
}

/**
 * Swagger UI's own policy (@fastify/swagger-ui `staticCSP`: scripts by hash), adjusted: "Try it out" calls
 * the API at PUBLIC_BASE_URL (connect-src); styles allow inline (Swagger UI sets style attributes its hash
 * list does not cover, and a browser ignores 'unsafe-inline' beside hashes, so they are dropped); and
 * `upgrade-insecure-requests` is dropped for a service run over plain http (the sandbox on a LAN address),
 * where it would break every asset.
 */
export function docsCsp(publicBaseUrl: string): (header: string) => string {
  const https = publicBaseUrl.startsWith('https:');
  const api = new URL(publicBaseUrl).origin;
  return (header) => {
    const parts = header
      .split(';')
      .map((p) => p.trim())
      .filter((p) => p && (https || p !== 'upgrade-insecure-requests'))
      .map((p) => (p.startsWith('style-src') ? "style-src 'self' 'unsafe-inline'" : p));
    if (!parts.some((p) => p.startsWith('connect-src'))) parts.push(`connect-src 'self' ${api}`);
    if (!parts.some((p) => p.startsWith('object-src'))) parts.push("object-src 'none'");
    return parts.join('; ');
  };
}
