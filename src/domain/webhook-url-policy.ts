/**
 * Validation of partner-supplied webhook URLs (partner-api.md: "Rules of order creation" rule 8,
 * "Emission rules" rule 4, `bad_webhook_url` reasons; operator-api.md WEBHOOK_* variables).
 *
 * PURE: no DNS, no sockets. `checkWebhookUrl` judges the text of the URL at input time (scheme, host,
 * port, credentials, literal address, internal names). Names are resolved and their addresses judged
 * with `addressRefusal` (./address-policy.ts) by the delivery side (src/http-out/webhook-transport.ts: resolveAndCheck) before every attempt.
 *
 * Order of checks: bad_url → too_long → bad_scheme → credentials_in_url → bad_host → bad_port → private_host
 * (internal names and addresses, then the service's own host: PUBLIC_BASE_URL's, in any spelling).
 */
import ipaddr from 'ipaddr.js';
import { addressRefusal } from './address-policy.js';
import { parseAddress, unmapped } from './cidr.js';

export type WebhookUrlReason =
  | 'bad_url'
  | 'bad_scheme'
  | 'bad_host'
  | 'bad_port'
  | 'credentials_in_url'
  | 'private_host'
  | 'too_long';

export interface WebhookUrlPolicy {
  requireHttps: boolean;
  standardPortsOnly: boolean;
  maxLength: number;
  /** CIDRs or single IPs exempt from the private-address block (WEBHOOK_ALLOW_SUBNETS). */
  allowSubnets: string[];
  /**
   * Optional, default true: treat the RFC 2606 / 6761 names reserved for testing and documentation
   * (`.test`, `.example`) as internal zones. Set false when a test harness gives such names addresses
   * through the sandbox DNS table and expects them to pass input validation (they are still judged by
   * their resolved addresses before every delivery).
   */
  blockReservedTestZones?: boolean;
  /** Added to the detail of a refused loopback address or `localhost` name (the sandbox names its setting). */
  loopbackHint?: string;
  /** The service's own host (PUBLIC_BASE_URL's), refused as "the service's own infrastructure" (ownHostOf). */
  ownHost?: OwnHost | null;
}

/**
 * The service's own host: a webhook there would post into the service itself (its operator API, its bot
 * webhook…). `host` is in the canonical form of `canonicalHost`. A public host is the service's as a whole,
 * every port of it (`ports: null`); a host that is this machine or a private network (a local sandbox at
 * http://127.0.0.1:8080) is shared with other programs, such as a developer's own webhook receiver, so
 * only the service's own ports on it are.
 */
export interface OwnHost {
  host: string;
  ports: number[] | null;
}

export type UrlCheck =
  | {
      ok: true;
      /** normalised href (WHATWG serialisation) */
      url: string;
      /** normalised hostname, no brackets */
      host: string;
      /** the host when it is an IP literal (normalised, no brackets), else null */
      literalIp: string | null;
      /** effective port (80/443 when none is given) */
      port: number;
    }
  | { ok: false; reason: WebhookUrlReason; detail: string };

// ---------------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------------

/** Zones that never name a public receiver: the name itself or anything under it is refused. */
const INTERNAL_ZONES: readonly string[] = [
  'localhost',
  'local', // mDNS
  'localdomain',
  'internal', // includes metadata.google.internal, *.ec2.internal
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'home.arpa',
  'invalid',
  'onion',
  'arpa', // in-addr.arpa, ip6.arpa, home.arpa: never a web host
];
/** Reserved for testing and documentation (RFC 2606); see WebhookUrlPolicy.blockReservedTestZones. */
const RESERVED_TEST_ZONES: readonly string[] = ['test', 'example'];

/** Cloud metadata host names (single labels are already refused as intranet names). */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);


// ---------------------------------------------------------------------------------------------------
// URL
// ---------------------------------------------------------------------------------------------------

const fail = (reason: WebhookUrlReason, detail: string): UrlCheck => ({ ok: false, reason, detail });

interface RawParts {
  scheme: string;
  /** authority text as the WHATWG parser will see it (special schemes), null when absent */
  authority: string;
  host: string;
  /** port text after ':', null when no ':' follows the host */
  port: string | null;
}

/**
 * Splits the raw text the way the WHATWG parser does for http(s): after `scheme:` any run of `/` or `\`
 * is skipped, the authority ends at the first `/`, `\`, `?` or `#`, userinfo ends at its last `@`, and the
 * host ends at the first `:` outside brackets. Used to name the reason for inputs the parser would refuse
 * (bad port, empty host) and to see what the parser would hide (percent-encoding in the host, a bare `@`).
 */
function splitRaw(s: string): RawParts | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
  if (!m) return null;
  const rest = s.slice(m[0].length).replace(/^[/\\]*/, '');
  const end = rest.search(/[/\\?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  let host: string;
  let port: string | null = null;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close === -1) {
      host = hostPort;
    } else {
      host = hostPort.slice(0, close + 1);
      const after = hostPort.slice(close + 1);
      if (after.startsWith(':')) port = after.slice(1);
    }
  } else {
    const colon = hostPort.indexOf(':');
    host = colon === -1 ? hostPort : hostPort.slice(0, colon);
    if (colon !== -1) port = hostPort.slice(colon + 1);
  }
  return { scheme: m[1].toLowerCase(), authority, host, port };
}

function portProblem(port: string | null): string | null {
  if (port === null || port === '') return null; // no port, or `host:` which WHATWG reads as the default
  if (!/^[0-9]+$/.test(port)) return `port "${port}" is not a number`;
  const n = Number(port);
  if (!(n >= 1 && n <= 65535)) return `port ${port} is outside 1..65535`;
  return null;
}

function isUnder(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}

function nameRefusal(hostname: string, policy: WebhookUrlPolicy): string | null {
  const name = hostname.replace(/\.+$/, ''); // `localhost.` is `localhost`
  if (name === '') return 'empty host name';
  if (METADATA_NAMES.has(name)) return `${name} is a cloud metadata host`;
  const zones =
    policy.blockReservedTestZones === false ? INTERNAL_ZONES : [...INTERNAL_ZONES, ...RESERVED_TEST_ZONES];
  for (const zone of zones) {
    if (isUnder(name, zone)) return `${name} is in the internal zone .${zone}`;
  }
  if (!name.includes('.')) return `${name} is a single-label (intranet) name`;
  return null;
}

function isLoopback(ip: string): boolean {
  try {
    const a = ipaddr.process(ip); // an IPv4-mapped IPv6 address is judged as its IPv4 address
    return a.range() === 'loopback';
  } catch {
    return false;
  }
}

const withHint = (detail: string, hint: string | undefined) => (hint ? `${detail}; ${hint}` : detail);

/** A host in one spelling: lower case, no trailing dot, no brackets; an IP address in its canonical text (IPv4-mapped IPv6 as IPv4). */
export function canonicalHost(host: string): string {
  const a = parseAddress(host);
  if (a) return unmapped(a).toString();
  return host.toLowerCase().replace(/\.+$/, '');
}

/** The own host of a service reachable at `publicBaseUrl` and listening on `ports` too (OwnHost); null for an unreadable URL. */
export function ownHostOf(publicBaseUrl: string, ports: number[] = []): OwnHost | null {
  let u: URL;
  try {
    u = new URL(publicBaseUrl);
  } catch {
    return null;
  }
  const host = canonicalHost(u.hostname);
  if (host === '') return null;
  const shared = parseAddress(host) ? addressRefusal(host, []) !== null : nameRefusal(host, { requireHttps: false, standardPortsOnly: false, maxLength: 0, allowSubnets: [], blockReservedTestZones: false }) !== null;
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { host, ports: shared ? [...new Set([port, ...ports.filter((p) => p > 0)])] : null };
}

/** Whether `host` (any spelling) at `port` is the service's own (see OwnHost). */
export function isOwnHost(host: string, port: number, own: OwnHost | null | undefined): boolean {
  if (!own || canonicalHost(host) !== own.host) return false;
  return own.ports === null || own.ports.includes(port);
}

export function checkWebhookUrl(input: unknown, policy: WebhookUrlPolicy): UrlCheck {
  // bad_url: string checks
  if (typeof input !== 'string') return fail('bad_url', 'the URL must be a string');
  if (input.length === 0) return fail('bad_url', 'the URL is empty');
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(input)) return fail('bad_url', 'the URL contains whitespace or control characters');
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(input)) {
    return fail('bad_url', 'the URL contains non-ASCII characters (send internationalised hosts in punycode)');
  }
  // too_long (ASCII only from here, so length is the byte length)
  if (input.length > policy.maxLength) {
    return fail('too_long', `the URL is ${input.length} characters long, the limit is ${policy.maxLength}`);
  }

  // Raw look before parsing, so that inputs the parser refuses still get their proper reason.
  const raw = splitRaw(input);
  if (!raw) return fail('bad_url', 'the URL is not absolute (no scheme)');
  if (raw.scheme !== 'http' && raw.scheme !== 'https') {
    return fail('bad_scheme', `scheme "${raw.scheme}" is not allowed; use http or https`);
  }
  if (raw.scheme === 'http' && policy.requireHttps) return fail('bad_scheme', 'only https is allowed');
  if (raw.authority.includes('@')) return fail('credentials_in_url', 'the URL must not carry credentials');
  if (raw.host === '') return fail('bad_host', 'the URL has no host');
  if (raw.host.includes('%')) return fail('bad_host', 'percent-encoding is not allowed in the host');
  const rawPortProblem = portProblem(raw.port);
  if (rawPortProblem) return fail('bad_port', rawPortProblem);

  let u: URL;
  try {
    u = new URL(input);
  } catch {
    return fail('bad_url', 'the URL cannot be parsed');
  }

  // The same checks again on the parsed form (belt and braces).
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return fail('bad_scheme', `scheme "${u.protocol.slice(0, -1)}" is not allowed; use http or https`);
  }
  if (u.protocol === 'http:' && policy.requireHttps) return fail('bad_scheme', 'only https is allowed');
  if (u.username || u.password) return fail('credentials_in_url', 'the URL must not carry credentials');
  if (!u.hostname) return fail('bad_host', 'the URL has no host');
  if (/[^\x21-\x7e]|%/.test(u.hostname)) return fail('bad_host', 'the host has invalid characters');

  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    return fail('bad_port', `port ${u.port} is outside 1..65535`);
  }
  if (policy.standardPortsOnly && port !== 80 && port !== 443) {
    return fail('bad_port', `port ${port} is not allowed; only 80 and 443`);
  }

  // private_host. After WHATWG normalisation an IP literal is either bracketed IPv6 or dotted-decimal IPv4
  // (decimal, octal, hex and short IPv4 spellings are rewritten by the parser).
  const bracketed = u.hostname.startsWith('[') && u.hostname.endsWith(']');
  const host = bracketed ? u.hostname.slice(1, -1) : u.hostname;
  let literalIp: string | null = null;
  if (bracketed || ipaddr.IPv4.isValidFourPartDecimal(host)) {
    literalIp = host;
    const refusal = addressRefusal(host, policy.allowSubnets);
    if (refusal) return fail('private_host', withHint(`address ${host} is not allowed (${refusal})`, isLoopback(host) ? policy.loopbackHint : undefined));
  } else {
    const refusal = nameRefusal(host, policy);
    if (refusal) return fail('private_host', withHint(refusal, isUnder(host.replace(/\.+$/, ''), 'localhost') ? policy.loopbackHint : undefined));
  }
  if (isOwnHost(host, port, policy.ownHost)) return fail('private_host', `${host} is this service's own host`);

  return { ok: true, url: u.href, host, literalIp, port };
}
