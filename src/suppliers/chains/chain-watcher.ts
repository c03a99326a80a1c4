import { request } from 'undici';

export type { ObservedTransfer } from '../../domain/deposit-matching.js';

export type { ChainWatcher } from '../types.js';

export class ChainApiError extends Error {}

/** JSON over plain HTTP (undici). Non-2xx answers, timeouts and bodies that are not JSON throw ChainApiError. */
export async function httpJson(
  url: string,
  opts: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<any> {
  const method = opts.method ?? 'GET';
  // Only the origin reaches error messages and logs: RPC providers put API keys in the path or the query.
  const shown = urlOrigin(url);
  let res;
  try {
    res = await request(url, {
      method,
      headers: { accept: 'application/json', ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      headersTimeout: opts.timeoutMs ?? 15_000,
      bodyTimeout: opts.timeoutMs ?? 15_000,
    });
  } catch (e) {
    throw new ChainApiError(`${method} ${shown}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode >= 300) throw new ChainApiError(`${method} ${shown}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ChainApiError(`${method} ${shown}: the answer is not JSON`);
  }
}

/** `https://host:port` of a URL, without credentials, path or query (those may carry an API key). */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

export function joinUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  const u = new URL(base.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}

/**
 * A time cursor for APIs listed by time (toncenter, TronGrid): the latest time read, the earliest time
 * ever to be read (`floor`: a first start does not read the past), and the keys already read within the
 * overlap window. Each poll re-reads from `t - overlap`, so a transfer indexed a little late is still
 * seen, and skips the keys already read, so nothing is reported twice.
 */
export interface TimeCursor {
  t: number;
  floor: number;
  seen: Record<string, number>;
}

export class CursorWalk {
  private t: number;
  private readonly seenKeys: Record<string, number>;

  constructor(
    private readonly cursor: TimeCursor,
    private readonly overlap: number,
  ) {
    this.t = cursor.t;
    this.seenKeys = { ...cursor.seen };
  }

  /** Where the listing starts this time. */
  get start(): number {
    return Math.max(this.cursor.floor, this.cursor.t - this.overlap);
  }

  seen(key: string): boolean {
    return key in this.seenKeys;
  }

  /** Too old to report (before the first start). */
  beforeFloor(time: number): boolean {
    return time < this.cursor.floor;
  }

  accept(key: string, time: number): void {
    this.seenKeys[key] = time;
    if (time > this.t) this.t = time;
  }

  finish(): TimeCursor {
    const seen: Record<string, number> = {};
    for (const [k, time] of Object.entries(this.seenKeys)) if (time >= this.t - this.overlap) seen[k] = time;
    return { t: this.t, floor: this.cursor.floor, seen };
  }
}

/** Counts how often a transaction id has occurred in one listing: the 2nd transfer of one tx gets `id:2`. */
export class OccurrenceKeys {
  private readonly counts = new Map<string, number>();
  key(id: string): string {
    const n = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, n);
    return n === 1 ? id : `${id}:${n}`;
  }
}
