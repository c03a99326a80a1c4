import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HotWallet } from '../../src/suppliers/fragment/wallet.js';
import { freePort } from '../helpers.js';
import { COOKIES, FRAGMENT_HASH, newMnemonic, startFakeFragment, startFakeRate, startFakeToncenter } from './fakes.js';
import { fragmentEnvFor } from './harness.js';

/**
 * The real process, killed (SIGKILL) at the worst instant: the signed payment has reached toncenter and
 * been executed on chain, and the service has not heard back. After a restart on the same database the
 * order is settled by the on-chain lookup: delivered, and paid exactly once.
 */
const ADMIN = 'adm_fragment_crash_token_0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-fragment-crash-'));
let proc: ChildProcess | null = null;
const realNowSec = () => Math.floor(Date.now() / 1000);
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  proc?.kill('SIGKILL');
  for (const c of cleanups) await c();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(port: number, env: Record<string, string>, out: string[]): Promise<ChildProcess> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(FRAGMENT_.*|UPSTREAM|NODE_OPTIONS|VITEST.*)$/.test(k)) base[k] = v;
  const p = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...base, ...env, PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  p.stdout!.on('data', (c) => out.push(String(c)));
  p.stderr!.on('data', (c) => out.push(String(c)));
  // generous: a start under tsx on a loaded 2-core machine can take tens of seconds
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return p;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service did not start: ${out.join('')}`);
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('Fragment adapter: a crash between sending and confirming', () => {
  it('kill -9 after the payment left: the restart settles it on chain and never pays twice', { timeout: 300_000 }, async () => {
    const fragment = await startFakeFragment(realNowSec);
    const ton = await startFakeToncenter(realNowSec);
    const rate = await startFakeRate('3.00');
    cleanups.push(fragment.close, ton.close, rate.close);
    fragment.users.set('alice_fan', { name: 'Alice', premium: false });
    const mnemonic = await newMnemonic();
    const wallet = await HotWallet.fromMnemonic(mnemonic, 'v5r1');
    await ton.fund(wallet.address, '20');
    const env = fragmentEnvFor(fragment, ton, rate.url, mnemonic);
    const out: string[] = [];
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    proc = await start(port, env, out);
    const admin = (method: string, p: string, body?: unknown) =>
      fetch(`${base}/api/admin/v1${p}`, { method, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const pid = (await admin('POST', '/partners', { name: 'crash' })).body.partner_id;
    await admin('POST', `/partners/${pid}/topups`, { currency: 'USD', amount: '100.00', network: 'ton', tx_hash: 'fragment-crash-1' });
    const key = (await admin('POST', `/partners/${pid}/keys`, {})).body.api_key;
    const partner = (method: string, p: string, body?: unknown) =>
      fetch(`${base}/api/partner/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    await until('prices', async () => ((await partner('GET', '/products')).body.stars ? true : undefined), 90_000);

    // toncenter takes the message, the chain executes it, and the service dies before it hears back
    ton.sendMode = 'hang';
    const killed = new Promise<void>((resolve) => {
      ton.onSend = () => {
        proc!.kill('SIGKILL');
        resolve();
      };
    });
    const order = await partner('POST', '/orders', { type: 'stars', idempotency_key: 'crash-stars-1', params: { quantity: 100, recipient: '@alice_fan' } });
    expect(order.status).toBe(200);
    await killed;
    await new Promise<void>((resolve) => (proc!.exitCode !== null || proc!.signalCode !== null ? resolve() : proc!.once('exit', () => resolve())));
    expect(ton.received).toHaveLength(1);
    expect(ton.executed.size).toBe(1);

    ton.sendMode = 'ok';
    ton.onSend = null;
    proc = await start(port, env, out);
    const done = await until(
      'the order to settle',
      async () => {
        const o = await partner('GET', `/orders/${order.body.order_id}`);
        return o.body.status === 'processing' ? undefined : o.body;
      },
      90_000,
    );
    expect(done).toMatchObject({ status: 'completed', refunded: false });
    const pay = await admin('GET', `/fragment/payments/${order.body.order_id}`);
    expect(pay.body).toMatchObject({ state: 'paid', attempts: 1, tx_hash: [...ton.executed.values()][0].hash().toString('base64') });
    // paid exactly once, and no further message ever leaves for it
    await new Promise((r) => setTimeout(r, 6_000));
    expect(ton.received).toHaveLength(1);
    expect(ton.executed.size).toBe(1);
    // the wallet answer shows the address, never a secret; the logs carry no secret either
    const w = await admin('GET', '/fragment/wallet');
    expect(w.body.address).toBe(wallet.friendlyAddress);
    const logs = out.join('') + JSON.stringify(w.body);
    for (const secret of [mnemonic.slice(0, 3).join(' '), FRAGMENT_HASH, ...COOKIES.split('; ').map((c) => c.split('=')[1]).filter((v) => v.length > 4)]) expect(logs).not.toContain(secret);
  });
});
