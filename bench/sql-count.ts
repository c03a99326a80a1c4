import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config/env.js';
import { silentLogger } from '../src/kernel/log.js';
import { createService } from '../src/service.js';
import { startService, fundedPartner } from './lib.js';
import { copyDatabase, seededDatabase } from './seed.js';

/**
 * Counts the SQL statements the service runs per created Stars order (its request) and per completed order
 * (its delivery and outcome), by statement text: `npx tsx bench/sql-count.ts [orders]`. Counting work,
 * unlike timing it, does not move with other load on the machine. Triggers' statements are not counted
 * (SQLite runs them inside the statement that fires them).
 *
 * `--seeded` runs it on a copy of a database of 1,000,000 seeded orders (bench/seed.ts; made once and kept),
 * as the seeded partner, in waves of 32 orders (the load's 32 connections), and also lists the pages the
 * creations wrote to the WAL, by b-tree (checkpoints held off while counting): a b-tree whose inserts land
 * at random places dirties pages all over it, and a large one cannot keep them in the page cache. Compare
 * with `--waves` (the same waves on a fresh database).
 */
const counts = new Map<string, number>();
const times = new Map<string, number>();
let counting = false;
const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
for (const m of ['run', 'get', 'all', 'iterate'] as const) {
  const orig = proto[m];
  proto[m] = function (this: { source: string }, ...args: unknown[]) {
    if (!counting) return orig.apply(this, args);
    counts.set(this.source, (counts.get(this.source) ?? 0) + 1);
    const t0 = process.hrtime.bigint();
    try {
      return orig.apply(this, args);
    } finally {
      times.set(this.source, (times.get(this.source) ?? 0) + Number(process.hrtime.bigint() - t0) / 1000);
    }
  };
}
const dbProto = Database.prototype as unknown as { exec: (s: string) => unknown };
const origExec = dbProto.exec;
dbProto.exec = function (this: unknown, s: string) {
  if (counting) counts.set(`exec: ${s}`, (counts.get(`exec: ${s}`) ?? 0) + 1);
  return origExec.call(this, s);
};

/** Read system calls of this process so far: SQLite reads each page missing from its page cache with one. */
const readCalls = () => Number(/syscr: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))![1]);
let reads0 = readCalls();

function dump(title: string, n: number) {
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, c]) => s + c, 0);
  const time = [...times.values()].reduce((s, t) => s + t, 0);
  const reads = readCalls() - reads0;
  console.log(`\n== ${title}: ${(total / n).toFixed(2)} statements per order, ${(time / n).toFixed(1)} µs in them, ${(reads / n).toFixed(2)} read calls per order`);
  for (const [sql, c] of rows) console.log(`${(c / n).toFixed(2).padStart(6)} ${((times.get(sql) ?? 0) / n).toFixed(1).padStart(7)} µs  ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
  counts.clear();
  times.clear();
  reads0 = readCalls();
}

/** Pages written to the WAL since it was last reset, by b-tree: frames, distinct pages, and pages per commit. */
function walPages(client: Database.Database, walFile: string, orders: number) {
  const buf = fs.readFileSync(walFile);
  const pageSize = buf.readUInt32BE(8);
  const frames: { page: number; commit: boolean }[] = [];
  for (let off = 32; off + 24 + pageSize <= buf.length; off += 24 + pageSize) frames.push({ page: buf.readUInt32BE(off), commit: buf.readUInt32BE(off + 4) !== 0 });
  const owner = new Map<number, string>();
  for (const r of client.prepare('select name, pageno from dbstat').iterate() as Iterable<{ name: string; pageno: number }>) owner.set(r.pageno, r.name);
  const by = new Map<string, { frames: number; pages: Set<number> }>();
  let commits = 0;
  for (const f of frames) {
    const name = owner.get(f.page) ?? '(free or new)';
    const e = by.get(name) ?? { frames: 0, pages: new Set<number>() };
    e.frames++;
    e.pages.add(f.page);
    by.set(name, e);
    if (f.commit) commits++;
  }
  console.log(`\n== WAL: ${frames.length} frames in ${commits} commits for ${orders} orders (${(frames.length / orders).toFixed(2)} pages written per order, ${(frames.length / Math.max(1, commits)).toFixed(1)} per commit)`);
  for (const [name, e] of [...by.entries()].sort((a, b) => b[1].frames - a[1].frames)) {
    console.log(`${(e.frames / orders).toFixed(3).padStart(7)} pages/order ${String(e.pages.size).padStart(6)} distinct  ${name}`);
  }
  // what the checkpoint of these frames costs (the service's automatic checkpoints run inside a COMMIT)
  const t0 = process.hrtime.bigint();
  client.pragma('wal_checkpoint(PASSIVE)');
  console.log(`checkpoint of these frames: ${(Number(process.hrtime.bigint() - t0) / 1000 / orders).toFixed(1)} µs per order (${new Set(frames.map((f) => f.page)).size} distinct pages)`);
}

async function main() {
  const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 200);
  const seededMode = process.argv.includes('--seeded');
  const waves = seededMode || process.argv.includes('--waves');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sql-count-'));
  const admin = 'adm_bench_token_0123456789abcdef';
  let dbFile = path.join(dir, 'service.db');
  let seededKey: string | undefined;
  if (seededMode) {
    const seeded = await seededDatabase(1_000_000, async (file) => {
      const s = await startService(file);
      const p = await fundedPartner(s.admin);
      s.proc.kill('SIGTERM');
      await new Promise((r) => s.proc.once('exit', r));
      return p;
    });
    dbFile = copyDatabase(seeded.file, dir, 'service.db');
    seededKey = seeded.key;
  }
  const svc = await createService({
    config: loadConfig({ SANDBOX_DEMO: '0', DATABASE_PATH: dbFile, ADMIN_TOKEN: admin, API_RATE_LIMIT: '10000000', API_RATE_BURST: '10000000' }),
    log: silentLogger,
    startWorkers: false,
    adminToken: admin,
  });
  const call = async (method: string, url: string, auth: string, body?: unknown) => {
    const r = await svc.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, payload: body === undefined ? undefined : JSON.stringify(body) });
    return JSON.parse(r.body || 'null');
  };
  const p = await call('POST', '/api/admin/v1/partners', admin, { name: 'bench' });
  await call('POST', `/api/admin/v1/partners/${p.partner_id}/topups`, admin, { currency: 'USD', amount: '1000000.00', network: 'ton', tx_hash: 'bench-1' });
  const key = seededKey ?? ((await call('POST', `/api/admin/v1/partners/${p.partner_id}/keys`, admin, {})).api_key as string);
  // warm: one order through its whole life
  await call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: 'w-0', params: { quantity: 100, recipient: 'bench_user' } });
  await call('POST', '/api/admin/v1/sandbox/clock/advance', admin, { seconds: 10 });
  const client = svc.db.$client;
  if (waves) {
    // a warm page cache, as under the steady load: a few waves first
    for (let w = 0; w < 20; w++) await Promise.all(Array.from({ length: 32 }, (_, i) => call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: `warm-${w}-${i}`, params: { quantity: 100, recipient: 'bench_user' } })));
    await call('POST', '/api/admin/v1/sandbox/clock/advance', admin, { seconds: 10 });
    client.pragma('wal_checkpoint(TRUNCATE)');
    client.pragma('wal_autocheckpoint = 0');
  }
  const create = (i: number) => call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: `k-${i}`, params: { quantity: 100, recipient: 'bench_user' } });
  counting = true;
  reads0 = readCalls();
  if (waves) for (let i = 0; i < n; i += 32) await Promise.all(Array.from({ length: Math.min(32, n - i) }, (_, j) => create(i + j)));
  else await Promise.all(Array.from({ length: n }, (_, i) => create(i)));
  counting = false;
  dump('creation (the request)', n);
  if (waves) {
    walPages(client, `${dbFile}-wal`, n);
    client.pragma('wal_autocheckpoint = 1000');
  }
  if (waves) {
    client.pragma('wal_checkpoint(TRUNCATE)');
    client.pragma('wal_autocheckpoint = 0');
  }
  counting = true;
  reads0 = readCalls();
  await call('POST', '/api/admin/v1/sandbox/clock/advance', admin, { seconds: 10 });
  counting = false;
  dump('delivery and outcome (clock advanced)', n);
  if (waves) {
    walPages(client, `${dbFile}-wal`, n);
    client.pragma('wal_autocheckpoint = 1000');
  }
  counting = true;
  reads0 = readCalls();
  await Promise.all(Array.from({ length: n }, (_, i) => call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: `k-${i}`, params: { quantity: 100, recipient: 'bench_user' } })));
  counting = false;
  dump('first replay of each key (read from the database)', n);
  counting = true;
  reads0 = readCalls();
  await Promise.all(Array.from({ length: n }, (_, i) => call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: `k-${i}`, params: { quantity: 100, recipient: 'bench_user' } })));
  counting = false;
  dump('later replays (remembered)', n);
  await svc.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
