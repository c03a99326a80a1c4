import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { seedOrders } from './seed.js';

/**
 * npm run bench: the order path against the machine's own limit.
 *
 * Starts the service (real process, fresh temp database, raised rate limits) and a bare baseline server,
 * drives both over keep-alive HTTP at 32 connections, counts signed webhooks at a local receiver, and
 * prints a table plus the service's rates as a percentage of the baseline. `--big` also seeds 1,000,000
 * orders and measures creation and GET /orders on that database. Results go to bench/results/latest.json.
 */
const CONNECTIONS = 32;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 6) * 1000;
const ADMIN = 'adm_bench_token_0123456789abcdef';
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

interface Result {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Req {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

async function load(name: string, origin: string, headers: Record<string, string>, make: (i: number) => Req, opts: { durationMs?: number; count?: number } = {}): Promise<Result> {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  const lat: number[] = [];
  let errors = 0;
  let i = 0;
  const deadline = performance.now() + (opts.durationMs ?? DURATION_MS);
  const start = performance.now();
  const worker = async () => {
    for (;;) {
      if (opts.count !== undefined ? i >= opts.count : performance.now() >= deadline) return;
      const r = make(i++);
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: r.method, path: r.path, body: r.body, headers: r.body ? { ...headers, 'content-type': 'application/json' } : headers });
        await res.body.dump();
        if (res.statusCode >= 300) errors++;
      } catch {
        errors++;
      }
      lat.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  lat.sort((a, b) => a - b);
  return { name, requests: lat.length, rps: lat.length / elapsed, p50: pct(lat, 50), p99: pct(lat, 99), errors };
}

async function waitReady(proc: ChildProcess, url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`process exited with ${proc.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready: ${url}`);
}

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function startService(dbPath: string, extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/results')}`] : [];
  const proc = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_PATH: dbPath,
      ADMIN_TOKEN: ADMIN,
      SANDBOX_DEMO: '0',
      LOG_LEVEL: 'error',
      API_RATE_LIMIT: '10000000',
      API_RATE_BURST: '10000000',
      WEBHOOK_ALLOW_SUBNETS: '127.0.0.1/32',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(proc, `${base}/healthz`);
  const admin = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${base}/api/admin/v1${p}`, { method, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return r.json() as Promise<any>;
  };
  return { proc, base, admin };
}

async function fundedPartner(admin: (m: string, p: string, b?: unknown) => Promise<any>, usd = '100000000.00') {
  const p = await admin('POST', '/partners', { name: 'bench' });
  await admin('POST', `/partners/${p.partner_id}/topups`, { currency: 'USD', amount: usd, network: 'ton', tx_hash: `bench-${crypto.randomUUID()}` });
  const k = await admin('POST', `/partners/${p.partner_id}/keys`, {});
  return { id: p.partner_id as number, key: k.api_key as string };
}

const orderBody = (key: string, recipient = 'bench_user') => JSON.stringify({ type: 'stars', idempotency_key: key, params: { quantity: 100, recipient } });

async function main() {
  const big = process.argv.includes('--big');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const results: Result[] = [];

  // --- the machine's limit -----------------------------------------------------------------------
  const basePort = await freePort();
  const baseline = spawn(process.execPath, ['--import', 'tsx', 'bench/baseline-server.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(basePort) }, stdio: 'ignore' });
  const baseOrigin = `http://127.0.0.1:${basePort}`;
  await waitReady(baseline, `${baseOrigin}/static`);
  const run = Date.now().toString(36);
  await load('warm-up', baseOrigin, {}, (i) => ({ method: 'POST', path: '/orders', body: orderBody(`w-${run}-${i}`) }), { durationMs: 1500 });
  const baseCreate = await load('baseline: order transaction', baseOrigin, {}, (i) => ({ method: 'POST', path: '/orders', body: orderBody(`b-${run}-${i}`) }));
  const baseGet = await load('baseline: bare GET', baseOrigin, {}, () => ({ method: 'GET', path: '/static' }));
  baseline.kill('SIGTERM');
  results.push(baseCreate, baseGet);

  // --- the service ---------------------------------------------------------------------------------
  const svc = await startService(path.join(dir, 'service.db'));
  const partner = await fundedPartner(svc.admin);
  const auth = { authorization: `Bearer ${partner.key}` };
  await load('warm-up', svc.base, auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`warm-${i}`) }), { durationMs: 1500 });
  const create = await load('service: create order', svc.base, auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`c-${i}`) }));
  // each phase starts settled: the deliveries of the orders created so far run now, not during the next phase
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  const first = await (await fetch(`${svc.base}/api/partner/v1/orders`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: orderBody('replay-1') })).json() as any;
  const replay = await load('service: replay one key', svc.base, auth, () => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody('replay-1') }));
  const read = await load('service: read one order', svc.base, auth, () => ({ method: 'GET', path: `/api/partner/v1/orders/${first.order_id}` }));
  const me = await load('service: GET /me', svc.base, auth, () => ({ method: 'GET', path: '/api/partner/v1/me' }));
  results.push(create, replay, read, me);

  // --- webhooks: 2,000 orders completed at once ---------------------------------------------------------
  let delivered = 0;
  let badSignature = 0;
  let secret = '';
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const ok = crypto.createHmac('sha256', secret).update(raw).digest('hex') === req.headers['x-signature'];
      if (ok && req.headers['x-webhook-event'] === 'order.completed') delivered++;
      else if (!ok) badSignature++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // let the orders of the load phases finish first, so the count below is of the 2,000 only
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  const hooked = await fundedPartner(svc.admin);
  secret = (await svc.admin('PUT', `/partners/${hooked.id}/webhook`, { url: hookUrl })).secret;
  await load('service: 2,000 orders (webhook run)', svc.base, { authorization: `Bearer ${hooked.key}` }, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`h-${i}`) }), { count: 2000 });
  const t0 = performance.now();
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 5 });
  while (delivered < 2000 && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 20));
  const webhookSeconds = (performance.now() - t0) / 1000;
  const webhooksPerSecond = delivered / webhookSeconds;
  receiver.close();
  const rss = rssMb(svc.proc.pid!);
  svc.proc.kill('SIGTERM');
  await new Promise((r) => svc.proc.once('exit', r));

  // --- a database of 1,000,000 orders ------------------------------------------------------------------
  let bigResults: Record<string, number> | null = null;
  if (big) {
    const bigDb = path.join(dir, 'big.db');
    const s0 = await startService(bigDb);
    const bp = await fundedPartner(s0.admin);
    s0.proc.kill('SIGTERM');
    await new Promise((r) => s0.proc.once('exit', r));
    const seedStart = performance.now();
    seedOrders(bigDb, bp.id, 1_000_000);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const s1 = await startService(bigDb);
    const a = { authorization: `Bearer ${bp.key}` };
    await load('warm-up', s1.base, a, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`bw-${i}`) }), { durationMs: 1500 });
    const bigCreate = await load('service: create order (1M orders)', s1.base, a, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`bc-${i}`) }));
    const bigList = await load('service: GET /orders page (1M orders)', s1.base, a, () => ({ method: 'GET', path: '/api/partner/v1/orders?limit=50' }));
    const deepCursor = Buffer.from('o:500000').toString('base64url');
    const bigDeep = await load('service: GET /orders deep page (1M)', s1.base, a, () => ({ method: 'GET', path: `/api/partner/v1/orders?limit=50&cursor=${deepCursor}` }));
    const bigFilter = await load('service: GET /orders?status=failed (1M)', s1.base, a, () => ({ method: 'GET', path: '/api/partner/v1/orders?limit=50&status=failed' }));
    s1.proc.kill('SIGTERM');
    await new Promise((r) => s1.proc.once('exit', r));
    // the same list on a small database, for comparison
    const s2 = await startService(path.join(dir, 'small.db'));
    const sp = await fundedPartner(s2.admin);
    const sa = { authorization: `Bearer ${sp.key}` };
    await load('seed small', s2.base, sa, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`s-${i}`) }), { count: 200 });
    const smallList = await load('service: GET /orders page (small db)', s2.base, sa, () => ({ method: 'GET', path: '/api/partner/v1/orders?limit=50' }));
    s2.proc.kill('SIGTERM');
    await new Promise((r) => s2.proc.once('exit', r));
    results.push(bigCreate, bigList, bigDeep, bigFilter, smallList);
    bigResults = {
      seed_seconds: seedSeconds,
      create_slowdown_pct: (1 - bigCreate.rps / create.rps) * 100,
      list_vs_small_pct: (bigList.rps / smallList.rps) * 100,
    };
  }

  // --- report -----------------------------------------------------------------------------------------
  const summary = {
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    connections: CONNECTIONS,
    duration_s: DURATION_MS / 1000,
    create_pct_of_limit: (create.rps / baseCreate.rps) * 100,
    create_p99_ms: create.p99,
    replay_pct_of_bare: (replay.rps / baseGet.rps) * 100,
    read_pct_of_bare: (read.rps / baseGet.rps) * 100,
    me_pct_of_bare: (me.rps / baseGet.rps) * 100,
    webhooks_per_second: webhooksPerSecond,
    webhooks_delivered: delivered,
    webhook_bad_signatures: badSignature,
    service_rss_mb: rss,
    big: bigResults,
  };
  const line = (r: Result) => `| ${r.name.padEnd(40)} | ${r.rps.toFixed(0).padStart(8)} | ${r.p50.toFixed(2).padStart(7)} | ${r.p99.toFixed(2).padStart(7)} | ${String(r.errors).padStart(6)} |`;
  console.log(`\n| ${'scenario'.padEnd(40)} | ${'req/s'.padStart(8)} | ${'p50 ms'.padStart(7)} | ${'p99 ms'.padStart(7)} | ${'errors'.padStart(6)} |`);
  console.log(`|${'-'.repeat(42)}|${'-'.repeat(10)}|${'-'.repeat(9)}|${'-'.repeat(9)}|${'-'.repeat(8)}|`);
  for (const r of results) console.log(line(r));
  const check = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`
create order: ${summary.create_pct_of_limit.toFixed(0)} % of the machine's limit (target ≥ 50 %: ${check(summary.create_pct_of_limit >= 50)}), p99 ${create.p99.toFixed(1)} ms (target ≤ 20 ms: ${check(create.p99 <= 20)})
replay: ${summary.replay_pct_of_bare.toFixed(0)} % of a bare route, read: ${summary.read_pct_of_bare.toFixed(0)} %, GET /me: ${summary.me_pct_of_bare.toFixed(0)} % (target ≥ 70 %: ${check(Math.min(summary.replay_pct_of_bare, summary.read_pct_of_bare, summary.me_pct_of_bare) >= 70)})
webhooks: ${delivered} signed order.completed in ${webhookSeconds.toFixed(2)} s = ${webhooksPerSecond.toFixed(0)}/s (target ≥ 1000/s: ${check(webhooksPerSecond >= 1000)}), bad signatures ${badSignature}
service RSS after the run: ${rss.toFixed(0)} MB (target < 200 MB: ${check(rss < 200)})${bigResults ? `
1,000,000 orders: creation ${bigResults.create_slowdown_pct.toFixed(1)} % slower (target < 10 %: ${check(bigResults.create_slowdown_pct < 10)}), GET /orders at ${bigResults.list_vs_small_pct.toFixed(0)} % of the small-database rate (seeded in ${bigResults.seed_seconds.toFixed(0)} s)` : ''}
`);
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results/latest.json'), JSON.stringify({ at: new Date().toISOString(), summary, results }, null, 2));
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
