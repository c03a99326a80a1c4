import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuMs, fundedPartner, load, orderBody, rssMb, startService } from './lib.js';

/**
 * One scenario of the benchmark alone, for profiling: `npx tsx bench/phase.ts create|replay|read|me [--profile]`.
 * With --profile the service writes a CPU profile to bench/results/ (read it with bench/profile-top.ts).
 */
async function main() {
  const phase = process.argv[2] ?? 'create';
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
