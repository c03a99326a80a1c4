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
 */
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { addressRefusal } from '../domain/address-policy.js';
import type { PinnedAddress, PostResult, Resolution, TimedPostResult, WebhookTransport } from '../app/webhooks/transport.js';

/** Sandbox host table (`PUT /sandbox/dns/{hostname}`), consulted before real DNS. */
export interface DnsOverrides {
  lookup(hostname: string): string[] | undefined;
}

export type { PinnedAddress, PostResult, Resolution } from '../app/webhooks/transport.js';

const DEFAULT_DNS_TIMEOUT_MS = 5_000;

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function errorText(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) {
    return err.errors.map(errorText).join('; ');
  }
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

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

// ---------------------------------------------------------------------------------------------------
// Pinned connections
// ---------------------------------------------------------------------------------------------------

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function normaliseHostname(h: string): string {
  return stripBrackets(h).toLowerCase().replace(/\.+$/, '');
}

/**
 * A `lookup` for net/tls.connect that answers only with the given addresses, and only for `hostname`.
 * Supports the `{all: true}` form (Node 20 happy eyeballs) and the single-address form.
 */
export function pinnedLookup(hostname: string, addresses: readonly PinnedAddress[]) {
  const expected = normaliseHostname(hostname);
  return function lookup(host: string, options: LookupOptions | number | LookupCallback, callback?: LookupCallback): void {
    let cb = callback;
    let opts: LookupOptions = {};
    if (typeof options === 'function') cb = options;
    else if (typeof options === 'number') opts = { family: options };
    else if (options) opts = options;
    if (!cb) throw new TypeError('lookup: callback required');

    const fail = (message: string) => {
      const err: NodeJS.ErrnoException = Object.assign(new Error(message), { code: 'ENOTFOUND', hostname: host });
      process.nextTick(cb!, err, opts.all ? [] : '', 0);
    };
    if (normaliseHostname(host) !== expected) {
      fail(`pinned lookup for ${expected} refused to resolve ${host}`);
      return;
    }
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : opts.family;
    const list = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
    if (list.length === 0) {
      fail(`no pinned address of family ${String(family)} for ${host}`);
      return;
    }
    if (opts.all) {
      process.nextTick(cb, null, list.map((a) => ({ address: a.address, family: a.family })));
    } else {
      process.nextTick(cb, null, list[0].address, list[0].family);
    }
  };
}

interface AgentTuning {
  connectTimeoutMs: number;
  keepAliveTimeoutMs?: number;
  connections?: number | null;
}

function pinnedAgent(hostname: string, addresses: readonly PinnedAddress[], tuning: AgentTuning): Agent {
  return new Agent({
    connect: {
      lookup: pinnedLookup(hostname, addresses),
      timeout: tuning.connectTimeoutMs,
    },
    keepAliveTimeout: tuning.keepAliveTimeoutMs ?? 4_000,
    connections: tuning.connections ?? null,
    pipelining: 1,
    // no redirect interceptor: a 3xx is returned as a status like any other
  });
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function buildHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  let hasType = false;
  for (const [k, v] of Object.entries(headers)) {
    const lower = k.toLowerCase();
    if (lower === 'host' || lower === 'content-length') continue; // Host comes from the URL, length from the body
    if (lower === 'content-type') hasType = true;
    out[k] = v;
  }
  if (!hasType) out['content-type'] = 'application/json';
  return out;
}

/**
 * One POST through `agent`. `bodyMode`: 'destroy' drops the connection with the response body unread
 * (one-shot agents), 'drain' discards up to 64 KiB so the keep-alive socket can be reused.
 */
async function postVia(
  agent: Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  bodyMode: 'destroy' | 'drain',
): Promise<PostResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      body: Buffer.from(body, 'utf8'),
      headers: buildHeaders(headers),
      signal: controller.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    if (bodyMode === 'drain') {
      // Discarded, never parsed. Awaited (bounded by the size limit and the same deadline) so that the
      // socket is free for the next post; a bigger or slower body just costs the connection.
      await res.body.dump({ limit: 64 * 1024, signal: controller.signal }).catch(() => undefined);
    } else {
      res.body.on('error', () => undefined);
      res.body.destroy();
    }
    return { kind: 'response', status: res.statusCode };
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (timedOut || (typeof code === 'string' && TIMEOUT_CODES.has(code))) return { kind: 'timeout' };
    return { kind: 'error', detail: errorText(err) };
  } finally {
    clearTimeout(timer);
  }
}

function checkArgs(url: string, addresses: readonly PinnedAddress[]): { origin: string; hostname: string } | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `invalid URL: ${url}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `unsupported scheme ${u.protocol}`;
  if (addresses.length === 0) return 'no checked addresses to connect to';
  const host = stripBrackets(u.hostname);
  // For a literal the custom lookup is never called, so the literal must be the checked address itself.
  if (isIP(host) && !addresses.some((a) => a.address === host)) {
    return `literal address ${host} is not among the checked addresses`;
  }
  return { origin: u.origin, hostname: u.hostname };
}

/**
 * One-shot POST to `url`, connecting only to `addresses` (already checked by resolveAndCheck).
 * Redirects are not followed; the response body is not read; `timeoutMs` covers connect + headers.
 */
export async function postPinned(
  url: string,
  addresses: PinnedAddress[],
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostResult> {
  const target = checkArgs(url, addresses);
  if (typeof target === 'string') return { kind: 'error', detail: target };
  const agent = pinnedAgent(target.hostname, addresses, { connectTimeoutMs: timeoutMs });
  try {
    return await postVia(agent, url, body, headers, timeoutMs, 'destroy');
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------
// Keep-alive cache for throughput: one Agent per (origin, checked address set)
// ---------------------------------------------------------------------------------------------------

export interface PinnedPoster {
  post(
    url: string,
    addresses: PinnedAddress[],
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<PostResult>;
  /** Closes every cached agent (waits for requests in flight). Later posts answer `error`. */
  close(): Promise<void>;
  /** Number of cached agents (for tests and metrics). */
  readonly size: number;
}

export interface PinnedPosterOptions {
  /** close an agent unused for this long (default 30 s) */
  idleMs?: number;
  /** at most this many agents; the least recently used idle ones are closed first (default 256) */
  maxAgents?: number;
  /** idle keep-alive socket lifetime inside an agent (default 4 s) */
  keepAliveTimeoutMs?: number;
  /** connect timeout of a new socket (default 10 s; the per-call timeout still bounds every post) */
  connectTimeoutMs?: number;
  /**
   * Sockets per agent (default unlimited). A cap makes posts queue behind slow receivers, and time spent
   * queueing counts against the per-call timeout, so keep it generous.
   */
  connectionsPerOrigin?: number | null;
}

interface CachedAgent {
  agent: Agent;
  lastUsed: number;
  inFlight: number;
}

/**
 * Agents are keyed by origin plus the sorted address list, so a host whose checked addresses change gets
 * a fresh agent (the old one is closed when idle): a reused connection always goes to a checked address.
 */
export function createPinnedPoster(options: PinnedPosterOptions = {}): PinnedPoster {
  const idleMs = options.idleMs ?? 30_000;
  const maxAgents = options.maxAgents ?? 256;
  const agents = new Map<string, CachedAgent>(); // insertion order = least recently used first
  let closed = false;

  const retire = (key: string, entry: CachedAgent) => {
    agents.delete(key);
    entry.agent.close().catch(() => undefined);
  };

  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of agents) {
      if (entry.inFlight === 0 && now - entry.lastUsed >= idleMs) retire(key, entry);
    }
  }, Math.max(250, Math.min(idleMs, 10_000)));
  sweeper.unref();

  return {
    get size() {
      return agents.size;
    },

    async post(url, addresses, body, headers, timeoutMs) {
      if (closed) return { kind: 'error', detail: 'poster is closed' };
      const target = checkArgs(url, addresses);
      if (typeof target === 'string') return { kind: 'error', detail: target };
      const key = `${target.origin}|${addresses
        .map((a) => `${a.family}/${a.address}`)
        .sort()
        .join(',')}`;

      let entry = agents.get(key);
      if (entry) {
        agents.delete(key); // move to the most recently used end
      } else {
        entry = {
          agent: pinnedAgent(target.hostname, addresses, {
            connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
            keepAliveTimeoutMs: options.keepAliveTimeoutMs,
            connections: options.connectionsPerOrigin,
          }),
          lastUsed: Date.now(),
          inFlight: 0,
        };
      }
      agents.set(key, entry);
      if (agents.size > maxAgents) {
        for (const [k, e] of agents) {
          if (agents.size <= maxAgents) break;
          if (e !== entry && e.inFlight === 0) retire(k, e);
        }
      }

      entry.inFlight++;
      try {
        return await postVia(entry.agent, url, body, headers, timeoutMs, 'drain');
      } finally {
        entry.inFlight--;
        entry.lastUsed = Date.now();
      }
    },

    async close() {
      closed = true;
      clearInterval(sweeper);
      const all = [...agents.values()];
      agents.clear();
      await Promise.all(all.map((e) => e.agent.close().catch(() => e.agent.destroy().catch(() => undefined))));
    },
  };
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
