import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { MIGRATIONS_FOLDER, registerSqlFunctions } from '../src/store/db.js';

/**
 * What the database's money guards (drizzle/0023_money_guards.sql) cost an order's creation, measured on
 * the statements alone: `npx tsx bench/ledger-guards.ts [orders] [rounds]`.
 *
 * - before: the schema before the guards and the statements the service ran then (read the balance,
 *   write it, insert the debit, insert the order);
 * - after: the schema with them and the statements it runs now (read the balance, insert the debit, which
 *   checks the chain and moves the balance by its triggers, insert the order, which checks its debit).
 *
 * Orders are written as the service's group commit writes them: each in a savepoint, 32 to a transaction, on
 * a real file (WAL, synchronous NORMAL, as the service opens it), so the figure is the statements' own cost
 * rather than the commit's. Rounds of the two alternate so that other load on the machine falls on both
 * alike, and each is timed by this process's CPU time; the median of the rounds is printed.
 */
const n = Number(process.argv[2] ?? 5000);
const rounds = Number(process.argv[3] ?? 7);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-guards-'));

function migrationsUpTo(tag: string | null): string {
  if (tag === null) return MIGRATIONS_FOLDER;
  const out = path.join(dir, `migrations-${tag}`);
  fs.cpSync(MIGRATIONS_FOLDER, out, { recursive: true });
  const file = path.join(out, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag));
  fs.writeFileSync(file, JSON.stringify(journal));
  return out;
}

function setup(name: string, guarded: boolean) {
  const client = new Database(path.join(dir, `${name}.db`));
  registerSqlFunctions(client); // the service's SQL functions, which a migration may use
  client.pragma('journal_mode = WAL');
  client.pragma('synchronous = NORMAL');
  client.pragma('cache_size = -32768');
  migrate(drizzle(client), { migrationsFolder: migrationsUpTo(guarded ? null : '0023_money_guards') });
  client.pragma('temp_store = MEMORY');
  const pid = Number(client.prepare("insert into partners (name, status, created_at) values ('bench', 'active', 1)").run().lastInsertRowid);
  client.prepare("insert into accounts (partner_id, currency, balance) values (?, 'USD', 0), (?, 'TON', 0)").run(pid, pid);
  const start = 1e12;
  if (guarded) {
    client.prepare("insert into ledger_entries (partner_id, currency, amount, kind, note, balance_after, created_at) values (?, 'USD', ?, 'adjustment', 'bench', ?, 1)").run(pid, start, start);
  } else {
    client.prepare("insert into ledger_entries (partner_id, currency, amount, kind, topup_id, balance_after, created_at) values (?, 'USD', ?, 'topup', 'tp', ?, 1)").run(pid, start, start);
    client.prepare("update accounts set balance = ? where partner_id = ? and currency = 'USD'").run(start, pid);
  }
  const getBalance = client.prepare("select balance from accounts where partner_id = ? and currency = 'USD'").pluck();
  const setBalance = client.prepare("update accounts set balance = ? where partner_id = ? and currency = 'USD'");
  const insDebit = client.prepare("insert into ledger_entries (partner_id, currency, amount, kind, order_id, topup_id, balance_after, created_at) values (?, 'USD', -158, 'order_debit', ?, null, ?, 2)");
  const insOrder = client.prepare(
    `insert into orders (seq, order_id, partner_id, type, status, amount, currency, quantity, recipient, account, refunded, stage, idempotency_key, created_at, updated_at)
     values (?, ?, ?, 'stars', 'processing', 158, 'USD', 100, '@bench_user', 'bench_user', 0, 'deliver', ?, 2, 2)`,
  );
  let seq = 0;
  const one = client.transaction(() => {
    const id = `PA-${100000 + ++seq}`;
    const after = (getBalance.get(pid) as number) - 158;
    if (!guarded) setBalance.run(after, pid);
    insDebit.run(pid, id, after);
    insOrder.run(seq, id, pid, `k-${seq}`);
  });
  const batch = client.transaction((k: number) => {
    for (let i = 0; i < k; i++) one(); // nested: a savepoint each
  });
  return {
    client,
    run: (count: number) => {
      for (let i = 0; i < count; i += 32) batch.immediate(Math.min(32, count - i));
    },
  };
}

const before = setup('before', false);
const after = setup('after', true);
before.run(500);
after.run(500);
const times: Record<'before' | 'after', number[]> = { before: [], after: [] };
for (let r = 0; r < rounds; r++) {
  for (const [name, s] of (r % 2 ? [['after', after], ['before', before]] : [['before', before], ['after', after]]) as ['before' | 'after', typeof before][]) {
    // CPU time of this process (user + system): other processes' load moves it far less than wall time
    const c0 = process.cpuUsage();
    s.run(n);
    const c = process.cpuUsage(c0);
    times[name].push((c.user + c.system) / n);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const b = median(times.before);
const a = median(times.after);
console.log(`orders per round ${n}, rounds ${rounds} (alternating)`);
console.log(`before the guards: ${b.toFixed(1)} µs CPU per order (rounds: ${times.before.map((x) => x.toFixed(1)).join(' ')})`);
console.log(`with the guards:   ${a.toFixed(1)} µs CPU per order (rounds: ${times.after.map((x) => x.toFixed(1)).join(' ')})`);
console.log(`difference: ${(a - b).toFixed(1)} µs per order (${(((a - b) / b) * 100).toFixed(1)} %)`);
before.client.close();
after.client.close();
fs.rmSync(dir, { recursive: true, force: true });
