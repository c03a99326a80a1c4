import { describe, expect, it } from 'vitest';
import { isAllowedAddress } from '../../src/domain/address-policy.js';
import { isCidr } from '../../src/domain/cidr.js';
import { checkWebhookUrl, type WebhookUrlPolicy, type WebhookUrlReason } from '../../src/domain/webhook-url-policy.js';

const base: WebhookUrlPolicy = { requireHttps: false, standardPortsOnly: false, maxLength: 2048, allowSubnets: [] };

function reasonOf(input: unknown, policy: Partial<WebhookUrlPolicy> = {}): WebhookUrlReason | 'ok' {
  const r = checkWebhookUrl(input, { ...base, ...policy });
  return r.ok ? 'ok' : r.reason;
}

describe('checkWebhookUrl: every reason', () => {
  const cases: [label: string, input: unknown, expected: WebhookUrlReason | 'ok', policy?: Partial<WebhookUrlPolicy>][] = [
    // bad_url
    ['not a string (number)', 123, 'bad_url'],
    ['not a string (null)', null, 'bad_url'],
    ['not a string (object)', { url: 'https://example.com/' }, 'bad_url'],
    ['empty', '', 'bad_url'],
    ['only spaces', '  ', 'bad_url'],
    ['space inside host', 'http://ex ample.com', 'bad_url'],
    ['leading space', ' https://example.com/', 'bad_url'],
    ['trailing newline', 'https://example.com/\n', 'bad_url'],
    ['tab inside', 'https://exa\tmple.com/', 'bad_url'],
    ['NUL', 'https://example.com/\u0000', 'bad_url'],
    ['DEL', 'https://example.com/\u007f', 'bad_url'],
    ['Cyrillic а in host', 'http://exаmple.com/', 'bad_url'],
    ['non-ASCII in path', 'https://example.com/звёзды', 'bad_url'],
    ['no-break space', 'https://example.com/\u00a0', 'bad_url'],
    ['relative', '/hook', 'bad_url'],
    ['bare host', 'example.com', 'bad_url'],
    ['unparseable host', 'http://exa<mple.com/', 'bad_url'],
    ['too many IPv4 parts', 'http://1.2.3.4.5/', 'bad_url'],
    // too_long (after the string checks, before everything else)
    ['too long', `https://example.com/${'a'.repeat(100)}`, 'too_long', { maxLength: 50 }],
    ['exactly the limit', `https://example.com/${'a'.repeat(30)}`, 'ok', { maxLength: 50 }],
    ['too long wins over scheme', `ftp://example.com/${'a'.repeat(100)}`, 'too_long', { maxLength: 50 }],
    ['bad_url wins over too long', ` https://example.com/${'a'.repeat(100)}`, 'bad_url', { maxLength: 50 }],
    // bad_scheme
    ['ftp', 'ftp://example.com/', 'bad_scheme'],
    ['file', 'file:///etc/passwd', 'bad_scheme'],
    ['javascript', 'javascript:alert(1)', 'bad_scheme'],
    ['gopher', 'gopher://127.0.0.1:25/', 'bad_scheme'],
    ['ws', 'ws://example.com/', 'bad_scheme'],
    ['http with requireHttps', 'http://example.com/', 'bad_scheme', { requireHttps: true }],
    ['HTTP upper case with requireHttps', 'HTTP://example.com/', 'bad_scheme', { requireHttps: true }],
    ['https with requireHttps', 'https://example.com/', 'ok', { requireHttps: true }],
    ['HTTPS upper case', 'HTTPS://EXAMPLE.COM/hook', 'ok'],
    // credentials_in_url
    ['user and password', 'http://user:pw@example.com/', 'credentials_in_url'],
    ['user only', 'https://user@example.com/', 'credentials_in_url'],
    ['empty userinfo', 'https://@example.com/', 'credentials_in_url'],
    ['empty user, password', 'https://:pw@example.com/', 'credentials_in_url'],
    ['credentials with bad port', 'https://u:p@example.com:99999/', 'credentials_in_url'],
    ['@ in path is fine', 'https://example.com/a@b', 'ok'],
    ['backslash ends the authority', 'https://example.com\\@evil.com/', 'ok'],
    // bad_host
    ['no host', 'http:///', 'bad_host'],
    ['no host, port only', 'http://:8080/', 'bad_host'],
    ['percent-encoded host', 'http://exa%41mple.com/', 'bad_host'],
    ['percent-encoded dot', 'http://127%2E0.0.1/', 'bad_host'],
    ['IPv6 zone id', 'http://[fe80::1%25eth0]/', 'bad_host'],
    // bad_port
    ['port out of range', 'http://example.com:99999/', 'bad_port'],
    ['port 65536', 'http://example.com:65536/', 'bad_port'],
    ['port 0', 'http://example.com:0/', 'bad_port'],
    ['port not a number', 'http://example.com:abc/', 'bad_port'],
    ['port with sign', 'http://example.com:-1/', 'bad_port'],
    ['IPv6 with bad port', 'http://[2606:4700::1111]:70000/', 'bad_port'],
    ['port 65535', 'http://example.com:65535/', 'ok'],
    ['non-standard port', 'https://example.com:8443/', 'bad_port', { standardPortsOnly: true }],
    ['explicit 443', 'https://example.com:443/', 'ok', { standardPortsOnly: true }],
    ['explicit 80', 'http://example.com:80/', 'ok', { standardPortsOnly: true }],
    ['default https port', 'https://example.com/', 'ok', { standardPortsOnly: true }],
    ['https on 80', 'https://example.com:80/', 'ok', { standardPortsOnly: true }],
    // order: bad_port before private_host
    ['bad port on a private host', 'http://127.0.0.1:abc/', 'bad_port'],
  ];
  it.each(cases)('%s: %j → %s', (_label, input, expected, policy) => {
    expect(reasonOf(input, policy)).toBe(expected);
  });

  it('failures carry a detail', () => {
    const r = checkWebhookUrl('ftp://example.com/', base);
    expect(r).toMatchObject({ ok: false, reason: 'bad_scheme' });
    expect(!r.ok && r.detail.length).toBeGreaterThan(0);
  });
});

describe('checkWebhookUrl: private spellings', () => {
  const privateUrls = [
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://127.0.0.1./',
    'http://0/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://[2001:db8::5efe:7f00:1]/',
    'http://[fe80::1]/',
    'http://[fec0::1]/',
    'http://[fc00::1]/',
    'http://[fd12::1]/',
    'http://[fd00:ec2::254]/',
    'http://[ff02::1]/',
    'http://[2001:db8::1]/',
    'http://[100::1]/',
    'http://[2001:10::1]/',
    'http://169.254.169.254/',
    'http://100.64.0.1/',
    'http://100.100.100.200/',
    'http://198.18.0.1/',
    'http://192.0.2.1/',
    'http://192.0.0.8/',
    'http://192.88.99.1/',
    'http://198.51.100.7/',
    'http://203.0.113.9/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://224.0.0.1/',
    'http://240.0.0.1/',
    'http://255.255.255.255/',
    'https://127.0.0.1:8443/h',
    'http://localhost/',
    'http://LOCALHOST/',
    'http://localhost./',
    'http://localhost:8080/',
    'http://foo.localhost/',
    'http://printer.local/',
    'http://db.internal/',
    'http://router.lan/',
    'http://nas.home/',
    'http://wiki.corp/',
    'http://x.private/',
    'http://box.home.arpa/',
    'http://1.0.0.127.in-addr.arpa/',
    'http://srv.localdomain/',
    'http://portal.intranet/',
    'http://nothing.invalid/',
    'http://abc.onion/',
    'http://hook.test/',
    'http://hook.partner.example/',
    'http://intranet/',
    'http://intranet./',
    'http://metadata/',
    'http://metadata.google.internal/',
    'http://metadata.goog/',
    'http://instance-data/',
  ];
  it.each(privateUrls)('%s → private_host', (url) => {
    expect(reasonOf(url)).toBe('private_host');
  });

  it('reserved test zones can be let through (they are judged again after DNS)', () => {
    expect(reasonOf('http://hook.partner.example/', { blockReservedTestZones: false })).toBe('ok');
    expect(reasonOf('http://hook.test/', { blockReservedTestZones: false })).toBe('ok');
    expect(reasonOf('http://db.internal/', { blockReservedTestZones: false })).toBe('private_host');
    expect(reasonOf('http://nothing.invalid/', { blockReservedTestZones: false })).toBe('private_host');
  });
});

describe('checkWebhookUrl: allowed', () => {
  it('public host name', () => {
    expect(checkWebhookUrl('https://example.com/hook', base)).toEqual({
      ok: true,
      url: 'https://example.com/hook',
      host: 'example.com',
      literalIp: null,
      port: 443,
    });
  });

  it('public IPv4 literal with a port', () => {
    expect(checkWebhookUrl('http://8.8.8.8:8080/x', base)).toEqual({
      ok: true,
      url: 'http://8.8.8.8:8080/x',
      host: '8.8.8.8',
      literalIp: '8.8.8.8',
      port: 8080,
    });
  });

  it('public IPv6 literal: no brackets in host', () => {
    expect(checkWebhookUrl('https://[2606:4700::1111]/', base)).toEqual({
      ok: true,
      url: 'https://[2606:4700::1111]/',
      host: '2606:4700::1111',
      literalIp: '2606:4700::1111',
      port: 443,
    });
  });

  it('normalises case, default port, dot segments and odd IPv4 spellings', () => {
    const r = checkWebhookUrl('HTTPS://Hooks.Example.COM:443/a/../b?x=1#frag', base);
    expect(r).toEqual({ ok: true, url: 'https://hooks.example.com/b?x=1#frag', host: 'hooks.example.com', literalIp: null, port: 443 });
    const ip = checkWebhookUrl('http://134744072/', base); // 8.8.8.8 in decimal
    expect(ip).toMatchObject({ ok: true, host: '8.8.8.8', literalIp: '8.8.8.8', port: 80 });
  });

  it('punycode hosts, query strings and percent-encoding outside the host are fine', () => {
    expect(reasonOf('https://xn--e1afmkfd.xn--p1ai/hook?a=%20b')).toBe('ok');
    expect(reasonOf('https://example.com/%D0%B7')).toBe('ok');
    expect(reasonOf('http://example.com:/')).toBe('ok');
  });
});

describe('checkWebhookUrl: allowSubnets', () => {
  const allow = { allowSubnets: ['127.0.0.2/32'] };
  it('allows an address inside the subnet and nothing next to it', () => {
    expect(checkWebhookUrl('http://127.0.0.2:1234/h', { ...base, ...allow })).toEqual({
      ok: true,
      url: 'http://127.0.0.2:1234/h',
      host: '127.0.0.2',
      literalIp: '127.0.0.2',
      port: 1234,
    });
    expect(reasonOf('http://127.0.0.1:1234/h', allow)).toBe('private_host');
    expect(reasonOf('http://127.0.0.2:1234/h')).toBe('private_host');
  });
  it('a mapped IPv6 spelling of an allowed IPv4 address is allowed', () => {
    expect(reasonOf('http://[::ffff:127.0.0.2]:1234/h', allow)).toBe('ok');
  });
  it('does not exempt internal names', () => {
    expect(reasonOf('http://localhost:1234/h', { allowSubnets: ['127.0.0.0/8'] })).toBe('private_host');
  });
  it('single IPs and IPv6 CIDRs', () => {
    expect(reasonOf('http://10.1.2.3/', { allowSubnets: ['10.1.2.3'] })).toBe('ok');
    expect(reasonOf('http://[fd00::5]/', { allowSubnets: ['fd00::/8'] })).toBe('ok');
    expect(reasonOf('http://[fe80::5]/', { allowSubnets: ['fd00::/8'] })).toBe('private_host');
  });
});

describe('isAllowedAddress', () => {
  const refused = [
    '127.0.0.1', '0x7f000001', '0177.0.0.1', '2130706433', '127.1', '0', '0.0.0.0', '10.0.0.5', '100.64.0.1',
    '169.254.169.254', '172.16.0.1', '192.0.0.1', '192.0.2.1', '192.88.99.1', '192.168.0.1', '198.18.0.1',
    '198.19.255.255', '198.51.100.1', '203.0.113.1', '224.0.0.1', '239.255.255.250', '240.0.0.1',
    '255.255.255.255', '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:8.8.8.8', '::127.0.0.1', '::8.8.8.8',
    '::7f00:1', '::ffff:0:808:808', '64:ff9b::808:808', '64:ff9b:1::808:808', '2002:808:808::1', '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1', '3fff::1', '2001:10::1', '2001:20::1', '100::1',
    'fc00::1', 'fd12::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', '2606:4700::5efe:808:808',
    '2606:4700::200:5efe:808:808', '4000::1', 'not-an-ip', '', '1.2.3.4.5',
  ];
  it.each(refused)('%s is refused', (ip) => {
    expect(isAllowedAddress(ip, [])).toBe(false);
  });

  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '2a00:1450:4001:80b::200e', '134744072'];
  it.each(allowed)('%s is allowed', (ip) => {
    expect(isAllowedAddress(ip, [])).toBe(true);
  });

  it('allowSubnets exempt addresses, in raw and processed form', () => {
    expect(isAllowedAddress('127.0.0.2', ['127.0.0.2/32'])).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.2', ['127.0.0.2/32'])).toBe(true);
    expect(isAllowedAddress('127.0.0.2', ['::ffff:127.0.0.0/104'])).toBe(true);
    expect(isAllowedAddress('127.0.0.1', ['127.0.0.2/32'])).toBe(false);
    expect(isAllowedAddress('10.9.8.7', ['10.0.0.0/8', 'garbage'])).toBe(true);
    expect(isAllowedAddress('10.9.8.7', ['garbage'])).toBe(false);
    expect(isAllowedAddress('fd00::1', ['fd00::/8'])).toBe(true);
  });

  it('isCidr', () => {
    for (const s of ['127.0.0.2/32', '10.0.0.0/8', '10.1.2.3', 'fd00::/8', '::1']) expect(isCidr(s)).toBe(true);
    for (const s of ['', 'x', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/', '10.0.0.0/a']) expect(isCidr(s)).toBe(false);
  });
});
