import { describe, expect, it } from 'vitest';
import { canonicalCidr, inAnyCidr, isCidr, parseCidr, parsedCidrs } from '../../src/domain/cidr.js';

/** The one CIDR module: API key whitelists, WEBHOOK_ALLOW_SUBNETS and the webhook address policy read ranges alike. */
describe('cidr', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0', 8],
    ['10.1.2.3', '10.1.2.3', 32],
    ['2001:db8::/32', '2001:db8::', 32],
    ['::1', '::1', 128],
    ['::ffff:10.0.0.0/104', '10.0.0.0', 8], // an IPv4-mapped range is the IPv4 range it maps
    ['[::1]', '::1', 128],
  ])('parseCidr(%s) → %s/%d', (text, addr, bits) => {
    const c = parseCidr(text)!;
    expect(c[0].toString()).toBe(addr);
    expect(c[1]).toBe(bits);
  });

  it('refuses what is not an address or range', () => {
    for (const s of ['', 'x', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/', '10.0.0.0/a', '1.2.3.4.5']) {
      expect(parseCidr(s)).toBeNull();
      expect(isCidr(s)).toBe(false);
    }
  });

  it('matches an address as given and as the IPv4 address an IPv4-mapped one maps', () => {
    const ranges = parsedCidrs(['10.0.0.0/8', '2001:db8::/32', 'garbage']);
    expect(ranges).toHaveLength(2);
    for (const ip of ['10.9.8.7', '::ffff:10.9.8.7', '2001:db8::5']) expect(inAnyCidr(ip, ranges)).toBe(true);
    for (const ip of ['11.0.0.1', '::ffff:11.0.0.1', '2001:db9::1', 'not-an-ip']) expect(inAnyCidr(ip, ranges)).toBe(false);
    expect(inAnyCidr('10.1.1.1', parsedCidrs(['::ffff:10.0.0.0/104']))).toBe(true);
  });

  it('canonicalCidr: one text per range; IPv4 only in four decimal parts', () => {
    expect(canonicalCidr(' 10.0.0.0/8 ')).toBe('10.0.0.0/8');
    expect(canonicalCidr('2001:0db8:0000::1')).toBe('2001:db8::1');
    expect(canonicalCidr('2001:DB8::/32')).toBe('2001:db8::/32');
    for (const s of ['010.0.0.1', '0x0a.0.0.1', '1.2.3', '10', 'x', '10.0.0.0/33']) expect(canonicalCidr(s)).toBeNull();
  });
});
