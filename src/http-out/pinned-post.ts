import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { PinnedAddress, PostResult } from '../app/webhooks/transport.js';

/**
 * A POST connected only to addresses checked beforehand (./webhook-transport.ts checks them): the lookup
 * that answers only with those addresses, the pinned undici Agent, the one-shot post (`postPinned`) and
 * the keep-alive cache of pinned agents (`createPinnedPoster`).
 */

// --- host names as URLs and DNS tables write them: an IPv6 literal in brackets, a trailing root dot ------

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** A hostname as compared by the pinned lookup: no brackets, lower case, no trailing dot. */
export function normaliseHostname(h: string): string {
  return stripBrackets(h).toLowerCase().replace(/\.+$/, '');
}

/** One line for a network error: its code and message, and each of an AggregateError's parts (happy eyeballs). */
export function errorText(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) {
    return err.errors.map(errorText).join('; ');
  }
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

// --- the lookup that answers only with the checked addresses ----------------------------------------

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

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

// --- one POST over a pinned agent ----------------------------------------------------------------------

interface AgentTuning {
  connectTimeoutMs: number;
  keepAliveTimeoutMs?: number;
  connections?: number | null;
}

export function pinnedAgent(hostname: string, addresses: readonly PinnedAddress[], tuning: AgentTuning): Agent {
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
export async function postVia(
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

export function checkArgs(url: string, addresses: readonly PinnedAddress[]): { origin: string; hostname: string } | string {
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

// --- the keep-alive cache of pinned agents ---------------------------------------------------------------

/** A keep-alive cache of pinned agents for throughput: one undici Agent per (origin, checked address set). */
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
