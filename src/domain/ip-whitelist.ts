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
    // ipaddr.js, like inet_aton, reads 010.0.0.1 as octal (8.0.0.1), 0x0a as hex and 1.2.3 as 1.2.0.3: refuse
    // every IPv4 spelling but four decimal parts, so the list holds the address its owner meant.
    const addrText = s.split('/')[0];
    if (ipaddr.IPv4.isValid(addrText) && !ipaddr.IPv4.isValidFourPartDecimal(addrText)) return { ok: false, bad: s };
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
