import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { PinnedAddress, PostResult } from '../app/webhooks/transport.js';
import { errorText } from './error-text.js';
import { stripBrackets } from './host.js';
import { pinnedLookup } from './pinned-lookup.js';

/**
 * A POST connected only to addresses checked beforehand: the pinned undici Agent, the one-shot post
 * (`postPinned`) and the pieces the keep-alive poster shares with it.
 */

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
