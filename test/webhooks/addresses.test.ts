/**
 * Issue "Webhooks": delivery addresses (partner-api.md "Rules of order creation" rule 8, "Emission rules"
 * rule 4, `bad_webhook_url` reasons; operator-api.md WEBHOOK_* variables and PUT /sandbox/dns).
 * Input checks without DNS on POST /orders (nothing created, nothing debited), then what delivery does
 * with names: a name resolving into a private network, a name resolving to an allowed subnet (pinned
 * connection, Host header kept), and a name that does not resolve at all.
 */
import { describe, expect, it } from 'vitest';
import { urlPolicy } from '../../src/app/webhooks/config.js';
import { checkWebhookUrl } from '../../src/domain/webhook-url-policy.js';
import { startService, stopService, type TestPartner, type TestService, perTest, hdr } from '../helpers.js';


const { service, receiver, cleanup } = perTest();

async function deliveries(t: TestService, orderId: string): Promise<any[]> {
  const r = await t.admin('GET', `/webhook-deliveries?order_id=${encodeURIComponent(orderId)}`);
  expect(r.status).toBe(200);
  return r.body.items;
}

async function balanceAndCount(p: TestPartner): Promise<{ balance: string; orders: number }> {
  const me = await p.call('GET', '/me');
  expect(me.status).toBe(200);
  const list = await p.call('GET', '/orders?limit=100');
  expect(list.status).toBe(200);
  return { balance: me.body.balance, orders: list.body.items.length };
}

/** POST /orders with `webhook_url` must be 400 bad_webhook_url with `reason`, flat, and change nothing. */
async function expectRefused(p: TestPartner, url: string, reason: string): Promise<void> {
  const before = await balanceAndCount(p);
  const r = await p.order('stars', { quantity: 100, recipient: '@policy_user' }, undefined, { webhook_url: url });
  expect(r.status, `${url}: ${r.raw}`).toBe(400);
  expect(r.body.code, url).toBe('bad_webhook_url');
  expect(r.body.reason, url).toBe(reason);
  expect(typeof r.body.detail, url).toBe('string');
  expect(await balanceAndCount(p), url).toEqual(before);
}

describe('webhook_url of POST /orders is checked at input, without DNS', () => {
  it('private and internal addresses in any spelling are private_host; other defects have their reason; no order, no debit', async () => {
    const t = await service({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000' }); // ~80 requests below
    const p = await t.newPartner({ webhookUrl: '' });
    const start = await balanceAndCount(p);
    expect(start).toEqual({ balance: '1000.00', orders: 0 });

    const table: [string, string][] = [
      ['http://127.0.0.1:9/h', 'private_host'],
      ['http://2130706433/', 'private_host'], // 127.0.0.1 as one decimal number
      ['http://0x7f.1/', 'private_host'], // 127.0.0.1, hex and short form
      ['http://0177.0.0.1/', 'private_host'], // octal
      ['http://[::ffff:127.0.0.1]/', 'private_host'], // IPv4-mapped IPv6
      ['http://[::1]/', 'private_host'],
      ['http://169.254.169.254/', 'private_host'], // cloud metadata
      ['http://10.0.0.1/', 'private_host'],
      ['http://192.168.1.10/', 'private_host'],
      ['http://0.0.0.0/', 'private_host'],
      ['http://localhost/', 'private_host'],
      ['http://LOCALHOST./h', 'private_host'],
      ['http://api.localhost/h', 'private_host'],
      ['http://db.internal/', 'private_host'],
      ['http://metadata.google.internal/', 'private_host'],
      ['ftp://hooks.partner-shop.com/h', 'bad_scheme'],
      ['javascript:alert(1)', 'bad_scheme'],
      ['http://user:pw@hooks.partner-shop.com/h', 'credentials_in_url'],
      ['http://hooks.partner-shop.com@10.0.0.1/h', 'credentials_in_url'],
      ['http://hooks.partner-shop.com:0/h', 'bad_port'],
      ['http://hooks.partner-shop.com:70000/h', 'bad_port'],
      ['http://hooks.partner-shop.com:80a/h', 'bad_port'],
      ['http://hooks partner-shop.com/h', 'bad_url'],
      ['hooks.partner-shop.com/h', 'bad_url'],
      ['', 'bad_url'],
    ];
    for (const [url, reason] of table) await expectRefused(p, url, reason);
    // A number is not a URL either.
    const num = await p.order('stars', { quantity: 100, recipient: '@policy_user' }, undefined, { webhook_url: 12345 });
    expect(num.status).toBe(400);
    expect(num.body).toMatchObject({ code: 'bad_webhook_url', reason: 'bad_url' });

    expect(await balanceAndCount(p)).toEqual(start);
    const check = await t.admin('GET', '/ledger/check');
    expect(check.body.ok).toBe(true);
  });

  it('WEBHOOK_URL_MAX_LENGTH, WEBHOOK_REQUIRE_HTTPS and WEBHOOK_STANDARD_PORTS_ONLY give too_long, bad_scheme and bad_port', async () => {
    const t = await service({ WEBHOOK_URL_MAX_LENGTH: '40', WEBHOOK_REQUIRE_HTTPS: '1', WEBHOOK_STANDARD_PORTS_ONLY: '1' });
    const p = await t.newPartner({ webhookUrl: '' });
    const long = `https://hooks.partner-shop.com/${'x'.repeat(20)}`;
    expect(long.length).toBeGreaterThan(40);
    await expectRefused(p, long, 'too_long');
    await expectRefused(p, 'http://hooks.partner-shop.com/h', 'bad_scheme');
    await expectRefused(p, 'https://hooks.partner-shop.com:8080/h', 'bad_port');
    // The dashboard address follows the same settings.
    const dash = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: 'http://hooks.partner-shop.com/h' });
    expect(dash.status).toBe(400);
    expect(dash.body).toMatchObject({ code: 'bad_webhook_url', reason: 'bad_scheme' });
    // Exactly 40 characters, https, port 443: accepted.
    const ok = 'https://hooks.partner-shop.com:443/abcde';
    expect(ok.length).toBe(40);
    const r = await p.order('stars', { quantity: 100, recipient: '@policy_user' }, undefined, { webhook_url: ok });
    expect(r.status, r.raw).toBe(200);
  });

  it('without the settings, http, other ports and long URLs are accepted', async () => {
    const t = await service();
    const p = await t.newPartner({ webhookUrl: '' });
    for (const url of ['http://hooks.partner-shop.com:8080/h', `https://hooks.partner-shop.com/${'x'.repeat(500)}`]) {
      const r = await p.order('stars', { quantity: 100, recipient: '@policy_user' }, undefined, { webhook_url: url });
      expect(r.status, `${url}: ${r.raw}`).toBe(200);
    }
  });
});

describe('names are resolved before every attempt', () => {
  it('a name that resolves into a private network: the order is created and paid, no request is made, the delivery fails with rejected_reason, and the next order with that address is refused at once', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: r.url });
    const dns = await t.admin('PUT', '/sandbox/dns/hooks.partner-shop.com', { addresses: ['10.0.0.7'] });
    expect(dns.status, dns.raw).toBe(200);

    const url = 'http://hooks.partner-shop.com/h';
    const o = await p.order('stars', { quantity: 100, recipient: '@dns_private' }, undefined, { webhook_url: url });
    expect(o.status, o.raw).toBe(200);
    const me = await p.call('GET', '/me');
    expect(me.body.balance).toBe((1000 - Number(o.body.partner_price)).toFixed(2));

    await t.advance(5);
    expect((await p.call('GET', `/orders/${o.body.order_id}`)).body.status).toBe('completed');
    const items = await deliveries(t, o.body.order_id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ event: 'order.completed', url, status: 'failed', attempts: 0, last_status_code: null, next_attempt_at: null });
    expect(typeof items[0].rejected_reason).toBe('string');
    expect(items[0].rejected_reason.length).toBeGreaterThan(0);
    expect(r.requests).toEqual([]); // and certainly not redirected to the dashboard address

    await t.advance(86_400);
    expect((await deliveries(t, o.body.order_id))[0]).toMatchObject({ status: 'failed', attempts: 0 });

    // The next order with that address: 400 at once, nothing created or debited.
    await expectRefused(p, url, 'private_host');
    await expectRefused(p, 'http://hooks.partner-shop.com/other-path', 'private_host');
  });

  it('a name that resolves to an allowed subnet is delivered to the checked address with its own Host header', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: '' });
    expect((await t.admin('PUT', '/sandbox/dns/hooks.ok-shop.com', { addresses: ['127.0.0.2'] })).status).toBe(200);
    const url = `http://hooks.ok-shop.com:${r.port}/h`;
    const o = await p.order('stars', { quantity: 100, recipient: '@dns_ok' }, undefined, { webhook_url: url });
    expect(o.status, o.raw).toBe(200);
    await t.advance(5);
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0].path).toBe('/h');
    expect(hdr(r.requests[0], 'host')).toBe(`hooks.ok-shop.com:${r.port}`);
    expect(hdr(r.requests[0], 'x-webhook-attempt')).toBe('1');
    expect((await deliveries(t, o.body.order_id))[0]).toMatchObject({ url, status: 'delivered', attempts: 1, last_status_code: 200 });
  });

  it('a DNS failure does not use up an attempt: pending, attempts 0, retried on the schedule (also through an hour of failures), and delivered as attempt 1 once the name resolves', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: '' });
    const host = 'nonexistent-host-for-test.invalid-tld-xyz';
    const url = `http://${host}:${r.port}/h`;
    // Syntactically a public name: it passes the input check (no DNS there).
    expect(checkWebhookUrl(url, urlPolicy(t.deps.config))).toMatchObject({ ok: true, host });

    const o = await p.order('stars', { quantity: 100, recipient: '@dns_fail' }, undefined, { webhook_url: url });
    expect(o.status, o.raw).toBe(200);
    await t.advance(3); // completion and the first (DNS-failed) try happen at +3 s
    const completedAt = Math.floor(Date.parse((await p.call('GET', `/orders/${o.body.order_id}`)).body.completed_at) / 1000);
    let [d] = await deliveries(t, o.body.order_id);
    expect(d).toMatchObject({ url, status: 'pending', attempts: 0, last_status_code: null, rejected_reason: null });
    expect(d.next_attempt_at).not.toBeNull();
    expect(Math.floor(Date.parse(d.next_attempt_at) / 1000)).toBe(completedAt + 60);
    expect(r.requests).toEqual([]);

    // Still failing a minute later: still no attempt used; the next try follows the schedule (+5 min).
    await t.advance(60);
    [d] = await deliveries(t, o.body.order_id);
    expect(d).toMatchObject({ status: 'pending', attempts: 0, last_status_code: null });
    expect(Math.floor(Date.parse(d.next_attempt_at) / 1000)).toBe(completedAt + 60 + 300);
    expect(r.requests).toEqual([]);

    // An hour of DNS trouble later the delivery is still waiting, with no attempt used.
    await t.advance(3600);
    [d] = await deliveries(t, o.body.order_id);
    expect(d).toMatchObject({ status: 'pending', attempts: 0, rejected_reason: null });
    expect(r.requests).toEqual([]);

    // The name now resolves (to the allowed receiver): the next scheduled try is attempt 1.
    expect((await t.admin('PUT', `/sandbox/dns/${host}`, { addresses: ['127.0.0.2'] })).status).toBe(200);
    await t.advance(6 * 3600);
    expect(r.requests).toHaveLength(1);
    expect(hdr(r.requests[0], 'x-webhook-attempt')).toBe('1');
    expect(hdr(r.requests[0], 'host')).toBe(`${host}:${r.port}`);
    [d] = await deliveries(t, o.body.order_id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200 });
  });
  it('DNS failures in a row are counted durably: a restart keeps the count, and the 21st ends the delivery as dns_failure', async () => {
    let t = await startService({ WEBHOOK_ALLOW_SUBNETS: '127.0.0.2/32' });
    cleanup(() => stopService(t));
    const p = await t.newPartner({ webhookUrl: '' });
    const url = 'http://never-resolves.invalid-tld-xyz/h';
    const o = await p.order('stars', { quantity: 100, recipient: '@dns_count' }, undefined, { webhook_url: url });
    expect(o.status, o.raw).toBe(200);
    const count = () => (t.db.$client.prepare('select dns_deferrals n, status, attempts, rejected_reason r from webhook_deliveries where order_id = ?').get(o.body.order_id) as any);
    // completion at +3 s and the first try; then the schedule: +1 min, +5 min, +30 min, +2 h
    await t.advance(3 + 60 + 300 + 1800 + 7200);
    expect(count()).toEqual({ n: 5, status: 'pending', attempts: 0, r: null });

    await stopService(t, false);
    t = await startService(t.env, { dir: t.dir });
    expect(count()).toEqual({ n: 5, status: 'pending', attempts: 0, r: null });
    // 15 more tries, 6 h apart, then one more: the 21st failure in a row ends it
    await t.advance(16 * 6 * 3600);
    expect(count()).toEqual({ n: 20, status: 'failed', attempts: 0, r: 'dns_failure' });
    const [d] = await deliveries(t, o.body.order_id);
    expect(d).toMatchObject({ status: 'failed', attempts: 0, rejected_reason: 'dns_failure' });
  });
});
