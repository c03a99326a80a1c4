/**
 * Which IP addresses may receive a webhook (partner-api.md "Emission rules" rule 4): public unicast only,
 * unless inside WEBHOOK_ALLOW_SUBNETS. PURE. The delivery side (src/http-out/webhook-transport.ts: resolveAndCheck) judges
 * every resolved address with it before every attempt; the URL check (./webhook-url-policy.ts) judges
 * literal addresses.
 */
import ipaddr from 'ipaddr.js';
import { inCidr, parseAddress, parsedCidrs, unmapped, type Addr, type Cidr } from './cidr.js';

// ---------------------------------------------------------------------------------------------------
// Address ranges that are never a webhook receiver, in one table. Every entry is rejected on top of
// ipaddr.js's own range check (which must say `unicast`): some IPv6 forms that embed an IPv4 address
// come back as `unicast`, and older ipaddr.js copies lack some ranges.
// ---------------------------------------------------------------------------------------------------
const BLOCKED_RANGES: ReadonlyArray<readonly [cidr: string, why: string]> = [
  // ---- IPv4
  ['0.0.0.0/8', '"this network"; 0.0.0.0 reaches the local host'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'carrier-grade NAT (RFC 6598); also Alibaba metadata 100.100.100.200'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local, cloud metadata 169.254.169.254'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation TEST-NET-1'],
  ['192.88.99.0/24', '6to4 relay anycast (deprecated)'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation TEST-NET-2'],
  ['203.0.113.0/24', 'documentation TEST-NET-3'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved (class E)'],
  ['255.255.255.255/32', 'limited broadcast'],
  // ---- IPv6: the local host
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  // ---- IPv6: forms that embed an IPv4 address (the embedded address could be anything)
  ['::ffff:0:0/96', 'IPv4-mapped'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['64:ff9b::/96', 'NAT64 well-known prefix'],
  ['64:ff9b:1::/48', 'NAT64 local-use prefix'],
  ['2002::/16', '6to4'],
  ['2001::/32', 'Teredo'],
  ['::ffff:0:0:0/96', 'SIIT IPv4-translated'],
  // (ISATAP interface ids ::0000:5efe:a.b.c.d / ::0200:5efe:a.b.c.d under any prefix: see embedsIsatap)
  // ---- IPv6: everything else that is not a public receiver
  ['100::/64', 'discard-only'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'ORCHID (deprecated)'],
  ['2001:20::/28', 'ORCHIDv2'],
  ['2001::/23', 'IETF protocol assignments (also AMT, AS112, TURN/PCP anycast)'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation (RFC 9637)'],
  ['5f00::/16', 'SRv6 SIDs'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
];

/** Global unicast IPv6 is allocated only from 2000::/3; anything outside it is not a public receiver. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

const BLOCKED: ReadonlyArray<{ cidr: Cidr; text: string; why: string }> = BLOCKED_RANGES.map(([text, why]) => ({
  cidr: ipaddr.parseCIDR(text),
  text,
  why,
}));

/** ISATAP (RFC 5214): interface id 0000:5efe or 0200:5efe (u/g bits may vary) followed by an IPv4 address. */
function embedsIsatap(a: ipaddr.IPv6): boolean {
  return (a.parts[4] & 0xfcff) === 0 && a.parts[5] === 0x5efe;
}


/** Which rule refuses the address, or null when it is allowed (exported for diagnostics and tests). */
export function addressRefusal(ip: string, allowSubnets: string[]): string | null {
  const raw = parseAddress(ip);
  if (!raw) return 'not an IP address';
  const processed: Addr = unmapped(raw);

  for (const subnet of parsedCidrs(allowSubnets)) {
    if (inCidr(raw, subnet) || inCidr(processed, subnet)) return null;
  }

  // Checked on the raw form first so that every IPv4-embedding IPv6 spelling is refused as such.
  for (const a of raw === processed ? [raw] : [raw, processed]) {
    for (const b of BLOCKED) {
      if (inCidr(a, b.cidr)) return `${b.text}: ${b.why}`;
    }
    if (a.kind() === 'ipv6') {
      if (embedsIsatap(a as ipaddr.IPv6)) return 'ISATAP interface id (embeds an IPv4 address)';
      if (!a.match(IPV6_GLOBAL_UNICAST)) return 'outside global unicast 2000::/3';
    }
  }
  const range = processed.range();
  if (range !== 'unicast') return `range ${range}`;
  return null;
}

/** true when an IP address (any spelling ipaddr.js parses, v4 or v6) is public unicast, or inside allowSubnets */
export function isAllowedAddress(ip: string, allowSubnets: string[]): boolean {
  return addressRefusal(ip, allowSubnets) === null;
}
