import { Long, tl } from '@mtcute/core';
import { deserializeObject, serializeObject } from '@mtcute/core/utils.js';
import type { TlCaller } from '../../src/suppliers/telegram-gifts/mtcute-gateway.js';

/**
 * The wire between the service's MTProto gateway (src/suppliers/telegram-gifts/mtcute-gateway.ts) and the
 * out-of-process fake Telegram (tl-fake-telegram.ts), for tests: one HTTP POST per RPC. The request goes as
 * the bytes of mtcute's TL writer (so a request the current layer cannot encode fails in the service) and as
 * JSON (mtcute's reader has no readers for requests, so the fake re-encodes the JSON and compares the
 * bytes); the answer comes back as TL bytes that the service reads with mtcute's reader, or an RPC error.
 */

/** JSON with mtcute's 64-bit Long values kept exact. */
export const tlJson = {
  stringify(o: unknown): string {
    return JSON.stringify(o, (_k, v: unknown) => (Long.isLong(v) ? { $long: (v as Long).toString() } : v));
  },
  parse(s: string): unknown {
    return JSON.parse(s, (_k, v: unknown) => (v && typeof v === 'object' && '$long' in v ? Long.fromString(String((v as { $long: string }).$long)) : v));
  },
};

export interface WireRequest {
  json: string;
  bytes: string;
}

/** TlCaller over HTTP to the fake: what the service's gift gateway calls in the crash tests. */
export class HttpTlCaller implements TlCaller {
  constructor(private readonly url: string) {}

  async call<T extends tl.RpcMethod>(message: T): Promise<tl.RpcCallReturn[T['_']]> {
    const bytes = serializeObject(message as unknown as tl.TlObject);
    const body: WireRequest = { json: tlJson.stringify(message), bytes: Buffer.from(bytes).toString('base64') };
    const res = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status === 200) return deserializeObject(new Uint8Array(await res.arrayBuffer())) as tl.RpcCallReturn[T['_']];
    const e = (await res.json()) as { code: number; message: string };
    throw tl.RpcError.fromTl({ _: 'rpc_error', errorCode: e.code, errorMessage: e.message });
  }
}
