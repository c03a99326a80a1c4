import ipaddr from 'ipaddr.js';

/**
 * IP addresses and ranges (CIDRs), in one module: parsing, the one canonical text of a whitelist entry,
 * and matching. ipaddr.js does the range math; what is written here is how this service reads text (an
 * IPv4-mapped IPv6 range also covers the IPv4 addresses it maps; IPv4 only in four decimal parts where a
 * person types it). Used by API keys' IP whitelists, WEBHOOK_ALLOW_SUBNETS and the webhook address policy.
 */
export type Addr = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Addr, number];

/**
 * Parses any spelling ipaddr.js accepts. IPv6 text is first canonicalised with the WHATWG host parser,
 * because ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped).
 */
export function parseAddress(ip: string): Addr | null {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':') && !text.includes('%')) {
    try {
      text = new URL(`http://[${text}]/`).hostname.slice(1, -1);
    } catch {
      return null;
    }
  }
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

/** A CIDR or a single address (its own /32 or /128); null when it is neither. */
export function parseCidr(s: string): Cidr | null {
  const text = s.trim();
  if (text === '') return null;
  const slash = text.lastIndexOf('/');
  const addr = parseAddress(slash >= 0 ? text.slice(0, slash) : text);
  if (!addr) return null;
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  let bits = max;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p)) return null;
    bits = Number(p);
    if (bits > max) return null;
  }
  // An IPv4-mapped IPv6 subnet also covers the plain IPv4 addresses it maps.
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [addr, bits];
}

/** True when the text is a CIDR or a single IP (WEBHOOK_ALLOW_SUBNETS is validated at start-up with it). */
export function isCidr(s: string): boolean {
  return parseCidr(s) !== null;
}

const cidrCache = new Map<string, Cidr[]>();
/** A list of CIDRs parsed once (cached by its text); invalid entries match nothing. */
export function parsedCidrs(list: string[]): Cidr[] {
  if (list.length === 0) return [];
  const key = list.join(',');
  let parsed = cidrCache.get(key);
  if (!parsed) {
    parsed = list.map(parseCidr).filter((c): c is Cidr => c !== null); // invalid entries allow nothing
    if (cidrCache.size > 64) cidrCache.clear();
    cidrCache.set(key, parsed);
  }
  return parsed;
}

export function inCidr(a: Addr, [net, bits]: Cidr): boolean {
  return a.kind() === net.kind() && a.match(net, bits);
}


/** The address, with an IPv4-mapped IPv6 address read as the IPv4 address it maps. */
export function unmapped(a: Addr): Addr {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

/** Whether an address (any spelling parseAddress reads) is inside one of the ranges, as given or unmapped. */
export function inAnyCidr(ip: string, ranges: readonly Cidr[]): boolean {
  const raw = parseAddress(ip);
  if (!raw) return false;
  const plain = unmapped(raw);
  return ranges.some((r) => inCidr(raw, r) || inCidr(plain, r));
}

/**
 * The canonical text of a whitelist entry (`1.2.3.0/24`, `2001:db8::1`), or null when it is not an address
 * or CIDR. ipaddr.js, like inet_aton, reads 010.0.0.1 as octal (8.0.0.1), 0x0a as hex and 1.2.3 as 1.2.0.3:
 * every IPv4 spelling but four decimal parts is refused, so the list holds the address its owner meant.
 */
export function canonicalCidr(text: string): string | null {
  const s = text.trim();
  const addrText = s.split('/')[0];
  if (ipaddr.IPv4.isValid(addrText) && !ipaddr.IPv4.isValidFourPartDecimal(addrText)) return null;
  try {
    if (s.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(s);
      return `${addr.toString()}/${bits}`;
    }
    return ipaddr.parse(s).toString();
  } catch {
    return null;
  }
}
