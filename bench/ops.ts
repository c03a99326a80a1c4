import { spawn } from 'node:child_process';
import path from 'node:path';
import { DURATION_MS, ROOT, cpuMs, fundedPartner, load, median, orderBody, startService, type Result } from './lib.js';

/**
 * Operations costs measured by npm run bench (README "Operations").
 *
 * metricsOverhead: the create rate of a service with metrics on (METRICS_TOKEN, scraped every second
 * during the load, far more often than Prometheus would) against one with metrics off, side by side in
 * alternating rounds; the figure is the median of the per-round ratios, and the spread of the rounds is
 * reported as the noise. On a machine shared with other work the rates swing far more than 3 % between
 * rounds, so the service's CPU time per created order (from /proc, scrapes included) is compared too:
 * while the service is CPU-bound its rate is the inverse of that cost, and the cost does not depend on
 * what else the machine runs.
 */
export async function metricsOverhead(dir: string, rounds = 5): Promise<{ ratioPct: number; roundsPct: number[]; cpuUsPerOrder: { off: number; on: number }; cpuRatioPct: number; results: Result[] }> {
  const token = 'bench_metrics_token_0123456789';
  const off = await startService(path.join(dir, 'metrics-off.db'));
  const on = await startService(path.join(dir, 'metrics-on.db'), { METRICS_TOKEN: token });
  const sides = [
    { name: 'metrics off', svc: off, auth: { authorization: `Bearer ${(await fundedPartner(off.admin)).key}` }, scrape: false },
    { name: 'metrics on', svc: on, auth: { authorization: `Bearer ${(await fundedPartner(on.admin)).key}` }, scrape: true },
  ];
  for (const s of sides) {
    await load('warm-up', s.svc.base, s.auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`w-${i}`) }), { durationMs: 4000 });
    await s.svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  }
  const runs: Record<string, Result[]> = { 'metrics off': [], 'metrics on': [] };
  const cpu: Record<string, { ms: number; requests: number }> = { 'metrics off': { ms: 0, requests: 0 }, 'metrics on': { ms: 0, requests: 0 } };
  const slice = { durationMs: (2 * DURATION_MS) / rounds };
  for (let round = 0; round < rounds; round++) {
    // alternate which side goes first, so that a drift of the machine does not favour one side
    const order = round % 2 ? [...sides].reverse() : sides;
    for (const s of order) {
      let scraping = true;
      const scraper = s.scrape
        ? (async () => {
            while (scraping) {
              await (await fetch(`${s.svc.base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
              await new Promise((r) => setTimeout(r, 1000));
            }
          })()
        : Promise.resolve();
      const cpu0 = cpuMs(s.svc.proc.pid!);
      const r = await load(`service: create order (${s.name})`, s.svc.base, s.auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`m${round}-${i}`) }), slice);
      runs[s.name].push(r);
      scraping = false;
      await scraper;
      // the orders' deliveries and outcomes belong to their cost too
      await s.svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
      cpu[s.name].ms += cpuMs(s.svc.proc.pid!) - cpu0;
      cpu[s.name].requests += r.requests;
    }
  }
  for (const s of sides) {
    s.svc.proc.kill('SIGTERM');
    await new Promise((r) => s.svc.proc.once('exit', r));
  }
  const roundsPct = runs['metrics on'].map((r, i) => (r.rps / runs['metrics off'][i].rps) * 100);
  const per = (k: string) => (cpu[k].ms * 1000) / cpu[k].requests;
  const cpuUsPerOrder = { off: per('metrics off'), on: per('metrics on') };
  return { ratioPct: median(roundsPct), roundsPct, cpuUsPerOrder, cpuRatioPct: (cpuUsPerOrder.off / cpuUsPerOrder.on) * 100, results: [...runs['metrics off'], ...runs['metrics on']] };
}

/**
 * snapshotDuringCreate: on the 1,000,000-order database, the create rate while `npm run backup` (VACUUM
 * INTO from its own process, then its checks at BACKUP_CPU_SHARE) runs, against the rate in the windows
 * just before and just after it (BENCH_SNAPSHOT_REF_SECONDS each, default 30: long enough that the
 * machine's drift, a third from one second to the next here, averages out; the snapshot lasts minutes).
 */
const REFERENCE_MS = Number(process.env.BENCH_SNAPSHOT_REF_SECONDS ?? 30) * 1000;

export async function snapshotDuringCreate(
  svc: { base: string; admin: (m: string, p: string, b?: unknown) => Promise<any> },
  auth: Record<string, string>,
  dbPath: string,
  dest: string,
): Promise<{ beforeRps: number; duringRps: number; afterRps: number; snapshotSeconds: number; slowdownPct: number; backupOutput: string }> {
  const make = (tag: string) => (i: number) => ({ method: 'POST' as const, path: '/api/partner/v1/orders', body: orderBody(`snap-${tag}-${i}`) });
  const before = await load('service: create order (1M, before snapshot)', svc.base, auth, make('b'), { durationMs: REFERENCE_MS });
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  const t0 = Date.now();
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/ops/backup-cli.ts', dest], { cwd: ROOT, env: { ...process.env, DATABASE_PATH: dbPath }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const done = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  let finished = false;
  void done.then(() => (finished = true));
  // load in slices until the backup process has finished
  const during: Result[] = [];
  while (!finished) during.push(await load('service: create order (1M, during snapshot)', svc.base, auth, make(`d${during.length}`), { durationMs: 1000 }));
  const code = await done;
  const snapshotSeconds = (Date.now() - t0) / 1000;
  if (code !== 0) throw new Error(`backup failed: ${out}`);
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  const after = await load('service: create order (1M, after snapshot)', svc.base, auth, make('a'), { durationMs: REFERENCE_MS });
  const req = during.reduce((a, r) => a + r.requests, 0);
  const secs = during.reduce((a, r) => a + (r.seconds ?? 0), 0);
  const duringRps = req / secs;
  const ref = (before.rps + after.rps) / 2;
  return { beforeRps: before.rps, duringRps, afterRps: after.rps, snapshotSeconds, slowdownPct: (1 - duringRps / ref) * 100, backupOutput: out.trim() };
}
