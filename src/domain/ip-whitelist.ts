import ipaddr from 'ipaddr.js';

/** IP/CIDR whitelists of API keys, parsed once and matched per request (ipaddr.js does the range math). */
export type ParsedRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

export function parseWhitelist(entries: string[]): ParsedRange[] {
  return entries.map((e) => {
    if (e.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(e);
      return normaliseRange(addr, bits);
    }
    const addr = ipaddr.process(e);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128] as ParsedRange;
  });
}

function normaliseRange(addr: ipaddr.IPv4 | ipaddr.IPv6, bits: number): ParsedRange {
  // ::ffff:10.0.0.0/104 is the IPv4 range 10.0.0.0/8 for matching purposes.
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [addr, bits];
}

export function ipAllowed(ip: string, ranges: ParsedRange[]): boolean {
  if (ranges.length === 0) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  return ranges.some(([r, bits]) => r.kind() === addr.kind() && addr.match([r, bits] as never));
}

/** Validates and canonicalises whitelist entries; returns the bad entry on failure. */
export function canonicalWhitelist(entries: unknown): { ok: true; value: string[] } | { ok: false; bad: string } {
  if (!Array.isArray(entries)) return { ok: false, bad: String(entries) };
  const out: string[] = [];
  for (const e of entries) {
    if (typeof e !== 'string') return { ok: false, bad: String(e) };
    const s = e.trim();
    try {
      if (s.includes('/')) {
        const [addr, bits] = ipaddr.parseCIDR(s);
        out.push(`${addr.toString()}/${bits}`);
      } else {
        out.push(ipaddr.parse(s).toString());
      }
    } catch {
      return { ok: false, bad: s };
    }
  }
  return { ok: true, value: out };
}
