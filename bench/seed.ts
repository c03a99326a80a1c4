import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Seeds `count` historical orders (with their debit and refund entries, their bound idempotency keys and
 * their outbox events) for one partner straight into the database,
 * for the large-database benchmark. Each entry continues the partner's ledger, so the account balance
 * (moved by the entries themselves) and the ledger check stay true.
 */
export function seedOrders(file: string, partnerId: number, count: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const maxSeq = (db.prepare('select coalesce(max(seq), 0) m from orders').get() as { m: number }).m;
  const insOrder = db.prepare(
    `insert into orders (seq, order_id, partner_id, type, status, amount, currency, quantity, recipient, account, refunded, stage, idempotency_key, created_at, completed_at, updated_at)
     values (?, ?, ?, 'stars', ?, 158, 'USD', 100, '@seeded_user', 'seeded_user', ?, 'done', ?, ?, ?, ?)`,
  );
  const insDebit = db.prepare(`insert into ledger_entries (partner_id, currency, amount, kind, order_id, balance_after, created_at) values (?, 'USD', -158, 'order_debit', ?, ?, ?)`);
  const insKey = db.prepare(`insert into idempotency_keys (partner_id, key, fingerprint, state, order_id, created_at) values (?, ?, ?, 'bound', ?, ?)`);
  const insEvent = db.prepare(`insert into events (partner_id, order_id, event, body, created_at) values (?, ?, ?, ?, ?)`);
  const insRefund = db.prepare(`insert into ledger_entries (partner_id, currency, amount, kind, order_id, balance_after, created_at) values (?, 'USD', 158, 'order_refund', ?, ?, ?)`);
  let balance = (db.prepare("select balance from accounts where partner_id = ? and currency = 'USD'").get(partnerId) as { balance: number }).balance;
  const start = Date.now() - count * 1000;
  const chunk = 50_000;
  for (let from = 0; from < count; from += chunk) {
    db.transaction(() => {
      for (let i = from; i < Math.min(count, from + chunk); i++) {
        const seq = maxSeq + 1 + i;
        const id = `PA-${100000 + seq}`;
        const failed = i % 20 === 0;
        const at = start + i * 1000;
        // the debit (and refund) first, then the order: the database refuses an order written without its
        // debit, and each entry moves the balance itself (drizzle/0023_money_guards.sql)
        balance -= 158;
        insDebit.run(partnerId, id, balance, at);
        if (failed) {
          balance += 158;
          insRefund.run(partnerId, id, balance, at + 3000);
        }
        insOrder.run(seq, id, partnerId, failed ? 'failed' : 'completed', failed ? 1 : 0, `seed-${i}`, at, failed ? null : at + 3000, at + 3000);
        insKey.run(partnerId, `seed-${i}`, crypto.createHash('sha256').update(`seed-${i}`).digest('hex'), id, at);
        const event = failed ? 'order.failed' : 'order.completed';
        insEvent.run(partnerId, id, event, JSON.stringify({ event, order_id: id, data: { order_id: id, status: failed ? 'failed' : 'completed' } }), at + 3000);
      }
    })();
  }
  db.close();
}

/**
 * A database of `count` seeded orders for one funded partner, made once and kept in a folder of the system's
 * temp directory (seeding 1,000,000 orders takes a while; the checks that compare a large database with a
 * small one start from a copy of it). `makePartner` creates the partner and its key on a fresh database
 * (through the service) and returns them.
 */
export async function seededDatabase(count: number, makePartner: (file: string) => Promise<{ id: number; key: string }>): Promise<{ file: string; partnerId: number; key: string }> {
  // one seeded file per schema: a copy made under older migrations would be migrated (and its indexes built) on open
  const journal = fs.readFileSync(new URL('../drizzle/meta/_journal.json', import.meta.url));
  const dir = path.join(os.tmpdir(), `bench-seeded-${count}-${crypto.createHash('sha256').update(journal).digest('hex').slice(0, 12)}`);
  const file = path.join(dir, 'seeded.db');
  const metaFile = path.join(dir, 'meta.json');
  if (!fs.existsSync(metaFile)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const p = await makePartner(file);
    seedOrders(file, p.id, count);
    fs.writeFileSync(metaFile, JSON.stringify({ partnerId: p.id, key: p.key }));
  }
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as { partnerId: number; key: string };
  return { file, ...meta };
}

/** A copy of a closed database file (and its WAL, if any) in `dir`. */
export function copyDatabase(file: string, dir: string, name: string): string {
  const to = path.join(dir, name);
  fs.copyFileSync(file, to);
  for (const ext of ['-wal', '-shm']) if (fs.existsSync(file + ext)) fs.copyFileSync(file + ext, to + ext);
  return to;
}
