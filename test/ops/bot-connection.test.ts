import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, freePort } from '../helpers.js';
import { startProcess } from './service-process.js';

/** Quiet failures made loud: an unreachable Bot API is logged at once and shown by a gauge, and so is its return. */
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** The least of a Bot API: getMe answers the bot, every other method ok (getUpdates: no updates, after a short poll). */
function botApi(port: number) {
  const server = http.createServer((req, res) => {
    const method = (req.url ?? '').split('/').pop()?.split('?')[0];
    const result = method === 'getMe' ? { id: 42, is_bot: true, first_name: 'Test', username: 'test_bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } : method === 'getUpdates' ? [] : true;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result })), method === 'getUpdates' ? 300 : 0);
  });
  return new Promise<http.Server>((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

async function gauge(port: number): Promise<number | undefined> {
  const m = /^partner_service_bot_connected (\S+)$/m.exec(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
  return m ? Number(m[1]) : undefined;
}

describe('the bot’s connection to the Bot API', { timeout: 120_000 }, () => {
  it('unreachable at start: one error line within seconds and partner_service_bot_connected 0; once it answers: 1 and a line saying so', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-botconn-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const apiPort = await freePort();
    const metricsPort = await freePort();
    const p = startProcess(dir, {
      PORT: String(await freePort()),
      METRICS_PORT: String(metricsPort),
      DATABASE_PATH: path.join(dir, 'service.db'),
      ADMIN_TOKEN,
      SANDBOX_DEMO: '0',
      TELEGRAM_BOT_TOKEN: '123456:TEST-token-not-real',
      TELEGRAM_API_ROOT: `http://127.0.0.1:${apiPort}`,
    });
    cleanups.push(() => p.kill());
    await p.ready();
    const started = Date.now();
    let down: Record<string, unknown> | undefined;
    while (!down && Date.now() - started < 5_000) {
      down = p.logLines().find((l) => l.msg === 'Bot API unreachable: the bot retries until it answers');
      if (!down) await new Promise((r) => setTimeout(r, 100));
    }
    expect(down).toMatchObject({ level: 'error', api_root: `http://127.0.0.1:${apiPort}`, code: 'ECONNREFUSED' });
    expect(JSON.stringify(down)).not.toContain('TEST-token-not-real');
    expect(await gauge(metricsPort)).toBe(0);

    const server = await botApi(apiPort);
    cleanups.push(() => new Promise((r) => server.close(r)));
    for (const until = Date.now() + 60_000; Date.now() < until && (await gauge(metricsPort)) !== 1; ) await new Promise((r) => setTimeout(r, 200));
    expect(await gauge(metricsPort)).toBe(1);
    expect(p.logLines().some((l) => l.msg === 'Bot API reachable again')).toBe(true);
    p.signal('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});
