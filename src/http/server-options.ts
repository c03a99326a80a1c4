import type { ServerOptions } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

/**
 * Trust of `X-Forwarded-For` for `TRUST_PROXY=N`: the socket peer and the N-1 entries before it are our
 * proxies, so the caller (req.ip) is the N-th entry from the end; whatever the client wrote to the left
 * is never taken. proxy-addr (through Fastify) walks the header with this hop predicate. Fastify's own
 * numeric `trustProxy` is not used: since 5.x it fails closed and ignores the header entirely.
 */
export function trustProxyHops(hops: number): FastifyServerOptions['trustProxy'] {
  if (hops <= 0) return false;
  return (_address: string, hop: number) => hop < hops;
}

/** How long an idle keep-alive connection is kept open between requests. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * Slow clients: a request whose headers and body have not arrived in full within `requestTimeoutSeconds`
 * is answered 408 and its connection closed (Node's requestTimeout/headersTimeout), idle keep-alive
 * connections close after KEEP_ALIVE_TIMEOUT_MS. Node checks the deadlines on a timer; its default period
 * (30 s) would let a request live up to twice the limit, so the period is a small share of it.
 */
export function slowClientOptions(requestTimeoutSeconds: number): { requestTimeout: number; keepAliveTimeout: number; http: ServerOptions } {
  const requestTimeout = requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    keepAliveTimeout: Math.min(KEEP_ALIVE_TIMEOUT_MS, requestTimeout),
    http: {
      requestTimeout,
      headersTimeout: requestTimeout,
      keepAliveTimeout: Math.min(KEEP_ALIVE_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: Math.min(5_000, Math.max(250, Math.floor(requestTimeout / 4))),
    },
  };
}
