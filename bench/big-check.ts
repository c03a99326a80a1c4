import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DURATION_MS, cpuMs, fundedPartner, load, median, orderBody, startService } from './lib.js';
import { copyDatabase, seededDatabase } from './seed.js';

/**
 * The large-database check, cheaper than `npm run bench -- --big`: `npx tsx bench/big-check.ts [rounds] [orders]`.
 *
 * Seeds a database of 1,000,000 orders once (kept in the system's temp folder, see bench/seed.ts), starts
 * the service on a copy of it and on a small database, and creates orders on both in alternating rounds
 * (the same load as the --big run: 32 connections, each round settled by advancing the clock). Per round
 * and side it prints the rate and, from /proc, the service's CPU time and its read and write system calls
 * per order, the order's delivery and outcome included: the CPU time hardly moves with other load on the
 * machine, and SQLite reads a page it does not hold in its page cache with one read call, so the reads per
 * order show the cache's misses.
 */
interface Io {
  syscr: number;
  syscw: number;
  rchar: number;
  wchar: number;
}
function io(pid: number): Io {
  const t = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
  const f = (k: string) => Number(new RegExp(`${k}: (\\d+)`).exec(t)![1]);
  return { syscr: f('syscr'), syscw: f('syscw'), rchar: f('rchar'), wchar: f('wchar') };
}

/** User and system CPU time (ms) a process has used so far, from /proc. */
function cpuSplit(pid: number): { user: number; sys: number } {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: (Number(f[11]) * 1000) / 100, sys: (Number(f[12]) * 1000) / 100 };
}

/** Waits until the process has been idle (under 5 ms of CPU in 200 ms) twice in a row: its deliveries ran. */
async function settled(pid: number): Promise<void> {
  let quiet = 0;
  for (let i = 0; i < 100 && quiet < 2; i++) {
    const c0 = cpuMs(pid);
    await sleep(200);
    quiet = cpuMs(pid) - c0 < 5 ? quiet + 1 : 0;
  }
}

async function main() {
  const rounds = Number(process.argv[2] ?? 5);
  const count = Number(process.argv[3] ?? 1_000_000);
  const t0 = Date.now();
  const seeded = await seededDatabase(count, async (file) => {
    const s = await startService(file);
    const p = await fundedPartner(s.admin);
    s.proc.kill('SIGTERM');
    await new Promise((r) => s.proc.once('exit', r));
    return p;
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'big-check-'));
  const bigFile = copyDatabase(seeded.file, dir, 'big.db');
  console.log(`seeded database of ${count.toLocaleString('en')} orders ready (copied) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const sBig = await startService(bigFile);
  const sSmall = await startService(path.join(dir, 'small.db'));
  const sp = await fundedPartner(sSmall.admin);
  const sides = [
    { name: 'small', svc: sSmall, auth: { authorization: `Bearer ${sp.key}` } },
    { name: 'big', svc: sBig, auth: { authorization: `Bearer ${seeded.key}` } },
  ];
  try {
    await load('seed small', sSmall.base, sides[0].auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`s-${i}`) }), { count: 200 });
    for (const side of sides) {
      await load('warm-up', side.svc.base, side.auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`w-${side.name}-${i}`) }), { durationMs: 1500 });
      await side.svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
      await settled(side.svc.proc.pid!);
    }
    const slice = { durationMs: (2 * DURATION_MS) / 5 };
    const per: Record<string, { rps: number[]; cpu: number[]; reads: number[]; writes: number[]; readKb: number[] }> = {};
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...sides].reverse() : sides;
      for (const side of order) {
        const pid = side.svc.proc.pid!;
        const c0 = cpuMs(pid);
        const s0 = cpuSplit(pid);
        const i0 = io(pid);
        const r = await load(`create (${side.name})`, side.svc.base, side.auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`b${round}-${i}`) }), slice);
        await side.svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
        await settled(pid);
        const cpu = ((cpuMs(pid) - c0) * 1000) / r.requests;
        const sys = ((cpuSplit(pid).sys - s0.sys) * 1000) / r.requests;
        const i1 = io(pid);
        const p = (per[side.name] ??= { rps: [], cpu: [], reads: [], writes: [], readKb: [] });
        p.rps.push(r.rps);
        p.cpu.push(cpu);
        p.reads.push((i1.syscr - i0.syscr) / r.requests);
        p.writes.push((i1.syscw - i0.syscw) / r.requests);
        p.readKb.push((i1.rchar - i0.rchar) / 1024 / r.requests);
        console.log(`round ${round + 1} ${side.name.padEnd(5)}: ${r.rps.toFixed(0).padStart(5)}/s, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}, CPU ${cpu.toFixed(0)} µs/order (system ${sys.toFixed(0)}), read calls ${p.reads.at(-1)!.toFixed(2)}/order (${p.readKb.at(-1)!.toFixed(1)} KB), write calls ${p.writes.at(-1)!.toFixed(2)}/order`);
      }
    }
    const m = (k: 'rps' | 'cpu' | 'reads' | 'writes' | 'readKb', s: string) => median(per[s][k]);
    const rateRatio = median(per.big.rps.map((x, i) => x / per.small.rps[i])) * 100;
    console.log(`\nmedians: small ${m('rps', 'small').toFixed(0)}/s, ${m('cpu', 'small').toFixed(0)} µs/order, ${m('reads', 'small').toFixed(2)} reads/order; big ${m('rps', 'big').toFixed(0)}/s, ${m('cpu', 'big').toFixed(0)} µs/order, ${m('reads', 'big').toFixed(2)} reads/order`);
    console.log(`1M orders: rate ${(100 - rateRatio).toFixed(1)} % lower (median of per-round ratios); CPU per order ${((m('cpu', 'big') / m('cpu', 'small') - 1) * 100).toFixed(1)} % higher`);
  } finally {
    for (const side of sides) {
      side.svc.proc.kill('SIGTERM');
      await new Promise((r) => side.svc.proc.once('exit', r));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
