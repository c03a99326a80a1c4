/**
 * Issue "Webhooks": retries and failure handling through HTTP with a real receiver (partner-api.md
 * "Emission rules" 3; operator-api.md GET /webhook-deliveries, section 1 restart rule): the retry
 * schedule on the service clock, what counts as delivered, redirects, timeouts, giving up with an
 * operator alert, and a crash in the middle of an attempt.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/kernel/event-bus.js';
import { ADMIN_TOKEN, startService, stopService, type Received, type TestService, perTest, hdr, freePort } from '../helpers.js';


const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { service, receiver, cleanup } = perTest();

const tsOf = (r: Received) => Number(hdr(r, 'x-timestamp'));
const iso = (unixSec: number) => new Date(unixSec * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');

async function deliveries(t: TestService, orderId: string): Promise<any[]> {
  const r = await t.admin('GET', `/webhook-deliveries?order_id=${encodeURIComponent(orderId)}`);
  expect(r.status).toBe(200);
  return r.body.items;
}

const DELIVERY_FIELDS = ['webhook_id', 'event', 'order_id', 'url', 'status', 'attempts', 'last_status_code', 'rejected_reason', 'next_attempt_at', 'created_at'];

describe('retries', () => {
  it('500, 500, 302, timeout, 503, 500: attempts at +1 min, +5 min, +30 min, +2 h, +6 h, same X-Webhook-Id, attempts 1..6, no redirect followed, then failed for good with an alert', async () => {
    const t = await service({ WEBHOOK_TIMEOUT_MS: '300' });
    const r = await receiver();
    r.script.push(500, 500, 302, 'hang', 503, 500);
    const alerts: Alert[] = [];
    t.deps.bus.on('alert', (a) => alerts.push(a));
    const p = await t.newPartner({ webhookUrl: r.url });

    const o = await p.order('stars', { quantity: 100, recipient: '@retry_user' });
    expect(o.status, o.raw).toBe(200);
    const orderId: string = o.body.order_id;

    await t.advance(5);
    expect(r.requests).toHaveLength(1);
    const t1 = tsOf(r.requests[0]);
    const id = hdr(r.requests[0], 'x-webhook-id')!;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    let [d] = await deliveries(t, orderId);
    for (const f of DELIVERY_FIELDS) expect(d, f).toHaveProperty(f);
    expect(d).toMatchObject({
      webhook_id: id,
      event: 'order.completed',
      order_id: orderId,
      url: r.url,
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      rejected_reason: null,
      next_attempt_at: iso(t1 + 60),
      created_at: iso(t1),
    });

    // Each step lands 2 s after the attempt is due; the attempt itself runs exactly when due.
    const steps: { delay: number; status: number | null }[] = [
      { delay: 60, status: 500 },
      { delay: 300, status: 302 },
      { delay: 1800, status: null }, // timeout: no status code
      { delay: 7200, status: 503 },
      { delay: 21600, status: 500 },
    ];
    const nextDelays = [300, 1800, 7200, 21600, null];
    for (let i = 0; i < steps.length; i++) {
      const prevTs = tsOf(r.requests[i]);
      // Nothing comes a second early.
      await t.advance(steps[i].delay - 3);
      expect(r.requests, `attempt ${i + 2} must not come early`).toHaveLength(i + 1);
      await t.advance(3);
      expect(r.requests, `attempt ${i + 2}`).toHaveLength(i + 2);
      const q = r.requests[i + 1];
      expect(tsOf(q) - prevTs).toBe(steps[i].delay);
      expect(hdr(q, 'x-webhook-id')).toBe(id);
      expect(hdr(q, 'x-webhook-attempt')).toBe(String(i + 2));
      [d] = await deliveries(t, orderId);
      const next = nextDelays[i];
      expect(d).toMatchObject({
        webhook_id: id,
        attempts: i + 2,
        last_status_code: steps[i].status,
        status: next === null ? 'failed' : 'pending',
        next_attempt_at: next === null ? null : iso(tsOf(q) + next),
        rejected_reason: null,
        created_at: iso(t1),
      });
      if (next !== null) expect(alerts).toEqual([]);
    }

    expect(r.requests.map((q) => hdr(q, 'x-webhook-attempt'))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(new Set(r.requests.map((q) => hdr(q, 'x-timestamp'))).size).toBe(6);
    expect(r.requests.every((q) => q.path === '/hook')).toBe(true); // the 302 Location (/redirected) was not followed
    expect(new Set(r.requests.map((q) => q.raw.toString('utf8'))).size).toBe(1); // the same body every time

    // Gave up: one alert, and no 7th attempt even a day later.
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'webhook_gave_up', webhookId: id, orderId, partnerId: p.id, event: 'order.completed' });
    await t.advance(86_400);
    await t.advance(86_400);
    expect(r.requests).toHaveLength(6);
    [d] = await deliveries(t, orderId);
    expect(d).toMatchObject({ status: 'failed', attempts: 6, last_status_code: 500, next_attempt_at: null });
    const failedList = await t.admin('GET', '/webhook-deliveries?status=failed');
    expect(failedList.body.items.map((x: any) => x.webhook_id)).toContain(id);
    const pendingList = await t.admin('GET', '/webhook-deliveries?status=pending');
    expect(pendingList.body.items.map((x: any) => x.webhook_id)).not.toContain(id);
  });

  it('one big advance runs the retries in time order; a 204 counts as delivered and ends the retries', async () => {
    const t = await service();
    const r = await receiver();
    r.script.push(500, 500, 204);
    const alerts: Alert[] = [];
    t.deps.bus.on('alert', (a) => alerts.push(a));
    const p = await t.newPartner({ webhookUrl: r.url });
    const o = await p.order('stars', { quantity: 100, recipient: '@bigstep_user' });
    expect(o.status).toBe(200);

    await t.advance(86_400);
    expect(r.requests).toHaveLength(3);
    expect(tsOf(r.requests[1]) - tsOf(r.requests[0])).toBe(60);
    expect(tsOf(r.requests[2]) - tsOf(r.requests[1])).toBe(300);
    expect(r.requests.map((q) => hdr(q, 'x-webhook-attempt'))).toEqual(['1', '2', '3']);
    expect(new Set(r.requests.map((q) => hdr(q, 'x-webhook-id'))).size).toBe(1);
    const [d] = await deliveries(t, o.body.order_id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 204, next_attempt_at: null, rejected_reason: null });
    await t.advance(86_400);
    expect(r.requests).toHaveLength(3);
    expect(alerts).toEqual([]);
  });

  it('a connection error (nobody listening) is a failure and is retried', async () => {
    const t = await service();
    const r = await receiver();
    const url = r.url;
    await r.close();
    const p = await t.newPartner({ webhookUrl: url });
    const o = await p.order('stars', { quantity: 100, recipient: '@refused_user' });
    expect(o.status).toBe(200);
    await t.advance(5);
    const [d] = await deliveries(t, o.body.order_id);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, rejected_reason: null });
    expect(d.next_attempt_at).not.toBeNull();
  });
});

// ------------------------------------------------------------------------------------------------
// Crash in the middle of an attempt: the real service process, killed with SIGKILL
// ------------------------------------------------------------------------------------------------

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('crash during delivery', () => {
  it('the service is killed (SIGKILL) while an attempt is in flight; after a restart on the same database the attempt is made again with the same X-Webhook-Id', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-crash-'));
    cleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    const r = await receiver();
    r.script.push('hang');
    const port = await freePort();
    const env = {
      DATABASE_PATH: path.join(dir, 'service.db'),
      ADMIN_TOKEN,
      WEBHOOK_ALLOW_SUBNETS: '127.0.0.2/32',
      WEBHOOK_TIMEOUT_MS: '60000',
    };
    // One node process (no npx/tsx wrapper processes), so SIGKILL hits the service itself.
    let stderr = '';
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', SANDBOX_DEMO: '0', LOG_LEVEL: 'silent', TELEGRAM_BOT_TOKEN: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (c) => (stderr += String(c)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanup(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    });

    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, url: string, body?: unknown, key = ADMIN_TOKEN) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, raw: text };
    };
    await waitFor(
      'the service to listen',
      async () => {
        if (child.exitCode !== null) throw new Error(`service exited: ${stderr}`);
        try {
          return (await fetch(`${base}/healthz`)).status === 200;
        } catch {
          return false;
        }
      },
      20_000,
    );

    const partner = await call('POST', '/api/admin/v1/partners', { name: 'Crash partner' });
    expect(partner.status, partner.raw).toBe(201);
    const pid = partner.body.partner_id;
    expect((await call('POST', `/api/admin/v1/partners/${pid}/topups`, { currency: 'USD', amount: '100.00', network: 'ton', tx_hash: `crash-${process.pid}` })).status).toBe(201);
    const key = await call('POST', `/api/admin/v1/partners/${pid}/keys`, {});
    expect(key.status, key.raw).toBe(201);
    const hook = await call('PUT', `/api/admin/v1/partners/${pid}/webhook`, { url: r.url });
    expect(hook.status, hook.raw).toBe(200);
    const secret: string = hook.body.secret;
    const order = await call('POST', '/api/partner/v1/orders', { type: 'stars', idempotency_key: 'crash-1', params: { quantity: 100, recipient: '@crash_user' } }, key.body.api_key);
    expect(order.status, order.raw).toBe(200);
    const orderId: string = order.body.order_id;

    // Completes the order; the advance itself then waits on the hanging attempt, so it is not awaited.
    void call('POST', '/api/admin/v1/sandbox/clock/advance', { seconds: 5 }).catch(() => undefined);
    await waitFor('the first attempt to reach the receiver', () => r.requests.length === 1, 15_000);
    const first = r.requests[0];
    expect(hdr(first, 'x-webhook-attempt')).toBe('1');
    const id = hdr(first, 'x-webhook-id')!;

    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');

    // Restart on the same database (and the same secret key file beside it).
    const t = await startService(env, { dir, realNow: () => Date.now() });
    cleanup(() => stopService(t));
    let [d] = await deliveries(t, orderId);
    expect(d).toMatchObject({ webhook_id: id, status: 'pending' });
    await t.advance(1);
    expect(r.requests).toHaveLength(2);
    const second = r.requests[1];
    expect(hdr(second, 'x-webhook-id')).toBe(id);
    expect(second.raw.equals(first.raw)).toBe(true);
    const crypto = await import('node:crypto');
    expect(hdr(second, 'x-signature')).toBe(crypto.createHmac('sha256', secret).update(second.raw).digest('hex'));
    [d] = await deliveries(t, orderId);
    expect(d).toMatchObject({ webhook_id: id, status: 'delivered', last_status_code: 200 });
    expect(await deliveries(t, orderId)).toHaveLength(1);
  });
});
