import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fundedPartner, load, orderBody, startService } from './lib.js';
import { snapshotDuringCreate } from './ops.js';
import { seedOrders } from './seed.js';

/**
 * The snapshot part of `npm run bench -- --big` alone: `npx tsx bench/snapshot.ts [orders]` seeds a
 * database of 1,000,000 orders (or the count given), and measures the create rate while `npm run backup`
 * snapshots it, against the rate just before and just after.
 */
async function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-snap-'));
  const db = path.join(dir, 'big.db');
  const s0 = await startService(db);
  const p = await fundedPartner(s0.admin);
  s0.proc.kill('SIGTERM');
  await new Promise((r) => s0.proc.once('exit', r));
  seedOrders(db, p.id, count);
  const svc = await startService(db);
  const auth = { authorization: `Bearer ${p.key}` };
  await load('warm-up', svc.base, auth, (i) => ({ method: 'POST', path: '/api/partner/v1/orders', body: orderBody(`w-${i}`) }), { durationMs: 4000 });
  await svc.admin('POST', '/sandbox/clock/advance', { seconds: 10 });
  const r = await snapshotDuringCreate(svc, auth, db, path.join(dir, 'backup', 'snapshot.db'));
  console.log(`${count} orders, database ${(fs.statSync(db).size / 2 ** 20).toFixed(0)} MB, snapshot ${r.snapshotSeconds.toFixed(1)} s: create ${r.duringRps.toFixed(0)}/s during, ${r.beforeRps.toFixed(0)}/s before, ${r.afterRps.toFixed(0)}/s after: ${r.slowdownPct.toFixed(1)} % lower (target ≤ 20 %)`);
  console.log(r.backupOutput);
  svc.proc.kill('SIGTERM');
  await new Promise((res) => svc.proc.once('exit', res));
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
