import { initData } from './tg';

/** The Mini App API (/api/app/v1): initData in the header inside Telegram, the session cookie outside. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: Record<string, unknown>,
  ) {
    super(detail);
  }
}

const BASE = '/api/app/v1';

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const data = initData();
  if (data) headers.authorization = `tma ${data}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'network', {});
  }
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    // both error formats of the contract: nested {detail: {code, detail}} or flat {code, detail}
    const e = json && typeof json.detail === 'object' && json.detail ? json.detail : json ?? {};
    throw new ApiError(res.status, String(e.code ?? 'http_' + res.status), String(e.detail ?? res.statusText), e);
  }
  return json as T;
}

/** One idempotency key per confirmation screen: a double tap or a retry sends the same key. */
export function newKey(): string {
  const a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Reads the first screen needs, started at boot together with the session check (one round trip instead
 * of two before the balances show); each is used once, later reads go to the server.
 */
const early = new Map<string, Promise<any>>();
export function prefetch(paths: string[]): void {
  for (const p of paths) {
    const r = api('GET', p);
    r.catch(() => {});
    early.set(p, r);
  }
}
export function getOnce<T = any>(path: string): Promise<T> {
  const r = early.get(path);
  early.delete(path);
  return r ?? api<T>('GET', path);
}
