import type { Agent } from 'undici';
import type { PinnedAddress, PostResult } from '../app/webhooks/transport.js';
import { checkArgs, pinnedAgent, postVia } from './pinned-post.js';

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
