import { describe, expect, it } from 'vitest';
import { canonicalWhitelist, ipAllowed, parseWhitelist } from '../../src/domain/ip-whitelist.js';

/**
 * The optional IP whitelist of an API key (partner-api.md Authentication 2–3: a caller outside it gets
 * 403 ip_not_allowed; operator-api.md POST /keys `ip_whitelist?: [IP or CIDR]`).
 */
describe('ipAllowed', () => {
  const LIST = ['203.0.113.7', '10.0.0.0/8', '192.168.1.0/24', '2001:db8::/32', '2001:db8:ffff::1'];

  it.each([
    // caller, allowed
    ['203.0.113.7', true], // a single address
    ['203.0.113.8', false],
    ['10.0.0.1', true], // /8
    ['10.255.255.255', true],
    ['11.0.0.0', false],
    ['9.255.255.255', false],
    ['192.168.1.200', true], // /24
    ['192.168.2.1', false],
    ['::ffff:10.1.2.3', true], // IPv4-mapped IPv6 (a dual-stack socket) is the IPv4 caller
    ['::ffff:203.0.113.7', true],
    ['::ffff:203.0.113.8', false],
    ['2001:db8::5', true],
    ['2001:db8:1234:5678::1', true],
    ['2001:DB8::5', true], // IPv6 is case-insensitive
    ['2001:db9::1', false],
    ['2001:0db8:0000:0000:0000:0000:0000:0005', true], // the long spelling of the same address
    ['::1', false],
    ['127.0.0.1', false],
    ['garbage', false],
    ['', false],
    ['10.0.0.256', false],
  ])('%s → %s', (ip, allowed) => {
    expect(ipAllowed(ip, parseWhitelist(LIST))).toBe(allowed);
  });

  it.each(['203.0.113.7', '::1', '2001:db8::1', 'anything'])('an empty whitelist allows %s (the whitelist is optional)', (ip) => {
    expect(ipAllowed(ip, parseWhitelist([]))).toBe(true);
  });

  it.each([
    // whitelist entry written as IPv4-mapped IPv6, caller, allowed
    ['::ffff:10.0.0.0/104', '10.1.2.3', true],
    ['::ffff:10.0.0.0/104', '11.1.2.3', false],
    ['::ffff:203.0.113.7', '203.0.113.7', true],
    ['::ffff:203.0.113.7', '::ffff:203.0.113.7', true],
    ['::ffff:203.0.113.7', '203.0.113.8', false],
  ])('entry %s, caller %s → %s', (entry, ip, allowed) => {
    expect(ipAllowed(ip, parseWhitelist([entry]))).toBe(allowed);
  });

  it('an IPv4 range never matches an IPv6 caller outside the mapped block, and the reverse', () => {
    expect(ipAllowed('2001:db8::a00:1', parseWhitelist(['10.0.0.0/8']))).toBe(false);
    expect(ipAllowed('10.0.0.1', parseWhitelist(['::/0']))).toBe(false);
    expect(ipAllowed('2001:db8::1', parseWhitelist(['0.0.0.0/0']))).toBe(false);
  });
});

describe('canonicalWhitelist', () => {
  it.each([
    [[], []],
    [['203.0.113.7'], ['203.0.113.7']],
    [[' 203.0.113.7 '], ['203.0.113.7']],
    [['10.0.0.0/8', '192.168.1.0/24'], ['10.0.0.0/8', '192.168.1.0/24']],
    [['2001:DB8::1'], ['2001:db8::1']],
    [['2001:0db8:0000:0000:0000:0000:0000:0001'], ['2001:db8::1']],
    [['2001:db8::/32'], ['2001:db8::/32']],
    [['0.0.0.0/0'], ['0.0.0.0/0']],
  ])('%j → %j', (entries, value) => {
    expect(canonicalWhitelist(entries)).toEqual({ ok: true, value });
  });

  it.each([
    [['10.0.0.256'], '10.0.0.256'],
    [['10.0.0.0/33'], '10.0.0.0/33'],
    [['2001:db8::/129'], '2001:db8::/129'],
    [['10.0.0.0/'], '10.0.0.0/'],
    [['example.com'], 'example.com'],
    [[''], ''],
    [['203.0.113.7', 'nope'], 'nope'],
    [[42], '42'],
    // IPv4 other than four decimal parts: inet_aton would read 010 as octal (8) and 0x0a as hex; a
    // whitelist must not silently hold another address than the one its owner meant (CVE-2021-29921)
    [['010.0.0.1'], '010.0.0.1'],
    [['10.0.0.010/8'], '10.0.0.010/8'],
    [['0x0a.0.0.1'], '0x0a.0.0.1'],
    [['1.2.3'], '1.2.3'],
    [['167772161'], '167772161'],
  ])('%j → refused, naming %j', (entries, bad) => {
    expect(canonicalWhitelist(entries)).toEqual({ ok: false, bad });
  });

  it.each([['10.0.0.1'], [null], [{ ip: '10.0.0.1' }]])('not an array: %j → refused', (v) => {
    expect(canonicalWhitelist(v).ok).toBe(false);
  });

  it('what it keeps, parseWhitelist reads and matches', () => {
    const c = canonicalWhitelist(['2001:DB8::/32', ' 10.0.0.0/8']);
    expect(c.ok).toBe(true);
    const ranges = parseWhitelist(c.ok ? c.value : []);
    expect(ipAllowed('2001:db8::1', ranges)).toBe(true);
    expect(ipAllowed('10.9.9.9', ranges)).toBe(true);
    expect(ipAllowed('11.9.9.9', ranges)).toBe(false);
  });
});
