import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { COOKIES, FRAGMENT_ADDRESS, FRAGMENT_HASH, PROBE, newMnemonic, paidPerRecipient, startFakeFragment, startFakeRate, type PaidTx } from '../test/fragment/fakes.js';
import { HotWallet } from '../src/suppliers/fragment/wallet.js';
import { cpuMs, fundedPartner, median, ROOT, startService } from './lib.js';

/**
 * `npm run bench:supply [-- --orders 5000 --rate 1200 --runs 3]`: Stars orders through the real Fragment
 * adapter, in the service as `npm start` runs it (its own process), against the project's fake Fragment API
 * and a fake toncenter whose chain is @ton/sandbox running the real V5R1 wallet contract (test/fragment/fakes.ts;
 * the chain in a process of its own, bench/supply-chain.ts).
 *
 * What is simulated, and how: everything runs on the real clock (the service's clock is real time, the
 * chain's time is real time at each block). The chain makes a block every 5 s of real time: the transfers
 * toncenter was handed since the last block are executed then by the sandbox (the wallet's transaction and
 * the transactions its messages cause at Fragment's address, in the same block); the index shows the
 * wallet's transaction 3 s after its block, and each transaction its messages caused once the emulator has
 * made it (no earlier than that: on a loaded machine a block of 255 messages takes the emulator seconds);
 * the wallet's state (balance, seqno) is current at once. Fragment's API
 * answers at once (loopback); TON's network latency, other shards, fees beyond the sandbox's own and
 * Fragment's real rate limits are not simulated. Orders are offered at `--rate` a minute, each to its own
 * recipient, over the partner API; order → paid is the order's `created_at` to its `completed_at` (the
 * service's clock, read from its database after the run).
 *
 * Prints one line per run and, last, the median of the runs:
 *   supply: N orders/min, p99 T s, M per tx, paid twice: 0
 * (orders completed per minute per hot wallet from the first order to the last completion; p99 order →
 * paid; messages per wallet transaction; orders whose recipient was paid more than once on chain, summed
 * over the runs).
 */
const BLOCK_MS = 5_000;
const INDEX_LAG_MS = 3_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const ORDERS = arg('orders', 5_000);
const RATE = arg('rate', 1_200);
const RUNS = arg('runs', 3);
const QUANTITY = 50;
const VERBOSE = process.argv.includes('--verbose');

interface RunResult {
  offered: number;
  completed: number;
  failed: number;
  perMinute: number;
  p50: number;
  p99: number;
  max: number;
  txs: number;
  perTx: number;
  maxPerTx: number;
  paidTwice: number;
  seconds: number;
  serviceCpu: number;
}

function pct(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

interface ChainSummary {
  txs: PaidTx[];
  blocks: { at: number; messages: number; tookMs: number }[];
}

/** The chain's process (bench/supply-chain.ts): its toncenter URL and summary URL once it is up. */
async function startChain(fund: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/supply-chain.ts'], {
    cwd: ROOT,
    env: { ...process.env, BLOCK_MS: String(BLOCK_MS), INDEX_LAG_MS: String(INDEX_LAG_MS), FUND_ADDRESS: fund, FUND_TON: '500000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    proc.once('exit', (code) => reject(new Error(`the chain process exited (${code})`)));
  });
  const { url, summary } = JSON.parse(line) as { url: string; summary: string };
  return { proc, url, summary: async () => (await (await fetch(summary)).json()) as ChainSummary };
}

async function run(n: number): Promise<RunResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-bench-supply-'));
  const nowSec = () => Math.floor(Date.now() / 1000);
  const fragment = await startFakeFragment(nowSec);
  const rate = await startFakeRate('3.00');
  const recipients = Array.from({ length: ORDERS }, (_, i) => `bench_r${String(i).padStart(6, '0')}`);
  for (const u of recipients) fragment.users.set(u, { name: u, premium: false });
  const mnemonic = await newMnemonic();
  const wallet = await HotWallet.fromMnemonic(mnemonic, 'v5r1');
  const ton = await startChain(wallet.address.toString());
  const dbPath = path.join(dir, 'service.db');
  const svc = await startService(dbPath, {
    UPSTREAM: 'fragment',
    FRAGMENT_MNEMONIC: mnemonic.join(' '),
    FRAGMENT_COOKIES: COOKIES,
    FRAGMENT_HASH,
    FRAGMENT_API_URL: fragment.url,
    FRAGMENT_TONCENTER_URL: ton.url,
    FRAGMENT_TON_USD_URL: rate.url,
    FRAGMENT_PAY_ADDRESSES: FRAGMENT_ADDRESS.toString(),
    FRAGMENT_PRICE_PROBE_USERNAME: PROBE,
    FRAGMENT_WALLET_MIN_TON: '1',
  });
  try {
    const partner = await fundedPartner(svc.admin);
    const headers = { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' };
    for (let i = 0; ; i++) {
      const products = (await (await fetch(`${svc.base}/api/partner/v1/products`, { headers })).json()) as { stars?: unknown };
      if (products.stars) break;
      if (i > 300) throw new Error('the service never read Fragment prices');
      await new Promise((r) => setTimeout(r, 100));
    }
    const cpu0 = cpuMs(svc.proc.pid!);
    const t0 = Date.now();
    const gapMs = 60_000 / RATE;
    let refused = 0;
    const posts: Promise<void>[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const due = t0 + i * gapMs;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      posts.push(
        fetch(`${svc.base}/api/partner/v1/orders`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'stars', idempotency_key: `supply-${n}-${i}`, params: { quantity: QUANTITY, recipient: recipients[i] } }),
        }).then(async (r) => {
          if (r.status !== 200) {
            refused++;
            if (refused <= 3) process.stderr.write(`order refused: ${r.status} ${await r.text()}\n`);
          } else await r.arrayBuffer();
        }),
      );
    }
    await Promise.all(posts);
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const counts = db.prepare("select sum(status <> 'processing') as done, count(*) as all_ from orders where type = 'stars'");
    const deadline = Date.now() + 300_000;
    for (;;) {
      const c = counts.get() as { done: number; all_: number };
      if (c.done === c.all_ || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const serviceCpu = (cpuMs(svc.proc.pid!) - cpu0) / (Date.now() - t0);
    const rows = db.prepare("select status, created_at as c, completed_at as d from orders where type = 'stars'").all() as { status: string; c: number; d: number | null }[];
    if (VERBOSE) {
      // each batch: when it was signed and written, its block, and when its last order completed
      const batches = db
        .prepare('select b.created_at as at, b.orders, b.tx_utime as block, max(o.completed_at) as done from fragment_batches b join fragment_payments p on p.batch_id = b.batch_id join orders o on o.order_id = p.order_id group by b.batch_id order by b.created_at')
        .all() as { at: number; orders: number; block: number | null; done: number | null }[];
      for (const b of (await ton.summary()).blocks.filter((x) => x.messages > 0)) process.stdout.write(`  block +${((b.at - t0) / 1000).toFixed(1)} s: ${b.messages} transfer(s) executed in ${b.tookMs} ms\n`);
      for (const b of batches)
        process.stdout.write(`  batch signed +${((b.at - t0) / 1000).toFixed(1)} s, ${b.orders} orders, block +${b.block === null ? '?' : (b.block - t0 / 1000).toFixed(1)} s, last completed +${b.done === null ? '?' : ((b.done - t0) / 1000).toFixed(1)} s\n`);
    }
    db.close();
    const done = rows.filter((r) => r.status === 'completed' && r.d !== null);
    const lat = done.map((r) => (r.d! - r.c) / 1000).sort((a, b) => a - b);
    const first = Math.min(...rows.map((r) => r.c));
    const last = Math.max(...done.map((r) => r.d!));
    // on chain: each wallet transaction's messages, and per recipient how many of its requests were paid
    const { txs } = await ton.summary();
    const perTx = txs.map((tx) => tx.comments.length);
    const paidTwice = [...paidPerRecipient(fragment, txs).values()].filter((x) => x > 1).length;
    return {
      offered: ORDERS - refused,
      completed: done.length,
      failed: rows.length - done.length,
      perMinute: done.length / ((last - first) / 60_000),
      p50: pct(lat, 50),
      p99: pct(lat, 99),
      max: lat.at(-1) ?? NaN,
      txs: perTx.length,
      perTx: perTx.reduce((a, b) => a + b, 0) / perTx.length,
      maxPerTx: Math.max(...perTx),
      paidTwice,
      seconds: (last - first) / 1000,
      serviceCpu,
    };
  } finally {
    svc.proc.kill('SIGTERM');
    await new Promise((r) => svc.proc.once('exit', r));
    ton.proc.kill('SIGTERM');
    await fragment.close();
    await rate.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  process.stdout.write(
    `bench:supply: ${ORDERS} Stars orders offered at ${RATE}/min, ${RUNS} run(s); one hot wallet (V5R1); a block every ${BLOCK_MS / 1000} s, index lag ${INDEX_LAG_MS / 1000} s (real time)\n`,
  );
  const results: RunResult[] = [];
  for (let n = 1; n <= RUNS; n++) {
    const r = await run(n);
    results.push(r);
    process.stdout.write(
      `run ${n}: ${r.completed}/${r.offered} completed (${r.failed} not) in ${r.seconds.toFixed(0)} s: ${r.perMinute.toFixed(0)} orders/min; order → paid p50 ${r.p50.toFixed(1)} s, p99 ${r.p99.toFixed(1)} s, max ${r.max.toFixed(1)} s; ${r.txs} transactions, ${r.perTx.toFixed(1)} messages per tx (max ${r.maxPerTx}); paid twice: ${r.paidTwice}; service CPU ${(r.serviceCpu * 100).toFixed(0)} % of a core\n`,
    );
  }
  const paidTwice = results.reduce((a, r) => a + r.paidTwice, 0);
  const m = (f: (r: RunResult) => number) => median(results.map(f));
  process.stdout.write(`median of ${RUNS}: ${m((r) => r.perMinute).toFixed(0)} orders/min, p50 ${m((r) => r.p50).toFixed(1)} s, p99 ${m((r) => r.p99).toFixed(1)} s, ${m((r) => r.perTx).toFixed(1)} messages per tx\n`);
  process.stdout.write(`supply: ${m((r) => r.perMinute).toFixed(0)} orders/min, p99 ${m((r) => r.p99).toFixed(1)} s, ${m((r) => r.perTx).toFixed(1)} per tx, paid twice: ${paidTwice}\n`);
}

main().catch((e) => {
  process.stderr.write(`bench:supply failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
