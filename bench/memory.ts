import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DURATION_MS, ROOT, fundedPartner, load, median, orderBody, startService, completedCounter } from './lib.js';

/**
 * Where the service's resident memory goes: `npx tsx bench/memory.ts [--heap]` starts the service as
 * `npm run bench` does and runs the same service phases in the same order (creation with its warm-up,
 * replays, reads, GET /me, 2,000 orders completed at once with their webhooks), printing the process's
 * resident memory after start-up and after each phase, split as /proc/<pid>/smaps_rollup splits it
 * (anonymous: the JavaScript heap, malloc's arenas, SQLite's page cache; file: the mapped code of node and
 * of the native modules), with the V8 heap's pages and the main malloc arena (where SQLite's page cache
 * lives) apart. The last figure is the one `npm run bench` reports. With --heap the service also
 * prints its V8 heap figures at each step (a preloaded signal handler, bench/heap-report.cjs). With
 * --idle[=seconds] (default 40) the service is then left idle and its RSS and V8's pages are printed each
 * second: V8's memory reducer gives memory back only some seconds after the last full collection (8 s
 * after it, then every 8 s until the allocation rate is low).
 */
function rollup(pid: number): { rss: number; anon: number; file: number; v8Pages: number; mainArena: number } {
  const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) / 1024;
  // by mapping: V8 maps its heap in 256 KB pages; the main thread's malloc arena (SQLite's page cache and
  // most native allocations) is the [heap] mapping
  let v8Pages = 0;
  let mainArena = 0;
  let current: { size: number; name: string } | null = null;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const map = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (map) current = { size: (parseInt(map[2], 16) - parseInt(map[1], 16)) / 1024, name: map[3].trim() };
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) {
      if (current.name === '[heap]') mainArena += Number(rss[1]) / 1024;
      else if (current.name === '' && current.size === 256) v8Pages += Number(rss[1]) / 1024;
    }
  }
  return { rss: kb('Rss'), anon: kb('Anonymous'), file: kb('Rss') - kb('Anonymous'), v8Pages, mainArena };
}

const format = (step: string, m: ReturnType<typeof rollup>) =>
  `${step.padEnd(28)} RSS ${m.rss.toFixed(1)} MB (anonymous ${m.anon.toFixed(1)}: V8's pages ${m.v8Pages.toFixed(1)}, main malloc arena ${m.mainArena.toFixed(1)}; file ${m.file.toFixed(1)})`;

/** `--startup`: start-up alone, five times (it varies by a few MB): each run and the median. */
async function startupOnly(heap: boolean) {
  const figures: number[] = [];
  for (let i = 0; i < 5; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
    const svc = await startService(path.join(dir, 'service.db'));
    await new Promise((r) => setTimeout(r, 500));
    const m = rollup(svc.proc.pid!);
    figures.push(m.rss);
    console.log(format('after start-up', m));
    if (heap) {
      process.kill(svc.proc.pid!, 'SIGUSR2');
      await new Promise((r) => setTimeout(r, 300));
    }
    svc.proc.kill('SIGTERM');
    await new Promise((r) => svc.proc.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`median after start-up: ${median(figures).toFixed(1)} MB`);
}

async function main() {
  const heap = process.argv.includes('--heap');
  if (heap) process.env.BENCH_NODE_FLAGS = `${process.env.BENCH_NODE_FLAGS ?? ''} --require ${path.join(ROOT, 'bench/heap-report.cjs')}`;
  if (process.argv.includes('--startup')) return startupOnly(heap);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  const svc = await startService(path.join(dir, 'service.db'));
  const pid = svc.proc.pid!;
  const report = async (step: string) => {
    const m = rollup(pid);
    const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size / 1048576 : 0);
    const db = path.join(dir, 'service.db');
    console.log(`${format(step, m)}; database ${size(db).toFixed(1)} MB, WAL ${size(`${db}-wal`).toFixed(1)} MB`);
    if (heap) {
      process.kill(pid, 'SIGUSR2');
      await new Promise((r) => setTimeout(r, process.env.BENCH_HEAP_SNAPSHOTS ? 8000 : 300));
    }
  };
  await new Promise((r) => setTimeout(r, 500));
  await report('after start-up');
  const partner = await fundedPartner(svc.admin);
  const auth = { authorization: `Bearer ${partner.key}` };
  const base = '/api/partner/v1';
  await load('warm-up', svc.base, auth, (i) => ({ method: 'POST', path: `${base}/orders`, body: orderBody(`warm-${i}`) }), { durationMs: 4000 });
  const create = await load('create', svc.base, auth, (i) => ({ method: 'POST', path: `${base}/orders`, body: orderBody(`c-${i}`) }));
  await report(`after creation (${create.requests})`);
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  const first = (await (await fetch(`${svc.base}${base}/orders`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: orderBody('replay-1') })).json()) as { order_id: string };
  await load('replay', svc.base, auth, () => ({ method: 'POST', path: `${base}/orders`, body: orderBody('replay-1') }), { durationMs: DURATION_MS / 3 });
  await load('read', svc.base, auth, () => ({ method: 'GET', path: `${base}/orders/${first.order_id}` }), { durationMs: DURATION_MS / 3 });
  await load('me', svc.base, auth, () => ({ method: 'GET', path: `${base}/me` }), { durationMs: DURATION_MS / 3 });
  await report('after replays and reads');

  const receiver = await completedCounter();
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  const hooked = await fundedPartner(svc.admin);
  await svc.admin('PUT', `/partners/${hooked.id}/webhook`, { url: receiver.url });
  await load('orders', svc.base, { authorization: `Bearer ${hooked.key}` }, (i) => ({ method: 'POST', path: `${base}/orders`, body: orderBody(`h-${i}`) }), { count: 2000 });
  const t0 = performance.now();
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 5 });
  while (receiver.delivered() < 2000 && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 20));
  await report(`after ${receiver.delivered()} webhooks`);
  const idleArg = process.argv.find((a) => a.startsWith('--idle'));
  if (idleArg) {
    const seconds = Number(idleArg.split('=')[1] ?? 40);
    const curve: string[] = [];
    for (let s = 1; s <= seconds; s++) {
      await new Promise((r) => setTimeout(r, 1000));
      const m = rollup(pid);
      curve.push(`${m.rss.toFixed(0)}/${m.v8Pages.toFixed(0)}`);
    }
    console.log(`idle, RSS/V8's pages in MB each second: ${curve.join(' ')}`);
  }
  receiver.close();
  svc.proc.kill('SIGTERM');
  await new Promise((r) => svc.proc.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
