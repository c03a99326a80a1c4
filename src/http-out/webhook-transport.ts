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
 * Here: resolve once and refuse any private address (resolveAndCheck), and the transport behind the port.
 * ./pinned-post.ts: the lookup that answers only with the checked addresses, one POST over a pinned agent,
 * the keep-alive cache of pinned agents.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { addressRefusal } from '../domain/address-policy.js';
import type { PinnedAddress, Resolution, TimedPostResult, WebhookTransport } from '../app/webhooks/transport.js';
import { createPinnedPoster, errorText, stripBrackets } from './pinned-post.js';

/** Sandbox host table (`PUT /sandbox/dns/{hostname}`), consulted before real DNS. */
export interface DnsOverrides {
  lookup(hostname: string): string[] | undefined;
}

const DEFAULT_DNS_TIMEOUT_MS = 5_000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: 'ETIMEOUT' })), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Resolves `host` and checks every address. A literal IP is checked directly (a custom lookup is never
 * called for literals). Otherwise the sandbox table first, then `dns.lookup(host, {all: true})`.
 * Any refused address makes the whole answer `private`: a host must not be able to smuggle a private
 * address next to a public one.
 */
export async function resolveAndCheck(
  host: string,
  literalIp: string | null,
  allowSubnets: string[],
  overrides: DnsOverrides | undefined,
  opts: { dnsTimeoutMs?: number } = {},
): Promise<Resolution> {
  const name = stripBrackets(host).toLowerCase();
  const literal = literalIp !== null ? stripBrackets(literalIp) : isIP(name) ? name : null;
  if (literal !== null) {
    const family = isIP(literal);
    const refusal = addressRefusal(literal, allowSubnets);
    if (refusal !== null || (family !== 4 && family !== 6)) {
      return { ok: false, kind: 'private', detail: `address ${literal} is not allowed (${refusal ?? 'not an IP'})` };
    }
    return { ok: true, addresses: [{ address: literal, family }] };
  }

  let found: { address: string; family: number }[];
  const bare = name.replace(/\.+$/, '');
  const fromTable = overrides?.lookup(name) ?? (bare !== name ? overrides?.lookup(bare) : undefined);
  if (fromTable !== undefined) {
    found = fromTable.map((address) => ({ address, family: isIP(stripBrackets(address)) }));
    const invalid = found.find((a) => a.family === 0);
    if (invalid) return { ok: false, kind: 'dns_failure', detail: `${name}: host table entry "${invalid.address}" is not an IP address` };
    found = found.map((a) => ({ ...a, address: stripBrackets(a.address) }));
  } else {
    try {
      found = await withTimeout(dns.lookup(name, { all: true }), opts.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS, `lookup of ${name}`);
    } catch (err) {
      return { ok: false, kind: 'dns_failure', detail: `${name}: ${errorText(err)}` };
    }
  }
  if (found.length === 0) return { ok: false, kind: 'dns_failure', detail: `${name}: no addresses` };

  const addresses: PinnedAddress[] = [];
  const seen = new Set<string>();
  for (const a of found) {
    const refusal = addressRefusal(a.address, allowSubnets);
    if (refusal !== null) {
      return { ok: false, kind: 'private', detail: `${name} resolves to ${a.address}, which is not allowed (${refusal})` };
    }
    if (seen.has(a.address)) continue;
    seen.add(a.address);
    addresses.push({ address: a.address, family: a.family === 6 ? 6 : 4 });
  }
  return { ok: true, addresses };
}

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
