import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config/env.js';
import { silentLogger } from '../src/kernel/log.js';
import { createService } from '../src/service.js';

/**
 * Counts the SQL statements the service runs per created Stars order (its request) and per completed order
 * (its delivery and outcome), by statement text: `npx tsx bench/sql-count.ts [orders]`. Counting work,
 * unlike timing it, does not move with other load on the machine. Triggers' statements are not counted
 * (SQLite runs them inside the statement that fires them).
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

function dump(title: string, n: number) {
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, c]) => s + c, 0);
  const time = [...times.values()].reduce((s, t) => s + t, 0);
  console.log(`\n== ${title}: ${(total / n).toFixed(2)} statements per order, ${(time / n).toFixed(1)} µs in them`);
  for (const [sql, c] of rows) console.log(`${(c / n).toFixed(2).padStart(6)} ${((times.get(sql) ?? 0) / n).toFixed(1).padStart(7)} µs  ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
  counts.clear();
  times.clear();
}

async function main() {
  const n = Number(process.argv[2] ?? 200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sql-count-'));
  const admin = 'adm_bench_token_0123456789abcdef';
  const svc = await createService({
    config: loadConfig({ SANDBOX_DEMO: '0', DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN: admin, API_RATE_LIMIT: '10000000', API_RATE_BURST: '10000000' }),
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
  const key = (await call('POST', `/api/admin/v1/partners/${p.partner_id}/keys`, admin, {})).api_key as string;
  // warm: one order through its whole life
  await call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: 'w-0', params: { quantity: 100, recipient: 'bench_user' } });
  await call('POST', '/api/admin/v1/sandbox/clock/advance', admin, { seconds: 10 });
  counting = true;
  await Promise.all(Array.from({ length: n }, (_, i) => call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: `k-${i}`, params: { quantity: 100, recipient: 'bench_user' } })));
  counting = false;
  dump('creation (the request)', n);
  counting = true;
  await call('POST', '/api/admin/v1/sandbox/clock/advance', admin, { seconds: 10 });
  counting = false;
  dump('delivery and outcome (clock advanced)', n);
  counting = true;
  await Promise.all(Array.from({ length: n }, (_, i) => call('POST', '/api/partner/v1/orders', key, { type: 'stars', idempotency_key: `k-${i}`, params: { quantity: 100, recipient: 'bench_user' } })));
  counting = false;
  dump('first replay of each key (read from the database)', n);
  counting = true;
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
