import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, cpuMs, freePort, fundedPartner, load, orderBody, rssMb, startService, waitReady, completedCounter } from './lib.js';

/**
 * One scenario of the benchmark alone, for profiling: `npx tsx bench/phase.ts create|replay|read|me|list|healthz|webhooks|bare-create|bare-get|bare-post|bare-order|bare-me [--profile]`.
 * With --profile the service writes a CPU profile to bench/results/ (read it with bench/profile-top.ts).
 */
/** The bare baseline's scenarios (bench/baseline-server.ts), for the same CPU-per-request figure. */
async function bare(phase: string, profile: boolean) {
  const port = await freePort();
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/results')}`] : [];
  const proc = spawn(process.execPath, [...flags, '--import', 'tsx', 'bench/baseline-server.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(proc, `${origin}/static`);
  const make = {
    'bare-create': (i: number) => ({ method: 'POST' as const, path: '/orders', body: orderBody(`b-${i}`) }),
    'bare-get': () => ({ method: 'GET' as const, path: '/static' }),
    'bare-post': () => ({ method: 'POST' as const, path: '/echo', body: orderBody('replay-1') }),
    'bare-order': () => ({ method: 'GET' as const, path: '/same/order' }),
    'bare-me': () => ({ method: 'GET' as const, path: '/same/me' }),
  }[phase]!;
  if (phase === 'bare-order' || phase === 'bare-me') await putSameJson(origin);
  await load('warm-up', origin, {}, (i) => make(i + 1e9), { durationMs: 1500 });
  const cpu0 = cpuMs(proc.pid!);
  const r = await load(phase, origin, {}, make);
  const cpuPerRequest = ((cpuMs(proc.pid!) - cpu0) * 1000) / r.requests;
  console.log(`${phase}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}, CPU ${cpuPerRequest.toFixed(1)} µs/request, RSS ${rssMb(proc.pid!).toFixed(0)} MB`);
  proc.kill('SIGTERM');
  await new Promise((res) => proc.once('exit', res));
}

/**
 * bare-order and bare-me serve the same JSON as the service's GET /orders/{id} and GET /me: a service is
 * started once to make them (an order created, the account read), put on the bare server, and stopped.
 */
async function putSameJson(origin: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-phase-'));
  const svc = await startService(path.join(dir, 'service.db'));
  const partner = await fundedPartner(svc.admin);
  const headers = { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' };
  const order = await (await fetch(`${svc.base}/api/partner/v1/orders`, { method: 'POST', headers, body: orderBody('replay-1') })).json();
  const me = await (await fetch(`${svc.base}/api/partner/v1/me`, { headers })).json();
  svc.proc.kill('SIGTERM');
  await new Promise((res) => svc.proc.once('exit', res));
  fs.rmSync(dir, { recursive: true, force: true });
  await fetch(`${origin}/same`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order, me }) });
}

/** 2,000 orders of a partner with a webhook completed at once, as npm run bench measures it. */
async function webhooks(svc: Awaited<ReturnType<typeof startService>>, dir: string) {
  const receiver = await completedCounter();
  const hooked = await fundedPartner(svc.admin);
  await svc.admin('PUT', `/partners/${hooked.id}/webhook`, { url: receiver.url });
  const auth = { authorization: `Bearer ${hooked.key}` };
  await load('orders', svc.base, auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`h-${i}`) }), { count: 2000 });
  const cpu0 = cpuMs(svc.proc.pid!);
  const t0 = performance.now();
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 5 });
  while (receiver.delivered() < 2000 && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMs(svc.proc.pid!) - cpu0;
  const delivered = receiver.delivered();
  console.log(`webhooks: ${delivered} in ${seconds.toFixed(2)} s = ${(delivered / seconds).toFixed(0)}/s, service CPU ${((cpu * 1000) / Math.max(1, delivered)).toFixed(0)} µs per order completed and delivered, RSS ${rssMb(svc.proc.pid!).toFixed(0)} MB`);
  receiver.close();
  svc.proc.kill('SIGTERM');
  await new Promise((res) => svc.proc.once('exit', res));
  fs.rmSync(dir, { recursive: true, force: true });
}

async function main() {
  const phase = process.argv[2] ?? 'create';
  if (phase.startsWith('bare-')) return bare(phase, process.argv.includes('--profile'));
  if (process.argv.includes('--profile')) process.env.BENCH_PROFILE = '1';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-phase-'));
  const svc = await startService(path.join(dir, 'service.db'));
  const partner = await fundedPartner(svc.admin);
  const auth = { authorization: `Bearer ${partner.key}` };
  const base = '/api/partner/v1';
  const first = (await (await fetch(`${svc.base}${base}/orders`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: orderBody('replay-1') })).json()) as { order_id: string };
  if (phase === 'list') await load('seed', svc.base, auth, (i) => ({ method: 'POST', path: `${base}/orders`, body: orderBody(`s-${i}`) }), { count: 200 });
  const scenarios = {
    create: (i: number) => ({ method: 'POST' as const, path: `${base}/orders`, body: orderBody(`c-${i}`) }),
    replay: () => ({ method: 'POST' as const, path: `${base}/orders`, body: orderBody('replay-1') }),
    read: () => ({ method: 'GET' as const, path: `${base}/orders/${first.order_id}` }),
    me: () => ({ method: 'GET' as const, path: `${base}/me` }),
    healthz: () => ({ method: 'GET' as const, path: '/healthz' }),
    list: () => ({ method: 'GET' as const, path: `${base}/orders?limit=50` }),
  };
  if (phase === 'webhooks') return webhooks(svc, dir);
  const make = scenarios[phase as keyof typeof scenarios];
  if (!make) throw new Error(`unknown phase ${phase}`);
  // warm-up: JIT, and for creation the steady state (longer than the sandbox's 3 s delivery time)
  await load('warm-up', svc.base, auth, phase === 'create' ? (i) => scenarios.create(i + 1e9) : make, { durationMs: phase === 'create' ? 4000 : 1500 });
  const cpu0 = cpuMs(svc.proc.pid!);
  const r = await load(phase, svc.base, auth, make);
  const cpuPerRequest = ((cpuMs(svc.proc.pid!) - cpu0) * 1000) / r.requests;
  console.log(`${phase}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}, service CPU ${cpuPerRequest.toFixed(1)} µs/request, RSS ${rssMb(svc.proc.pid!).toFixed(0)} MB`);
  svc.proc.kill('SIGTERM');
  await new Promise((res) => svc.proc.once('exit', res));
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
