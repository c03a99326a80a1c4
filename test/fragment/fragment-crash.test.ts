import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { HotWallet } from '../../src/suppliers/fragment/wallet.js';
import { freePort } from '../helpers.js';
import { BOUNCING_ADDRESS, COOKIES, FRAGMENT_ADDRESS, FRAGMENT_HASH, newMnemonic, paidPerRecipient, paidTxOf, startFakeFragment, startFakeRate, startFakeToncenter, type FakeFragment, type FakeToncenter } from './fakes.js';
import { fragmentEnvFor } from './harness.js';

/**
 * The real process (`src/main.ts`), killed with SIGKILL at the worst instants of a batch of payments, then
 * started again on the same database. The fakes run here: Fragment's API, and toncenter over @ton/sandbox
 * running the real V5R1 wallet contract, on real time moved forward by `skewSec` (the restarted service's
 * clock is moved by as much through its persisted offset: time that passed while it was down).
 *  - killed when the signed batch reached toncenter and was executed on chain: the restart matches each
 *    order to its own message by Ref#, pays nothing again, and a bounced message sends its order alone to
 *    review; killed again while the receipts are read: the next restart reads them again, paid once;
 *  - killed when the batch was written and handed over but never executed: after its expiry with the
 *    wallet's seqno unchanged it is provably void, and its orders are paid again in a new batch, once.
 */
const ADMIN = 'adm_fragment_crash_token_0123456789';
const CLOCK_KEY = 'clock.offset_ms';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Stand {
  fragment: FakeFragment;
  ton: FakeToncenter;
  dir: string;
  env: Record<string, string>;
  out: string[];
  mnemonic: string[];
  wallet: HotWallet;
  port: number;
  proc: ChildProcess | null;
  /** seconds the fakes' time (and the restarted service's clock) run ahead of real time */
  skewSec: number;
}

async function stand(): Promise<Stand> {
  const s = { skewSec: 0 } as Stand;
  const now = () => Math.floor(Date.now() / 1000) + s.skewSec;
  s.fragment = await startFakeFragment(now);
  s.ton = await startFakeToncenter(now);
  const rate = await startFakeRate('3.00');
  s.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-fragment-crash-'));
  cleanups.push(() => fs.rmSync(s.dir, { recursive: true, force: true }), s.fragment.close, s.ton.close, rate.close, () => kill(s));
  for (const u of ['alice_fan', 'bob_fan', 'carol_fan']) s.fragment.users.set(u, { name: u, premium: false });
  s.mnemonic = await newMnemonic();
  s.wallet = await HotWallet.fromMnemonic(s.mnemonic, 'v5r1');
  await s.ton.fund(s.wallet.address, '20');
  // the checks below poll the orders more often than a partner's default budget allows
  s.env = fragmentEnvFor(s.fragment, s.ton, rate.url, s.mnemonic, { FRAGMENT_PAY_ADDRESSES: `${FRAGMENT_ADDRESS.toString()},${BOUNCING_ADDRESS.toString()}`, API_RATE_LIMIT: '100000', API_RATE_BURST: '1000' });
  s.out = [];
  s.port = await freePort();
  return s;
}

async function start(s: Stand): Promise<void> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(FRAGMENT_.*|UPSTREAM|NODE_OPTIONS|VITEST.*)$/.test(k)) base[k] = v;
  const p = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...base, ...s.env, PORT: String(s.port), HOST: '127.0.0.1', DATABASE_PATH: path.join(s.dir, 'service.db'), ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  p.stdout!.on('data', (c) => s.out.push(String(c)));
  p.stderr!.on('data', (c) => s.out.push(String(c)));
  s.proc = p;
  // generous: a start under tsx on a loaded 2-core machine can take tens of seconds
  for (let i = 0; i < 900; i++) {
    if (p.exitCode !== null) throw new Error(`the service exited: ${s.out.join('')}`);
    // killed by a kill the test armed (killWhen), maybe during the start-up's own recovery: the caller awaits it
    if (p.signalCode !== null) return;
    try {
      if ((await fetch(`http://127.0.0.1:${s.port}/healthz`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service did not start: ${s.out.join('')}`);
}

async function kill(s: Stand): Promise<void> {
  const p = s.proc;
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const gone = new Promise<void>((r) => p.once('exit', () => r()));
  p.kill('SIGKILL');
  await gone;
}

/** Resolves once the process died of SIGKILL sent when `arm` calls its argument. */
function killWhen(s: Stand, arm: (fire: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => arm(() => void kill(s).then(resolve)));
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function api(s: Stand) {
  const base = `http://127.0.0.1:${s.port}`;
  const call = (auth: string, prefix: string) => (method: string, p: string, body?: unknown) =>
    fetch(`${base}${prefix}${p}`, { method, headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
  return { admin: call(ADMIN, '/api/admin/v1'), partner: (key: string) => call(key, '/api/partner/v1') };
}

/** A partner and three Stars orders created at once, so that their purchases are prepared together. */
async function threeOrders(s: Stand) {
  const { admin, partner } = api(s);
  const pid = (await admin('POST', '/partners', { name: 'crash' })).body.partner_id;
  await admin('POST', `/partners/${pid}/topups`, { currency: 'USD', amount: '100.00', network: 'ton', tx_hash: `fragment-crash-${pid}` });
  const p = partner((await admin('POST', `/partners/${pid}/keys`, {})).body.api_key);
  await until('prices', async () => ((await p('GET', '/products')).body.stars ? true : undefined));
  // the wallet's state cannot be read while the three orders are made and prepared: no batch forms before
  // all three wait, whatever the machine's load; then one batch takes them all
  s.ton.walletDown = true;
  const made = await Promise.all(['alice_fan', 'bob_fan', 'carol_fan'].map((u, i) => p('POST', '/orders', { type: 'stars', idempotency_key: `crash-${u}`, params: { quantity: 100 + i * 50, recipient: `@${u}` } })));
  for (const r of made) expect(r.status).toBe(200);
  await until('the three purchases prepared', async () => (s.fragment.calls.filter((c) => c.method === 'getBuyStarsLink').length >= 3 ? true : undefined));
  s.ton.walletDown = false;
  return { p, admin, ids: made.map((r) => r.body.order_id as string) };
}

async function settled(p: ReturnType<ReturnType<typeof api>['partner']>, ids: string[]) {
  return until('the orders to settle', async () => {
    const all = await Promise.all(ids.map(async (id) => (await p('GET', `/orders/${id}`)).body));
    for (const o of all) expect(o.status, JSON.stringify(o)).toMatch(/^(processing|completed|failed)$/);
    return all.every((o) => o.status !== 'processing') ? all : undefined;
  });
}

/** Per recipient, how many of the wallet's messages on chain paid one of its Fragment requests. */
function paidOnChain(s: Stand): Map<string, number> {
  return paidPerRecipient(s.fragment, [...s.ton.executed.values()].map(paidTxOf));
}

describe('Fragment batches: the real process killed at the worst instants', () => {
  it('kill -9 after the batch left, then again while its receipts are read: each order settled by its own Ref#, a bounce reviewed alone, nothing paid twice', { timeout: 300_000 }, async () => {
    const s = await stand();
    s.fragment.payTo.set('bob_fan', BOUNCING_ADDRESS);
    await start(s);
    // toncenter takes the transfer, the chain executes it, and the service dies before it hears back
    s.ton.sendMode = 'hang';
    const killed = killWhen(s, (fire) => (s.ton.onSend = fire));
    const { p, admin, ids } = await threeOrders(s);
    await killed;
    expect(s.ton.received).toHaveLength(1);
    expect(s.ton.executed.size).toBe(1);
    expect([...s.ton.executed.values()][0].outMessages.size).toBe(3);

    // restarted: the transfer is found on chain; the service dies again as it asks for the receipts
    s.ton.sendMode = 'ok';
    s.ton.onSend = null;
    const again = killWhen(s, (fire) => (s.ton.onAdjacent = fire));
    await start(s);
    await again;
    s.ton.onAdjacent = null;
    await start(s);
    const done = await settled(p, ids);
    expect(done.map((o) => [o.status, o.refunded])).toEqual([
      ['completed', false],
      ['failed', false], // bounced: manual review, no refund (an operator decides)
      ['completed', false],
    ]);
    const pays = await Promise.all(ids.map(async (id) => (await admin('GET', `/fragment/payments/${id}`)).body));
    expect(pays.map((x) => x.state)).toEqual(['paid', 'review', 'paid']);
    expect(pays[1].detail).toContain('bounced');
    const txHash = [...s.ton.executed.values()][0].hash().toString('base64');
    for (const x of pays) expect(x).toMatchObject({ attempts: 1, tx_hash: txHash, batch: { orders: 3, messages: 3 } });
    expect(s.ton.adjacentCalls).toBeGreaterThanOrEqual(2);
    // paid exactly once, and nothing more ever leaves for them
    await new Promise((r) => setTimeout(r, 4_000));
    expect(s.ton.received).toHaveLength(1);
    expect(paidOnChain(s)).toEqual(new Map([['rcp_alice_fan', 1], ['rcp_bob_fan', 1], ['rcp_carol_fan', 1]]));
    const logs = s.out.join('');
    for (const secret of [s.mnemonic.slice(0, 3).join(' '), FRAGMENT_HASH, ...COOKIES.split('; ').map((c) => c.split('=')[1]).filter((v) => v.length > 4)]) expect(logs).not.toContain(secret);
  });

  it('kill -9 after the batch was written and handed over but never executed: void once expired with the seqno unused, its orders paid again in a new batch, once', { timeout: 300_000 }, async () => {
    const s = await stand();
    await start(s);
    s.ton.sendMode = 'drop'; // toncenter takes it, it never reaches the chain (yet)
    const killed = killWhen(s, (fire) => (s.ton.onSend = fire));
    const { p, admin, ids } = await threeOrders(s);
    await killed;
    expect(s.ton.held).toHaveLength(1);
    expect(s.ton.executed.size).toBe(0);
    const db = new Database(path.join(s.dir, 'service.db'));
    const written = db.prepare("select batch_id, state, orders, valid_until from fragment_batches").all() as { batch_id: string; state: string; orders: number; valid_until: number }[];
    expect(written).toEqual([expect.objectContaining({ state: 'signed', orders: 3 })]);
    // the service stays down past the transfer's expiry (and the grace): its clock and the chain's move together
    s.skewSec = 400;
    db.prepare('insert into kv (key, value, updated_at) values (?, ?, ?) on conflict(key) do update set value = excluded.value').run(CLOCK_KEY, JSON.stringify(s.skewSec * 1000), Date.now());
    db.close();
    s.ton.sendMode = 'ok';
    s.ton.onSend = null;
    await start(s);
    const done = await settled(p, ids);
    expect(done.map((o) => o.status)).toEqual(['completed', 'completed', 'completed']);
    const pays = await Promise.all(ids.map(async (id) => (await admin('GET', `/fragment/payments/${id}`)).body));
    for (const x of pays) expect(x).toMatchObject({ state: 'paid', attempts: 2, batch: { state: 'done' } });
    // paid again in new batches (normally one: the freed orders are gathered), never in the void one
    const batches = new Set(pays.map((x) => x.batch.batch_id));
    expect(batches.has(written[0].batch_id)).toBe(false);
    expect(s.ton.received).toHaveLength(1 + batches.size);
    expect(s.ton.executed.size).toBe(batches.size);
    // the first transfer, surfacing now, cannot pay again: expired (and its seqno used)
    expect(await s.ton.execute(s.ton.held[0])).toBeNull();
    expect(paidOnChain(s)).toEqual(new Map([['rcp_alice_fan', 1], ['rcp_bob_fan', 1], ['rcp_carol_fan', 1]]));
  });
});
