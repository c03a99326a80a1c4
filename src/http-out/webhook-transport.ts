/**
 * The I/O side of webhook delivery (partner-api.md, "Emission rules" rule 4): resolve the host once,
 * check every address, then connect only to the checked addresses.
 *
 * Why this is hand-written: the ready-made SSRF guards (request-filtering agents, ssrf-safe fetch
 * wrappers) either re-resolve DNS at connect time or rewrite the URL to the IP address, which breaks
 * the Host header, TLS SNI and certificate checks. None takes a list of addresses that were already
 * checked and pins the connection to them while keeping the hostname. An undici Agent whose
 * `connect.lookup` answers only with those addresses does exactly that: undici and Node still use the
 * URL's hostname for Host and SNI, and DNS is not read again between check and request.
 *
 * The parts: resolve-and-check.ts (resolve once, refuse any private address), pinned-lookup.ts (the
 * lookup that answers only with the checked addresses), pinned-post.ts (one POST over a pinned agent),
 * pinned-poster.ts (the keep-alive cache of pinned agents). This file puts them together behind the port.
 */
import { performance } from 'node:perf_hooks';
import type { TimedPostResult, WebhookTransport } from '../app/webhooks/transport.js';
import { createPinnedPoster } from './pinned-poster.js';
import { resolveAndCheck, type DnsOverrides } from './resolve-and-check.js';

export type { PinnedAddress, PostResult, Resolution } from '../app/webhooks/transport.js';
export type { DnsOverrides } from './resolve-and-check.js';

/**
 * The transport of webhook delivery (its port: src/app/webhooks/transport.ts): resolution checked against the allowed
 * subnets (and the sandbox's host table when there is one), posts over the keep-alive pinned poster.
 */
export function createWebhookTransport(opts: { allowSubnets: string[]; hosts?: DnsOverrides }): WebhookTransport {
  const poster = createPinnedPoster();
  return {
    resolve: (host, literalIp) => resolveAndCheck(host, literalIp, opts.allowSubnets, opts.hosts),
    // The duration is real elapsed time on a monotonic timer, not the service clock: the sandbox moves
    // that clock in jumps, and a request's duration is a measurement of the network, not a time of day.
    post: async (url, addresses, body, headers, timeoutMs): Promise<TimedPostResult> => {
      const started = performance.now();
      const r = await poster.post(url, addresses, body, headers, timeoutMs);
      return { ...r, durationMs: Math.round(performance.now() - started) };
    },
    close: () => poster.close(),
  };
}
