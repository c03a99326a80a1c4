import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers.js';
import { TlFakeTelegram } from './tl-fake-telegram.js';

/**
 * GIFTS_UPSTREAM=telegram, the real process killed (SIGKILL) at the worst instant: the purchase record is
 * committed in `paying` and the paid call (payments.sendStarsForm) has reached Telegram, which has not
 * answered. The service runs as a child process (test/gifts/gifts-child.ts: the usual start-up with the
 * real MTProto gateway speaking TL over HTTP to the fake Telegram of tl-fake-telegram.ts, which runs here
 * and counts payments). After a restart on the same SQLite file the purchase is reconciled: paid, but the
 * lost answer was the only thing identifying its payment → manual review, no second payment, no refund;
 * proven unpaid → retried once with a fresh form, paid exactly once.
 */
const ADMIN = 'adm_gifts_crash_token_0123456789abcdef';
const ROOT = path.resolve(import.meta.dirname, '../..');
const CHILD = path.join(ROOT, 'test/gifts/gifts-child.ts');

interface Child {
  proc: ChildProcess;
  out: string[];
}
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startChild(port: number, env: Record<string, string>): Promise<Child> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(GIFTS_.*|TELEGRAM_.*|UPSTREAM|FRAGMENT_.*|NODE_OPTIONS|VITEST.*|METRICS_.*|ADMIN_.*|DATABASE_PATH|PORT|HOST)$/.test(k)) base[k] = v;
  const out: string[] = [];
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: { ...base, ...env, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (c) => out.push(String(c)));
  proc.stderr!.on('data', (c) => out.push(String(c)));
  const child = { proc, out };
  cleanups.push(() => kill(child));
  // generous: a start under tsx on a loaded 2-core machine can take tens of seconds
  for (let i = 0; i < 1200; i++) {
    if (proc.exitCode !== null) throw new Error(`the service exited: ${out.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return child;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service did not start: ${out.join('')}`);
}

async function kill(c: Child): Promise<void> {
  if (c.proc.exitCode !== null || c.proc.signalCode !== null) return;
  const gone = new Promise<void>((r) => c.proc.once('exit', () => r()));
  c.proc.kill('SIGKILL');
  await gone;
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function stand() {
  const tg = new TlFakeTelegram();
  tg.market.addCollection('PlushPepe', 'Plush Pepe', 10, 10);
  tg.market.user_('alice_fan');
  await tg.start();
  cleanups.push(() => tg.close());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-gifts-crash-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const dbPath = path.join(dir, 'service.db');
  const env = {
    UPSTREAM: 'sandbox',
    SANDBOX_DEMO: '0',
    GIFTS_UPSTREAM: 'telegram',
    TELEGRAM_API_ID: '123456',
    TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
    GIFTS_SESSION: '1BQANOTAREALSESSION',
    GIFTS_BALANCE_MIN_TON: '20',
    DATABASE_PATH: dbPath,
    FAKE_TELEGRAM_URL: tg.url,
  };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const call = (auth: string, prefix: string) => (method: string, p: string, body?: unknown) =>
    fetch(`${base}${prefix}${p}`, { method, headers: { authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const admin = call(ADMIN, '/api/admin/v1');
  let child = await startChild(port, env);
  const pid = (await admin('POST', '/partners', { name: 'crash' })).body.partner_id;
  expect((await admin('POST', `/partners/${pid}/topups`, { currency: 'TON', amount: '100.000', network: 'ton', tx_hash: 'gifts-crash-1' })).status).toBe(201);
  const partner = call((await admin('POST', `/partners/${pid}/keys`, {})).body.api_key, '/api/partner/v1');
  /** the purchase record as the killed process left it on disk */
  const record = (orderId: string) => {
    const db = new Database(dbPath, { readonly: true });
    try {
      return db.prepare('select state, attempts, unanswered, form_ref as formRef, detail from gift_purchases where order_id = ?').get(orderId) as { state: string; attempts: number; unanswered: number; formRef: string; detail: string | null } | undefined;
    } finally {
      db.close();
    }
  };
  return {
    tg,
    admin,
    partner,
    record,
    /** kills the service the instant Telegram holds the paid call unanswered */
    async killInFlight() {
      await until('the paid call to reach Telegram', () => (tg.held.length === 1 ? true : undefined));
      await kill(child);
      for (const r of tg.held.splice(0)) r.destroy();
    },
    async restart() {
      child = await startChild(port, env);
    },
    settled: (orderId: string) =>
      until(
        'the order to settle',
        async () => {
          const o = await partner('GET', `/orders/${orderId}`);
          return o.body.status === 'processing' ? undefined : o.body;
        },
        90_000,
      ),
  };
}

describe('Telegram gifts: the service killed between `paying` and the answer', () => {
  it("Telegram took the payment: after the restart nothing identifies it as this order's, so manual review at `purchase` with the account's payment as evidence; no second payment, no refund", { timeout: 300_000 }, async () => {
    const s = await stand();
    s.tg.market.sendScript.push({ payThenLose: true });
    const order = await s.partner('POST', '/orders', { type: 'nft', idempotency_key: 'gift-crash-paid', params: { gift: 'PlushPepe-103', recipient: 'alice_fan', max_price: '50' } });
    expect(order.status).toBe(200);
    const id = order.body.order_id;
    await s.killInFlight();
    expect(s.tg.market.paid()).toBe(1);
    expect(s.record(id)).toMatchObject({ state: 'paying', attempts: 1, unanswered: 0 });

    await s.restart();
    await until('the reconciliation', () => (s.tg.calls.get('payments.getStarsTransactions') ? true : undefined));
    // 30 minutes after the paid call without an identifier of its payment: manual review
    expect((await s.admin('POST', '/sandbox/clock/advance', { seconds: 31 * 60 })).status).toBe(200);
    const o = await until('the review', async () => {
      const b = (await s.admin('GET', `/orders/${id}`)).body;
      return b.review ? b : undefined;
    });
    expect(o).toMatchObject({ status: 'processing', refunded: false, delivery: null, review: { stage: 'purchase' } });
    expect(s.tg.market.sendCalls).toBe(1);
    expect(s.tg.market.paid()).toBe(1);
    expect(s.tg.market.items.get('PlushPepe-103')!.owner).toBe(s.tg.market.users.get('alice_fan')!.userId);
    expect(s.record(id)).toMatchObject({ state: 'review', attempts: 1, unanswered: 0 });
    expect((await s.admin('GET', '/reviews')).body.items.map((r: any) => r.order_id)).toEqual([id]);
    // the evidence an operator decides on (the console's review list shows it): the account's payment of the gift, and who owns it now
    expect(s.record(id)!.detail).toMatch(/none identifiable as this order's: tg-payment:form-\d+ \(12\.000000000 TON, .*\); the recipient owns the gift now$/);
    expect((await s.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
    expect(s.tg.problems).toEqual([]);
  });

  it('Telegram never saw the payment: the restart proves it unpaid (no payment, still for sale), retries with a fresh form, pays once', { timeout: 300_000 }, async () => {
    const s = await stand();
    s.tg.market.sendScript.push({ loseOnly: true });
    const order = await s.partner('POST', '/orders', { type: 'nft', idempotency_key: 'gift-crash-unpaid', params: { gift: 'PlushPepe-104', recipient: 'alice_fan', max_price: '50' } });
    expect(order.status).toBe(200);
    const id = order.body.order_id;
    await s.killInFlight();
    expect(s.tg.market.paid()).toBe(0);
    const atKill = s.record(id)!;
    expect(atKill).toMatchObject({ state: 'paying', attempts: 1, unanswered: 0 });

    await s.restart();
    // within two minutes of the unanswered call nothing is proven: no second call
    await until('the reconciliation', () => (s.tg.calls.get('payments.getStarsTransactions') ? true : undefined));
    expect(s.tg.market.sendCalls).toBe(1);
    expect((await s.partner('GET', `/orders/${id}`)).body.status).toBe('processing');
    expect((await s.admin('POST', '/sandbox/clock/advance', { seconds: 150 })).status).toBe(200);
    const done = await s.settled(id);
    expect(done).toMatchObject({ status: 'completed', refunded: false, delivery: { transfer_hash: expect.stringMatching(/^tg-msg:\d+$/) } });
    expect(s.tg.market.sendCalls).toBe(2);
    expect(s.tg.market.paid()).toBe(1);
    expect(s.tg.market.balanceNano).toBe(487_000_000_000n); // 500 less the 13 TON listing, once
    const after = s.record(id)!;
    expect(after).toMatchObject({ state: 'paid', attempts: 2, unanswered: 1 });
    expect(after.formRef).not.toBe(atKill.formRef);
    expect((await s.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
    expect(s.tg.problems).toEqual([]);
  });
});
