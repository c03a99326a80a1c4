import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

/** What the benchmark scripts share: the load generator, the service as a real process, a funded partner. */
export const CONNECTIONS = 32;
export const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 6) * 1000;
export const ADMIN = 'adm_bench_token_0123456789abcdef';
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export interface Result {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  seconds?: number;
  /** sorted; left out of the JSON report */
  latencies?: number[];
}

/** Several runs of one scenario as one result (requests and time added up, percentiles over all requests). */
export function merge(name: string, runs: Result[]): Result {
  const lat = runs.flatMap((r) => r.latencies ?? []).sort((a, b) => a - b);
  const seconds = runs.reduce((a, r) => a + (r.seconds ?? 0), 0);
  return { name, requests: lat.length, rps: lat.length / seconds, p50: pct(lat, 50), p99: pct(lat, 99), errors: runs.reduce((a, r) => a + r.errors, 0), seconds };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface Req {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

/**
 * Drives `origin` at CONNECTIONS keep-alive connections for `durationMs` (or until `count` answers) and
 * returns the rate and latencies. The load comes from autocannon, Fastify's own benchmarking tool: it writes
 * each request from a prepared buffer and counts answers without building header objects, so it does not
 * saturate its core before the server under test does. (An undici pool did, at ~50,000 reads a second:
 * the servers then idled at 75-85 % of a core, and the figures measured the client, not the service.)
 * A request that does not depend on its index (the same `make(0)` and `make(1)`) is built once.
 */
export async function load(name: string, origin: string, headers: Record<string, string>, make: (i: number) => Req, opts: { durationMs?: number; count?: number } = {}): Promise<Result> {
  const lat: number[] = [];
  const withBody = (r: Req) => ({ method: r.method, path: r.path, body: r.body, headers: r.body ? { ...headers, 'content-type': 'application/json' } : headers });
  const first = make(0);
  const fixed = JSON.stringify(first) === JSON.stringify(make(1));
  let i = 0;
  const requests = fixed ? [withBody(first)] : [{ setupRequest: (req: object) => ({ ...req, ...withBody(make(i++)) }) }];
  const out = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections: CONNECTIONS,
        pipelining: 1,
        ...(opts.count !== undefined ? { amount: opts.count } : { duration: (opts.durationMs ?? DURATION_MS) / 1000 }),
        requests: requests as autocannon.Request[],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => lat.push(responseTime));
  });
  const elapsed = (out.finish.getTime() - out.start.getTime()) / 1000;
  lat.sort((a, b) => a - b);
  return { name, requests: lat.length, rps: lat.length / elapsed, p50: pct(lat, 50), p99: pct(lat, 99), errors: out.errors + out.non2xx, seconds: elapsed, latencies: lat };
}

export async function waitReady(proc: ChildProcess, url: string): Promise<void> {
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

export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

let built = false;
function buildOnce(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}

export async function startService(dbPath: string, extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/results')}`] : [];
  // as `npm start` runs it (package.json: the compiled build, an 8 MB young generation); BENCH_NODE_FLAGS
  // adds node flags to try out
  buildOnce();
  const flags = ['--max-semi-space-size=8', ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
  const proc = spawn(process.execPath, [...flags, ...profile, 'dist/src/main.js'], {
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

export async function fundedPartner(admin: (m: string, p: string, b?: unknown) => Promise<any>, usd = '100000000.00') {
  const p = await admin('POST', '/partners', { name: 'bench' });
  await admin('POST', `/partners/${p.partner_id}/topups`, { currency: 'USD', amount: usd, network: 'ton', tx_hash: `bench-${crypto.randomUUID()}` });
  const k = await admin('POST', `/partners/${p.partner_id}/keys`, {});
  return { id: p.partner_id as number, key: k.api_key as string };
}

export const orderBody = (key: string, recipient = 'bench_user') => JSON.stringify({ type: 'stars', idempotency_key: key, params: { quantity: 100, recipient } });


/**
 * Waits until the process `pid` has gone quiet: the sandbox's clock advance returns at once, while the
 * deliveries and outcomes it made due still run for a while; a phase measured before they finish measures
 * them too. Quiet: at most one clock tick (10 ms) of CPU in each of two 200 ms samples in a row (at most
 * `maxMs`).
 */
export async function settled(pid: number, maxMs = 30_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let quiet = 0;
  while (quiet < 2 && Date.now() < deadline) {
    const c0 = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 200));
    quiet = cpuMs(pid) - c0 <= 10 ? quiet + 1 : 0;
  }
}

/** CPU time (user + system, ms) a process has used so far, from /proc. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/**
 * A local webhook receiver that counts the `order.completed` events it is sent (204 to each): the fan-out
 * phase of bench/phase.ts and bench/memory.ts. `url` is its address for PUT /partners/{id}/webhook.
 */
export async function completedCounter(): Promise<{ url: string; delivered: () => number; close: () => void }> {
  let delivered = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers['x-webhook-event'] === 'order.completed') delivered++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, delivered: () => delivered, close: () => receiver.close() };
}
