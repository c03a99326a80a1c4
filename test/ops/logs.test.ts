import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeTelegram, waitFor } from '../bot/fake-telegram.js';
import { freePort, startReceiver } from '../helpers.js';
import { startProcess } from './service-process.js';

/**
 * Logs of a full scenario, from the real process at the most verbose level: one JSON line per request and
 * per order and webhook state change; no API key, webhook secret, operator token or bot token anywhere in
 * the output (stdout and stderr).
 */
const ADMIN = 'adm_logs_scenario_token_9f8e7d6c5b4a';
const OPERATOR = { id: 900_555, first_name: 'Ops', language_code: 'en' };
const OWNER = { id: 100_555, first_name: 'Owner', language_code: 'en' };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('logs', { timeout: 120_000 }, () => {
  it('a full scenario logs every request and state change as JSON lines, and never a secret', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-logs-'));
    dirs.push(dir);
    const tg = await new FakeTelegram('7777777:AAH-bot-token-secret-part-abcdef').start();
    const rx = await startReceiver();
    const port = await freePort();
    const metricsToken = 'metrics_scenario_token_0123456789';
    const proc = startProcess(dir, {
      PORT: String(port),
      DATABASE_PATH: path.join(dir, 'service.db'),
      ADMIN_TOKEN: ADMIN,
      SANDBOX_DEMO: '0',
      LOG_LEVEL: 'trace',
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      ADMIN_CHAT_IDS: String(OPERATOR.id),
      WEBHOOK_ALLOW_SUBNETS: '127.0.0.2/32',
      METRICS_TOKEN: metricsToken,
    });
    const secrets: string[] = [ADMIN, tg.token, tg.token.split(':')[1], metricsToken];
    try {
      await proc.ready();
      const call = async (method: string, p: string, token: string, body?: unknown) => {
        const r = await fetch(`${proc.base}${p}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: r.status, body: (await r.json().catch(() => null)) as any };
      };
      const admin = (method: string, p: string, body?: unknown) => call(method, `/api/admin/v1${p}`, ADMIN, body);

      const partner = (await admin('POST', '/partners', { name: 'Log Scenario Shop' })).body.partner_id as number;
      expect((await admin('POST', `/partners/${partner}/topups`, { currency: 'USD', amount: '100.00', network: 'ton', tx_hash: 'tx-logs-1' })).status).toBe(201);
      const key1 = (await admin('POST', `/partners/${partner}/keys`, {})).body.api_key as string;
      const secret1 = (await admin('PUT', `/partners/${partner}/webhook`, { url: rx.url })).body.secret as string;
      const secret2 = (await admin('PUT', `/partners/${partner}/webhook`, { url: rx.url, regenerate_secret: true })).body.secret as string;
      const key2 = (await admin('POST', `/partners/${partner}/keys`, { ip_whitelist: ['127.0.0.1'] })).body.api_key as string;
      secrets.push(key1, key2, secret1, secret2);
      expect(secrets.every((s) => typeof s === 'string' && s.length >= 16)).toBe(true);

      // a revoked key, a made-up key, a wrong operator token
      expect((await call('GET', '/api/partner/v1/me', key1)).status).toBe(401);
      expect((await call('GET', '/api/partner/v1/me', 'pk_live_made_up_key_0123456789abcdef')).status).toBe(401);
      expect((await call('GET', `/api/admin/v1/partners/${partner}`, 'adm_wrong_token_0123456789')).status).toBe(401);
      expect((await call('GET', '/metrics', 'metrics_wrong_token_0123456789')).status).toBe(401);
      expect((await call('GET', '/metrics', metricsToken)).status).toBe(200);

      rx.script.push(500); // the first webhook attempt fails, its retry succeeds
      const ok = await call('POST', '/api/partner/v1/orders', key2, { type: 'stars', idempotency_key: 'logs-1', params: { quantity: 100, recipient: '@log_user' } });
      const bad = await call('POST', '/api/partner/v1/orders', key2, { type: 'stars', idempotency_key: 'logs-2', params: { quantity: 100, recipient: '@failstars_logs' } });
      expect([ok.status, bad.status]).toEqual([200, 200]);
      expect((await call('POST', '/api/partner/v1/orders', key2, { type: 'stars', idempotency_key: 'logs-1', params: { quantity: 100, recipient: '@log_user' } })).status).toBe(200);
      await admin('POST', '/sandbox/clock/advance', { seconds: 10 });
      await admin('POST', '/sandbox/clock/advance', { seconds: 120 });
      await waitFor(() => rx.requests.length >= 4, 'the webhooks', 20_000);

      // the bot: an owner links with an invite and asks for the balance
      const invite = (await admin('POST', `/partners/${partner}/invites`, { role: 'owner' })).body.code as string;
      await waitFor(() => tg.callsOf('setMyCommands').length >= 2, 'the bot to start', 20_000);
      tg.send(OWNER, `/start ${invite}`);
      await waitFor(() => tg.to(OWNER.id).length >= 1, 'the link answer');
      tg.send(OWNER, '/balance');
      await waitFor(() => tg.to(OWNER.id).some((m) => /98\.42/.test(m.text)), 'the balance');

      // the bot's updates are counted (metrics are on in this scenario)
      const page = await (await fetch(`${proc.base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      expect(page).toMatch(/^partner_service_bot_updates_total\{outcome="handled"\} 2$/m);
      expect(page).toMatch(/^partner_service_bot_updates_total\{outcome="failed"\} 0$/m);
      // the owner blocks the bot: its answer to the next command is refused, and that update counts as failed
      tg.blocked.add(OWNER.id);
      tg.send(OWNER, '/balance');
      await waitFor(() => tg.refused.some((c) => c.method === 'sendMessage' && c.error?.startsWith('Forbidden')), 'the refused answer');
      await waitFor(async () => /^partner_service_bot_updates_total\{outcome="failed"\} 1$/m.test(await (await fetch(`${proc.base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text()), 'the failed update counted');
      const after = await (await fetch(`${proc.base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      expect(after).toMatch(/^partner_service_bot_updates_total\{outcome="handled"\} 2$/m);

      proc.signal('SIGTERM');
      expect(await proc.exited).toBe(0);
      const out = proc.output();

      // every secret is absent from every line
      for (const s of secrets) expect(out.includes(s), `a secret (${s.slice(0, 6)}…) in the output`).toBe(false);

      const lines = out.split('\n').filter(Boolean);
      const json = lines.map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return null;
        }
      });
      expect(lines.filter((_, i) => json[i] === null), 'every output line is JSON').toEqual([]);
      const requests = json.filter((l) => l.msg === 'request');
      const orderPost = requests.filter((l) => l.route === '/api/partner/v1/orders' && l.method === 'POST');
      expect(orderPost).toHaveLength(3);
      for (const l of orderPost) expect(l).toMatchObject({ level: 'info', status: 200, partner_id: partner, req_id: expect.any(String), ms: expect.any(Number) });
      expect(requests.some((l) => l.route === '/api/admin/v1/partners/:partner_id/keys' && l.partner_id === partner && l.status === 201)).toBe(true);
      expect(requests.filter((l) => l.status === 401)).toHaveLength(4);
      const states = json.filter((l) => l.msg === 'order created' || l.msg === 'order state');
      expect(states.filter((l) => l.order_id === ok.body.order_id).map((l) => l.status)).toEqual(['processing', 'completed']);
      expect(states.filter((l) => l.order_id === bad.body.order_id).map((l) => l.status)).toEqual(['processing', 'failed']);
      const hooks = json.filter((l) => l.msg === 'webhook state');
      const first = hooks.find((l) => l.order_id === ok.body.order_id && l.outcome === 'created');
      expect(first).toMatchObject({ webhook_id: expect.stringMatching(/^[0-9a-f]{24}$/), event: 'order.completed', status: 'pending' });
      expect(hooks.filter((l) => l.webhook_id === first.webhook_id).map((l) => [l.outcome, l.status, l.attempt])).toEqual([
        ['created', 'pending', 0],
        ['failed_attempt', 'pending', 1],
        ['delivered', 'delivered', 2],
      ]);
    } finally {
      proc.kill();
      await rx.close();
      await tg.close();
    }
  });
});
