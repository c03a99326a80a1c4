import type { LookupAddress, LookupOptions } from 'node:dns';
import type { PinnedAddress } from '../app/webhooks/transport.js';
import { normaliseHostname } from './host.js';

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
