/**
 * The service's own host as a webhook address (partner-api.md `private_host`: "the service's own
 * infrastructure"): a `webhook_url` on PUBLIC_BASE_URL's host, in any spelling, is refused as
 * `private_host` at input on every path that saves or gives one (the operator API's PUT webhook, the Mini
 * App's dashboard, POST /orders' `webhook_url`; the bot saves through the same use case), and at delivery,
 * also when a partner's own name resolves to the service's address. A service on this machine (a local
 * sandbox) shares the host with the developer's receivers: there only its own ports are refused.
 */
import { describe, expect, it } from 'vitest';
import { perTest, startService, stopService, type TestPartner, type TestService } from '../helpers.js';
import { BOT_TOKEN, linkUser } from '../app-api/app-helpers.js';

const { service, receiver } = perTest();
const LIMITS = { API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', APP_RATE_LIMIT: '100000' };

/** The operator's PUT webhook, the Mini App's PUT /webhook and POST /orders' webhook_url all answer 400 private_host; nothing saved, no order. */
async function refusedEverywhere(t: TestService, p: TestPartner, url: string): Promise<void> {
  const op = await t.admin('PUT', `/partners/${p.id}/webhook`, { url });
  expect([op.status, op.body.code, op.body.reason], `operator PUT ${url}: ${op.raw}`).toEqual([400, 'bad_webhook_url', 'private_host']);
  const owner = await linkUser(t, p, 'owner');
  const app = await owner.call('PUT', '/webhook', { url });
  expect([app.status, app.body.code ?? app.body.detail?.code, app.body.reason ?? app.body.detail?.reason], `Mini App PUT ${url}: ${app.raw}`).toEqual([400, 'bad_webhook_url', 'private_host']);
  const before = (await p.call('GET', '/me')).body.balance;
  const o = await p.order('stars', { quantity: 100, recipient: '@own_host_user' }, undefined, { webhook_url: url });
  expect([o.status, o.body.code, o.body.reason], `POST /orders ${url}: ${o.raw}`).toEqual([400, 'bad_webhook_url', 'private_host']);
  expect((await p.call('GET', '/me')).body.balance).toBe(before);
}

async function accepted(t: TestService, p: TestPartner, url: string): Promise<void> {
  const op = await t.admin('PUT', `/partners/${p.id}/webhook`, { url });
  expect(op.status, `operator PUT ${url}: ${op.raw}`).toBe(200);
}

describe("a webhook on the service's own host is refused at input", () => {
  it('PUBLIC_BASE_URL by name: that host in any case, with a trailing dot, on any port, is private_host on every route; another host of the same domain is not', async () => {
    const t = await service({ PUBLIC_BASE_URL: 'https://pay.example.com', TELEGRAM_BOT_TOKEN: BOT_TOKEN, ...LIMITS });
    const p = await t.newPartner();
    for (const url of [
      'https://pay.example.com/api/admin/v1/partners',
      'https://PAY.Example.COM/hook',
      'https://pay.example.com./hook',
      'https://pay.example.com..:443/hook',
      'https://pay.example.com:8443/hook',
      'http://pay.example.com:80/hook',
      'http://pay.example.com:9090/metrics',
    ])
      await refusedEverywhere(t, p, url);
    await accepted(t, p, 'https://hooks.example.com/in');
    await accepted(t, p, 'https://shop.pay-example.com/in');
  });

  it('PUBLIC_BASE_URL by a public IP: that address in any spelling and on any port is private_host', async () => {
    const t = await service({ PUBLIC_BASE_URL: 'https://93.184.216.34:8443', TELEGRAM_BOT_TOKEN: BOT_TOKEN, ...LIMITS });
    const p = await t.newPartner();
    for (const url of [
      'https://93.184.216.34:8443/api/admin/v1/partners',
      'https://93.184.216.34/hook',
      'http://1572395042/hook', // one decimal number
      'http://0x5db8d822/hook', // hex
      'http://93.184.0xd8.34:8080/hook', // a hex part
    ])
      await refusedEverywhere(t, p, url);
    await accepted(t, p, 'https://93.184.216.35/in');
  });

  it('a service on this machine with local receivers let in: only its own ports on its host are refused, a receiver beside it is not', async () => {
    const t = await service({ PUBLIC_BASE_URL: 'http://127.0.0.1:8080', PORT: '8080', WEBHOOK_ALLOW_SUBNETS: '127.0.0.0/8,::1/128', TELEGRAM_BOT_TOKEN: BOT_TOKEN, ...LIMITS });
    const p = await t.newPartner();
    for (const url of ['http://127.0.0.1:8080/api/admin/v1/partners', 'http://2130706433:8080/hook', 'http://127.1:8080/hook']) await refusedEverywhere(t, p, url);
    await accepted(t, p, 'http://127.0.0.1:4000/hook');
  });
});

describe("a webhook on the service's own host is refused at delivery", () => {
  let n = 0;
  async function deliveryOf(t: TestService, p: TestPartner) {
    const o = await t.partnerCall(p.key, 'POST', '/orders', { type: 'stars', idempotency_key: `own-host-${++n}`, params: { quantity: 100, recipient: '@own_host_user' } });
    expect(o.status, o.raw).toBe(200);
    await t.advance(5);
    const list = await t.admin('GET', `/webhook-deliveries?order_id=${o.body.order_id}`);
    expect(list.status).toBe(200);
    return list.body.items.find((d: any) => d.event === 'order.completed');
  }

  it('an address saved before the service moved to its host: failed, rejected_reason private_host, no request', async () => {
    const r = await receiver();
    const first = await startService({ PUBLIC_BASE_URL: 'https://old.example.com', ...LIMITS });
    let t = first;
    try {
      expect((await t.admin('PUT', '/sandbox/dns/hooks.example.com', { addresses: ['127.0.0.2'] })).status).toBe(200);
      const p = await t.newPartner({ webhookUrl: `http://hooks.example.com:${r.port}/in` });
      // delivered while the service is elsewhere
      expect(await deliveryOf(t, p)).toMatchObject({ status: 'delivered', attempts: 1, rejected_reason: null });
      expect(r.requests).toHaveLength(1);
      // restarted on the same database at the partner's host: the stored address is refused before sending
      await stopService(t, false);
      t = await startService({ PUBLIC_BASE_URL: 'http://hooks.example.com', ...LIMITS }, { dir: first.dir });
      expect(await deliveryOf(t, p)).toMatchObject({ status: 'failed', attempts: 0, rejected_reason: 'private_host' });
      expect(r.requests).toHaveLength(1);
    } finally {
      await stopService(t);
    }
  });

  it("a partner's name that resolves to the service's own address: failed, rejected_reason private_host, no request", async () => {
    const r = await receiver();
    const t = await service({ PUBLIC_BASE_URL: 'https://pay.example.com', ...LIMITS });
    expect((await t.admin('PUT', '/sandbox/dns/shop.example.net', { addresses: ['127.0.0.2'] })).status).toBe(200);
    const p = await t.newPartner({ webhookUrl: `http://shop.example.net:${r.port}/in` });
    // the service's own name does not resolve here: the partner's name is a receiver like any other
    expect(await deliveryOf(t, p)).toMatchObject({ status: 'delivered', rejected_reason: null });
    expect((await t.admin('PUT', '/sandbox/dns/pay.example.com', { addresses: ['127.0.0.2'] })).status).toBe(200);
    await t.advance(61); // the service's own addresses are looked up again after a minute
    expect(await deliveryOf(t, p)).toMatchObject({ status: 'failed', attempts: 0, rejected_reason: 'private_host' });
    expect(r.requests).toHaveLength(1);
  });
});
