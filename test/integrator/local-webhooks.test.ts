import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_OWNER_TELEGRAM_ID, demoStartText, startDemo } from '../../src/app/demo.js';
import { urlPolicy } from '../../src/app/webhooks/config.js';
import { checkWebhookUrl } from '../../src/domain/webhook-url-policy.js';
import { codeOf, hdr, perTest, startReceiver, toRes, type Res, type TestService } from '../helpers.js';

/**
 * A webhook receiver on the integrator's own machine, reached from a fresh local sandbox without the operator
 * API: the demo start prints the setting that lets it in and a sign-in link to the demo partner's
 * dashboard (where the address is saved and the secret shown once); a loopback refusal in sandbox mode
 * names that setting.
 */
const { service, cleanup } = perTest();
const LINE = 'WEBHOOK_ALLOW_SUBNETS=127.0.0.0/8,::1/128';
const ORIGIN = 'http://127.0.0.1:8080'; // PUBLIC_BASE_URL's origin in the tests

function app(t: TestService, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return t.app
    .inject({
      method: method as never,
      url: `/api/app/v1${url}`,
      headers: { origin: ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      payload: body === undefined ? undefined : JSON.stringify(body),
    })
    .then(toRes);
}

/** Follows a printed sign-in link as the page does (the token is in the fragment): the session cookie. */
async function signIn(t: TestService, url: string): Promise<string> {
  const token = new URL(url).hash.replace(/^#signin=/, '');
  const r = await app(t, 'POST', '/sign-in', { token });
  expect(r.status, r.raw).toBe(200);
  expect(r.body).toMatchObject({ user: { role: 'owner' }, partner: { name: 'Demo partner', status: 'active' } });
  return String(([] as string[]).concat(r.headers['set-cookie'] as string)[0]).split(';')[0];
}

describe('the demo start', () => {
  it('prints the key, a dashboard sign-in link and the one line that lets a local receiver in; the link signs in once and a restart prints a new one', async () => {
    const t = await service({ WEBHOOK_ALLOW_SUBNETS: '' });
    const first = startDemo(t.deps, t.keys);
    const text = demoStartText(t.deps.config, first);
    expect(first.created).not.toBeNull();
    expect(text).toContain(`API key (shown once): ${first.created!.apiKey}`);
    const link = /^ {2}(http:\/\/127\.0\.0\.1:8080\/app\/#signin=[A-Za-z0-9_-]+)$/m.exec(text);
    expect(link, text).not.toBeNull();
    expect(text.split('\n')).toContain(`  ${LINE}`);

    const cookie = await signIn(t, link![1]);
    const session = await app(t, 'GET', '/session', undefined, { cookie });
    expect(session.body).toMatchObject({ user: { telegram_id: DEMO_OWNER_TELEGRAM_ID, role: 'owner' }, partner: { partner_id: first.created!.partnerId } });
    // single use
    const again = await app(t, 'POST', '/sign-in', { token: new URL(link![1]).hash.slice('#signin='.length) });
    expect(again.status).toBe(401);

    // without the line, the dashboard refuses the local address and says how to let it in
    const refused = await app(t, 'PUT', '/webhook', { url: 'http://127.0.0.1:4000/hook' }, { cookie });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'bad_webhook_url', reason: 'private_host' });
    expect(refused.body.detail).toContain(LINE);

    // a restart: no second partner, a new link
    const second = startDemo(t.deps, t.keys);
    expect(second.created).toBeNull();
    expect(second.signInUrl).toMatch(/#signin=/);
    expect(second.signInUrl).not.toBe(first.signInUrl);
    const restartText = demoStartText(t.deps.config, second);
    expect(restartText).not.toMatch(/pk_live_/);
    expect(restartText).toContain(second.signInUrl!);
    await signIn(t, second.signInUrl!);
  });

  it('with the printed line, the dashboard saves a receiver on 127.0.0.1, shows the secret once, and an order of the demo key reaches it signed', async () => {
    const t = await service({ WEBHOOK_ALLOW_SUBNETS: LINE.split('=')[1] });
    const demo = startDemo(t.deps, t.keys);
    const text = demoStartText(t.deps.config, demo);
    expect(text).toContain('Webhook receivers on this machine (http://127.0.0.1:<port>/…) are let in');
    expect(text).not.toContain(`  ${LINE}`);
    const r = await startReceiver('127.0.0.1');
    cleanup(() => r.close());
    const cookie = await signIn(t, demo.signInUrl!);

    const saved = await app(t, 'PUT', '/webhook', { url: r.url }, { cookie });
    expect(saved.status, saved.raw).toBe(200);
    expect(saved.body.url).toBe(r.url);
    expect(saved.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const secret: string = saved.body.secret;
    // shown once: neither a second save nor the view shows it again
    expect((await app(t, 'PUT', '/webhook', { url: r.url }, { cookie })).body.secret).toBeUndefined();
    expect(JSON.stringify((await app(t, 'GET', '/webhook', undefined, { cookie })).body)).not.toContain(secret);

    const key = demo.created!.apiKey;
    const order = toRes(
      await t.app.inject({
        method: 'POST',
        url: '/api/partner/v1/orders',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ type: 'stars', idempotency_key: 'first-day-1', params: { quantity: 100, recipient: '@demo_user' } }),
      }),
    );
    expect(order.status, order.raw).toBe(200);
    await t.advance(5);
    expect(r.requests).toHaveLength(1);
    const q = r.requests[0];
    const ts = hdr(q, 'x-timestamp')!;
    expect(hdr(q, 'x-signature')).toBe(crypto.createHmac('sha256', secret).update(q.raw).digest('hex'));
    expect(hdr(q, 'x-signature-v2')).toBe(crypto.createHmac('sha256', secret).update(`${ts}.`).update(q.raw).digest('hex'));
    expect(JSON.parse(q.raw.toString('utf8'))).toMatchObject({ event: 'order.completed', order_id: order.body.order_id });
  });
});

describe('a loopback webhook address in sandbox mode', () => {
  it('is refused as private_host with a detail naming the setting, in orders and the operator API alike; other private addresses get no hint', async () => {
    const t = await service({ WEBHOOK_ALLOW_SUBNETS: '' });
    const p = await t.newPartner();
    for (const url of ['http://127.0.0.1:4000/hook', 'http://127.5.6.7/hook', 'http://[::1]:4000/hook', 'http://localhost:4000/hook', 'http://api.localhost/hook']) {
      const o = await p.order('stars', { quantity: 100, recipient: '@local_user' }, undefined, { webhook_url: url });
      expect(o.status, url).toBe(400);
      expect(o.body).toMatchObject({ code: 'bad_webhook_url', reason: 'private_host' });
      expect(o.body.detail, url).toContain(LINE);
      const w = await t.admin('PUT', `/partners/${p.id}/webhook`, { url });
      expect(codeOf(w)).toBe('bad_webhook_url');
      expect(w.body.detail).toContain(LINE);
    }
    for (const url of ['http://10.0.0.5/hook', 'http://192.168.1.10:8080/hook', 'http://printer.lan/hook']) {
      const o = await p.order('stars', { quantity: 100, recipient: '@local_user' }, undefined, { webhook_url: url });
      expect(o.body).toMatchObject({ code: 'bad_webhook_url', reason: 'private_host' });
      expect(o.body.detail, url).not.toContain('WEBHOOK_ALLOW_SUBNETS');
    }
  });

  it('with loopback let in, 127.0.0.1 passes and localhost is pointed at 127.0.0.1', async () => {
    const t = await service({ WEBHOOK_ALLOW_SUBNETS: '127.0.0.0/8,::1/128' });
    const p = await t.newPartner();
    expect((await t.admin('PUT', `/partners/${p.id}/webhook`, { url: 'http://127.0.0.1:4000/hook' })).status).toBe(200);
    const w = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: 'http://localhost:4000/hook' });
    expect(w.body).toMatchObject({ code: 'bad_webhook_url', reason: 'private_host' });
    expect(w.body.detail).toContain('http://127.0.0.1:<port>/');
  });

  it('outside sandbox mode the refusal names no setting', async () => {
    const t = await service({ WEBHOOK_ALLOW_SUBNETS: '' });
    const live = urlPolicy({ ...t.deps.config, UPSTREAM: 'fragment' } as typeof t.deps.config);
    for (const url of ['http://127.0.0.1:4000/hook', 'http://localhost/hook']) {
      const r = checkWebhookUrl(url, live);
      expect(r).toMatchObject({ ok: false, reason: 'private_host' });
      expect(r.ok === false && r.detail).not.toMatch(/WEBHOOK_ALLOW_SUBNETS|127\.0\.0\.1:<port>/);
    }
  });
});
