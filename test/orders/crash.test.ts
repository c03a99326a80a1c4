import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers.js';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Crash safety through the real process: a burst of orders, kill -9 in the middle of it, a restart on the
 * same database, then the ledger, every idempotency key and every unfinished order are checked.
 */
const ADMIN = 'adm_crash_test_token_0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-crash-'));
let proc: ChildProcess | null = null;

async function start(port: number): Promise<void> {
  proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN: ADMIN, SANDBOX_DEMO: '0', API_RATE_LIMIT: '1000000', API_RATE_BURST: '1000000', LOG_LEVEL: 'error' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}

afterAll(() => {
  proc?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('when the process is killed during a burst of orders', () => {
  it('then after a restart no debit is lost or doubled, every key is consistent and every order finishes', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await start(port);
    const admin = (method: string, p: string, body?: unknown) =>
      fetch(`${base}/api/admin/v1${p}`, { method, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const pid = (await admin('POST', '/partners', { name: 'crash' })).body.partner_id;
    await admin('POST', `/partners/${pid}/topups`, { currency: 'USD', amount: '10000.00', network: 'ton', tx_hash: 'crash-1' });
    const key = (await admin('POST', `/partners/${pid}/keys`, {})).body.api_key;
    const order = (k: string) =>
      fetch(`${base}/api/partner/v1/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'stars', idempotency_key: k, params: { quantity: 100, recipient: 'crash_user' } }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    const keys = Array.from({ length: 300 }, (_, i) => `crash-key-${i}`);
    const seen = new Map<string, string>();
    let done = 0;
    // 20 requests in flight at a time, so the kill after the 60th answer always leaves keys never answered
    // (all 300 at once could be committed in one group before the signal lands).
    let next = 0;
    const lane = async () => {
      while (next < keys.length) {
        const k = keys[next++]!;
        await order(k)
          .then((r) => {
            if (r.status === 200) seen.set(k, r.body.order_id);
            if (++done === 60) proc!.kill('SIGKILL');
          })
          .catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: 20 }, lane));
    await new Promise<void>((resolve) => (proc!.exitCode !== null || proc!.signalCode ? resolve() : proc!.once('exit', () => resolve())));
    expect(seen.size).toBeGreaterThan(0);
    expect(seen.size).toBeLessThan(keys.length);

    await start(port);
    const check = await admin('GET', '/ledger/check');
    expect(check.body).toEqual({ ok: true, problems: [] });
    // Every key: an answered order replays to the same order; an unanswered one either replays or creates once.
    const ids = new Set<string>();
    for (const k of keys) {
      const r = await order(k);
      expect(r.status, k).toBe(200);
      if (seen.has(k)) expect(r.body.order_id).toBe(seen.get(k));
      ids.add(r.body.order_id);
    }
    expect(ids.size).toBe(keys.length);
    const ledger = (await admin('GET', `/partners/${pid}/ledger?limit=500`)).body.items.filter((e: any) => e.kind === 'order_debit');
    expect(ledger.length).toBe(keys.length);
    const me = await fetch(`${base}/api/partner/v1/me`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());
    expect(me.balance).toBe((10000 - 1.58 * keys.length).toFixed(2));
    // Every processing order is picked up again after the restart.
    await admin('POST', '/sandbox/clock/advance', { seconds: 10 });
    let all: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await fetch(`${base}/api/partner/v1/orders?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());
      all = all.concat(page.items);
      cursor = page.next_cursor;
    } while (cursor);
    expect(all.length).toBe(keys.length);
    expect(all.filter((o) => o.status !== 'completed')).toEqual([]);
    expect((await admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
    proc!.kill('SIGTERM');
  }, 120_000);
});
