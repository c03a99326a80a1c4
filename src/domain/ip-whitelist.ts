import { canonicalCidr, inAnyCidr, parseCidr, type Cidr } from './cidr.js';

/** IP/CIDR whitelists of API keys, parsed once and matched per request (the range rules: ./cidr.ts). */
export type ParsedRange = Cidr;

/** The stored (canonical) entries of a key's whitelist, parsed; an entry that does not parse matches nothing. */
export function parseWhitelist(entries: string[]): ParsedRange[] {
  return entries.map(parseCidr).filter((c): c is Cidr => c !== null);
}

/** An empty whitelist allows every address. */
export function ipAllowed(ip: string, ranges: ParsedRange[]): boolean {
  return ranges.length === 0 || inAnyCidr(ip, ranges);
}

/** Validates and canonicalises whitelist entries; returns the bad entry on failure. */
export function canonicalWhitelist(entries: unknown): { ok: true; value: string[] } | { ok: false; bad: string } {
  if (!Array.isArray(entries)) return { ok: false, bad: String(entries) };
  const out: string[] = [];
  for (const e of entries) {
    if (typeof e !== 'string') return { ok: false, bad: String(e) };
    const c = canonicalCidr(e);
    if (c === null) return { ok: false, bad: e.trim() };
    out.push(c);
  }
  return { ok: true, value: out };
}
