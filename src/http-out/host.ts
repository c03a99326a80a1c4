/** Host names as URLs and DNS tables write them: an IPv6 literal in brackets, a trailing root dot. */

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** A hostname as compared by the pinned lookup: no brackets, lower case, no trailing dot. */
export function normaliseHostname(h: string): string {
  return stripBrackets(h).toLowerCase().replace(/\.+$/, '');
}
