import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalTxHash } from '../../src/domain/tx-hash.js';
import { checkLedger } from '../../src/store/ledger-check.js';
import { MIGRATIONS_FOLDER, registerSqlFunctions, type Db } from '../../src/store/db.js';
import { migrationFolders } from './migrations-before.js';
import { tempDatabases } from './temp-db.js';

/**
 * What the database itself refuses (drizzle/0023_money_guards.sql), proven with raw SQL on the service's
 * migrated file: no service code runs, so each refusal is the database's own. Each statement that breaks a
 * rule throws, and nothing of it is written.
 */
const open = tempDatabases('money-guards-');

/** A partner with a funded USD account and one debited order PA-1 (2.00), written as the service writes them. */
function seeded(): { db: Db; raw: Database.Database; pid: number } {
  const db = open();
  const raw = db.$client;
  const pid = Number(raw.prepare("insert into partners (name, status, created_at) values ('P', 'active', 1)").run().lastInsertRowid);
  raw.prepare("insert into accounts (partner_id, currency, balance) values (?, 'USD', 0), (?, 'TON', 0)").run(pid, pid);
  raw.prepare("insert into topups (topup_id, partner_id, currency, amount, network, tx_hash, source, created_at) values ('tp_1', ?, 'USD', 1000, 'trc20', ?, 'operator', 1)").run(pid, HASH);
  raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, topup_id, balance_after, created_at) values (?, 'USD', 1000, 'topup', 'tp_1', 1000, 1)").run(pid);
  debit(raw, pid, 'PA-1', 200, 800);
  order(raw, pid, 'PA-1', 200);
  return { db, raw, pid };
}

const HASH = 'a'.repeat(64);

function debit(raw: Database.Database, pid: number, orderId: string, amount: number, after: number) {
  return raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, order_id, balance_after, created_at) values (?, 'USD', ?, 'order_debit', ?, ?, 2)").run(pid, -amount, orderId, after);
}
function refund(raw: Database.Database, pid: number, orderId: string, amount: number, after: number) {
  return raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, order_id, balance_after, created_at) values (?, 'USD', ?, 'order_refund', ?, ?, 3)").run(pid, amount, orderId, after);
}
function order(raw: Database.Database, pid: number, orderId: string, amount: number, refunded = 0) {
  return raw
    .prepare(
      `insert into orders (seq, order_id, partner_id, type, status, amount, currency, quantity, recipient, account, refunded, stage, idempotency_key, created_at, updated_at)
       values ((select coalesce(max(seq), 0) + 1 from orders), ?, ?, 'stars', 'processing', ?, 'USD', 100, '@x', 'x', ?, 'deliver', ?, 2, 2)`,
    )
    .run(orderId, pid, amount, refunded, `key-${orderId}`);
}

const count = (raw: Database.Database, sql: string, ...args: unknown[]) => (raw.prepare(`select count(*) n from (${sql})`).get(...args) as { n: number }).n;
const balance = (raw: Database.Database, pid: number) => (raw.prepare("select balance from accounts where partner_id = ? and currency = 'USD'").get(pid) as { balance: number }).balance;

describe('the database refuses a second debit, refund or credit', () => {
  it('a second debit of one order: unique index, nothing written', () => {
    const { raw, pid } = seeded();
    expect(() => debit(raw, pid, 'PA-1', 200, 600)).toThrow(/UNIQUE constraint failed: ledger_entries\.order_id, ledger_entries\.kind/);
    expect(count(raw, "select 1 from ledger_entries where order_id = 'PA-1'")).toBe(1);
    expect(balance(raw, pid)).toBe(800);
  });

  it('a second refund of one order: unique index, nothing written; the first is accepted', () => {
    const { raw, pid } = seeded();
    refund(raw, pid, 'PA-1', 200, 1000);
    raw.prepare("update orders set refunded = 1 where order_id = 'PA-1'").run();
    expect(() => refund(raw, pid, 'PA-1', 200, 1200)).toThrow(/UNIQUE constraint failed: ledger_entries\.order_id, ledger_entries\.kind/);
    expect(count(raw, "select 1 from ledger_entries where order_id = 'PA-1' and kind = 'order_refund'")).toBe(1);
    expect(balance(raw, pid)).toBe(1000);
  });

  it('a second credit of one chain transaction: unique (network, tx_hash) of topups, and one ledger credit per top-up', () => {
    const { raw, pid } = seeded();
    expect(() =>
      raw.prepare("insert into topups (topup_id, partner_id, currency, amount, network, tx_hash, source, created_at) values ('tp_2', ?, 'USD', 1000, 'trc20', ?, 'watcher', 5)").run(pid, HASH),
    ).toThrow(/UNIQUE constraint failed: topups\.network, topups\.tx_hash/);
    expect(() =>
      raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, topup_id, balance_after, created_at) values (?, 'USD', 1000, 'topup', 'tp_1', 1800, 5)").run(pid),
    ).toThrow(/UNIQUE constraint failed: ledger_entries\.topup_id/);
    // the same hash on another network is another transaction
    raw.prepare("insert into topups (topup_id, partner_id, currency, amount, network, tx_hash, source, created_at) values ('tp_3', ?, 'USD', 500, 'bep20', ?, 'watcher', 5)").run(pid, `0x${HASH}`);
    expect(balance(raw, pid)).toBe(800);
  });

  it('a credit must be the top-up it names (partner, currency and amount)', () => {
    const { raw, pid } = seeded();
    raw.prepare("insert into topups (topup_id, partner_id, currency, amount, network, tx_hash, source, created_at) values ('tp_2', ?, 'USD', 500, 'ton', 'b', 'operator', 5)").run(pid);
    expect(() => raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, topup_id, balance_after, created_at) values (?, 'USD', 5000, 'topup', 'tp_2', 5800, 5)").run(pid)).toThrow(/ledger_topup/);
    expect(() => raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, topup_id, balance_after, created_at) values (?, 'USD', 500, 'topup', 'tp_none', 1300, 5)").run(pid)).toThrow(/ledger_topup/);
  });
});

describe('the checks of GET /ledger/check, held by the database', () => {
  it('each entry continues its partner and currency: balance_after = previous balance_after + amount', () => {
    const { raw, pid } = seeded();
    expect(() => debit(raw, pid, 'PA-2', 100, 799)).toThrow(/ledger_chain/);
    expect(() => debit(raw, pid, 'PA-2', 100, 800)).toThrow(/ledger_chain/);
    // the first entry of a currency starts from zero
    expect(() =>
      raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, note, balance_after, created_at) values (?, 'TON', 5, 'adjustment', 'x', 6, 1)").run(pid),
    ).toThrow(/ledger_chain/);
    debit(raw, pid, 'PA-2', 100, 700);
    expect(balance(raw, pid)).toBe(700);
  });

  it('a balance never goes negative', () => {
    const { raw, pid } = seeded();
    expect(() => debit(raw, pid, 'PA-2', 900, -100)).toThrow(/CHECK constraint failed: balance_after_not_negative/);
    expect(balance(raw, pid)).toBe(800);
  });

  it('the entry moves the balance; a balance is never written by itself, and an account with entries is never deleted', () => {
    const { raw, pid } = seeded();
    expect(() => raw.prepare("update accounts set balance = 5000 where partner_id = ? and currency = 'USD'").run(pid)).toThrow(/accounts_follow_ledger/);
    expect(() => raw.prepare("update accounts set balance = 1 where partner_id = ? and currency = 'TON'").run(pid)).toThrow(/accounts_follow_ledger/);
    expect(() => raw.prepare("update accounts set currency = 'TON' where partner_id = ? and currency = 'USD'").run(pid)).toThrow();
    expect(() => raw.prepare("delete from accounts where partner_id = ? and currency = 'USD'").run(pid)).toThrow(/accounts_follow_ledger/);
    expect(() => raw.prepare("insert into accounts (partner_id, currency, balance) values (?, 'USD', 10)").run(pid + 1)).toThrow();
    // writing the balance it already has is no change and passes
    raw.prepare("update accounts set balance = 800 where partner_id = ? and currency = 'USD'").run(pid);
    // an entry for a partner without an account is refused
    expect(() =>
      raw.prepare("insert into ledger_entries (partner_id, currency, amount, kind, note, balance_after, created_at) values (?, 'USD', 5, 'adjustment', 'x', 5, 1)").run(pid + 1),
    ).toThrow(/ledger_account/);
    expect(balance(raw, pid)).toBe(800);
  });

  it('entries are never changed or deleted', () => {
    const { raw } = seeded();
    expect(() => raw.prepare("update ledger_entries set amount = -1 where order_id = 'PA-1'").run()).toThrow(/ledger_append_only/);
    expect(() => raw.prepare("update ledger_entries set note = 'x' where order_id = 'PA-1'").run()).toThrow(/ledger_append_only/);
    expect(() => raw.prepare("delete from ledger_entries where order_id = 'PA-1'").run()).toThrow(/ledger_append_only/);
    expect(() => raw.prepare("update topups set amount = 1").run()).toThrow(/topups_append_only/);
    expect(() => raw.prepare("delete from topups").run()).toThrow(/topups_append_only/);
    expect(count(raw, 'select 1 from ledger_entries')).toBe(2);
  });

  it('one debit per order: an order is written only after its debit of its amount; its money never changes; it is never deleted', () => {
    const { raw, pid } = seeded();
    expect(() => order(raw, pid, 'PA-2', 100)).toThrow(/orders_debited/);
    debit(raw, pid, 'PA-2', 100, 700);
    expect(() => order(raw, pid, 'PA-2', 150)).toThrow(/orders_debited/);
    order(raw, pid, 'PA-2', 100);
    expect(() => raw.prepare("update orders set amount = 1 where order_id = 'PA-2'").run()).toThrow(/orders_money_fixed/);
    expect(() => raw.prepare("update orders set partner_id = partner_id + 1 where order_id = 'PA-2'").run()).toThrow(/orders_money_fixed/);
    expect(() => raw.prepare("delete from orders where order_id = 'PA-2'").run()).toThrow(/orders_keep/);
  });

  it('at most one refund, equal to the debit; refunded is set only with the refund and never unset', () => {
    const { raw, pid } = seeded();
    expect(() => raw.prepare("update orders set refunded = 1 where order_id = 'PA-1'").run()).toThrow(/orders_refunded/);
    expect(() => refund(raw, pid, 'PA-1', 300, 1100)).toThrow(/ledger_refund/);
    expect(() => refund(raw, pid, 'PA-9', 200, 1000)).toThrow(/ledger_refund/);
    refund(raw, pid, 'PA-1', 200, 1000);
    raw.prepare("update orders set refunded = 1, status = 'failed' where order_id = 'PA-1'").run();
    expect(() => raw.prepare("update orders set refunded = 0 where order_id = 'PA-1'").run()).toThrow(/orders_refunded/);
    // an order written refunded carries its refund already
    debit(raw, pid, 'PA-3', 100, 900);
    expect(() => order(raw, pid, 'PA-3', 100, 1)).toThrow(/orders_debited/);
  });

  it('the shape of each kind: signs, references, an adjustment with a note', () => {
    const { raw, pid } = seeded();
    const ins = (kind: string, amount: number, ref: { order?: string; topup?: string; note?: string | null }, after: number) =>
      raw
        .prepare('insert into ledger_entries (partner_id, currency, amount, kind, order_id, topup_id, note, balance_after, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, 9)')
        .run(pid, 'USD', amount, kind, ref.order ?? null, ref.topup ?? null, ref.note ?? null, after);
    expect(() => ins('order_debit', 100, { order: 'PA-5' }, 900)).toThrow(/ledger_entry_shape/);
    expect(() => ins('order_debit', -100, {}, 700)).toThrow(/ledger_entry_shape/);
    expect(() => ins('order_refund', 200, { order: 'PA-1', note: 'why' }, 1000)).toThrow(/ledger_entry_shape/);
    expect(() => ins('adjustment', 100, {}, 900)).toThrow(/ledger_entry_shape/);
    expect(() => ins('adjustment', 100, { note: '   ' }, 900)).toThrow(/ledger_entry_shape/);
    expect(() => ins('adjustment', 0, { note: 'zero' }, 800)).toThrow(/ledger_entry_shape/);
    expect(() => ins('adjustment', 100, { note: 'x', order: 'PA-1' }, 900)).toThrow(/ledger_entry_shape/);
    expect(() => ins('bonus', 100, { note: 'x' }, 900)).toThrow(/ledger_entry_shape/);
    ins('adjustment', -50, { note: 'correction' }, 750);
    expect(balance(raw, pid)).toBe(750);
  });

  it('a database written by these rules passes the audit of GET /ledger/check', () => {
    const { db } = seeded();
    expect(checkLedger(db)).toEqual({ ok: true, problems: [] });
  });

  it('every guard exists (a migration that rebuilds one of these tables must create them again)', () => {
    const { raw } = seeded();
    const triggers = (raw.prepare("select name from sqlite_master where type = 'trigger' order by name").all() as { name: string }[]).map((r) => r.name);
    expect(triggers).toEqual(
      expect.arrayContaining([
        'accounts_follow_ledger_insert',
        'accounts_follow_ledger_update',
        'accounts_keep',
        'ledger_credit_matches_topup',
        'ledger_entries_chain',
        'ledger_entries_move_balance',
        'ledger_entries_no_delete',
        'ledger_entries_no_update',
        'ledger_refund_matches_debit',
        'orders_debited',
        'orders_keep',
        'orders_money_fixed',
        'orders_refunded_flag',
        'topups_no_delete',
        'topups_no_update',
      ]),
    );
  });
});

// ---- the migration on a database written before it

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const TAG = '0023_money_guards';
const migrationsBefore = migrationFolders('money-guards-mig-');

/** A database at the schema before the money guards, with a funded partner. */
function oldDatabase() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'money-guards-old-'));
  dirs.push(dir);
  const client = new Database(path.join(dir, 'db.sqlite'));
  registerSqlFunctions(client); // the service's SQL functions, which a migration may use
  const db = drizzle(client);
  migrate(db, { migrationsFolder: migrationsBefore(TAG) });
  const pid = Number(client.prepare("insert into partners (name, status, created_at) values ('Old', 'active', 1)").run().lastInsertRowid);
  client.prepare("insert into accounts (partner_id, currency, balance) values (?, 'USD', 0), (?, 'TON', 0)").run(pid, pid);
  let bal = 0;
  const credit = (topupId: string, network: string, txHash: string, amount: number, at: number) => {
    client.prepare("insert into topups (topup_id, partner_id, currency, amount, network, tx_hash, source, created_at) values (?, ?, 'USD', ?, ?, ?, 'operator', ?)").run(topupId, pid, amount, network, txHash, at);
    bal += amount;
    client.prepare("insert into ledger_entries (partner_id, currency, amount, kind, topup_id, balance_after, created_at) values (?, 'USD', ?, 'topup', ?, ?, ?)").run(pid, amount, topupId, bal, at);
    client.prepare("update accounts set balance = ? where partner_id = ? and currency = 'USD'").run(bal, pid);
  };
  const migrated = () => (client.prepare('select count(*) n from __drizzle_migrations').get() as { n: number }).n;
  return { client, db, pid, credit, migrated };
}

describe('the money-guards migration on an existing database', () => {
  const trc = 'c'.repeat(64);
  const bsc = 'D'.repeat(64);
  const tonB64 = Buffer.from('e'.repeat(64), 'hex').toString('base64');

  it('stores every hash in its canonical form; the same transaction credited twice in two spellings is kept, marked and audited', () => {
    const { client, db, pid, credit } = oldDatabase();
    credit('tp_watch', 'trc20', `trc20:${trc}`, 1000, 1); // the watcher's key
    credit('tp_support', 'trc20', trc.toUpperCase(), 1000, 2); // support's bare hash: the double credit of the review
    credit('tp_bsc', 'bep20', bsc, 500, 3);
    credit('tp_ton', 'ton', tonB64, 700, 4);
    credit('tp_label', 'ton', ' tx-label-1 ', 300, 5);
    client
      .prepare("insert into deposits (deposit_id, network, asset, amount, tx_hash, to_address, confirmations, status, source, created_at, updated_at) values ('dep_1', 'bep20', 'USDT', '5', ?, 'x', 3, 'credited', 'sandbox', 1, 1), ('dep_2', 'bep20', 'USDT', '5', ?, 'x', 3, 'unmatched', 'sandbox', 2, 2)")
      .run(`0x${bsc.toLowerCase()}`, bsc);
    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });

    expect(client.prepare('select topup_id, network, tx_hash from topups order by created_at').all()).toEqual([
      { topup_id: 'tp_watch', network: 'trc20', tx_hash: trc },
      { topup_id: 'tp_support', network: 'trc20', tx_hash: `${trc}#duplicate-of-tp_watch` },
      { topup_id: 'tp_bsc', network: 'bep20', tx_hash: `0x${bsc.toLowerCase()}` },
      { topup_id: 'tp_ton', network: 'ton', tx_hash: 'e'.repeat(64) },
      { topup_id: 'tp_label', network: 'ton', tx_hash: 'tx-label-1' },
    ]);
    expect(client.prepare('select deposit_id, tx_hash from deposits order by created_at').all()).toEqual([
      { deposit_id: 'dep_1', tx_hash: `0x${bsc.toLowerCase()}` },
      { deposit_id: 'dep_2', tx_hash: `0x${bsc.toLowerCase()}#duplicate-of-dep_1` },
    ]);
    // nothing of the money moved: both credits stand, for support to correct with an adjustment
    expect((client.prepare("select balance from accounts where partner_id = ? and currency = 'USD'").get(pid) as { balance: number }).balance).toBe(3500);
    const audit = client.prepare("select actor, action, target, data from audit_log where actor = 'migration' order by audit_id").all() as { action: string; target: string; data: string }[];
    expect(audit.map((a) => [a.action, a.target])).toEqual([
      ['topup.duplicate_found', String(pid)],
      ['deposit.duplicate_found', 'dep_2'],
    ]);
    expect(JSON.parse(audit[0].data)).toEqual({
      topup_id: 'tp_support',
      network: 'trc20',
      tx_hash: trc,
      currency: 'USD',
      amount: 1000,
      first_topup_id: 'tp_watch',
      first_partner_id: pid,
      first_amount: 1000,
    });
    // and from now on the database refuses a third
    expect(() =>
      client.prepare("insert into topups (topup_id, partner_id, currency, amount, network, tx_hash, source, created_at) values ('tp_x', ?, 'USD', 1000, 'trc20', ?, 'operator', 9)").run(pid, trc),
    ).toThrow(/UNIQUE/);
    client.close();
  });

  it('writes the canonical form of src/domain/tx-hash.ts for every spelling (the migration spells the rule out in SQL)', () => {
    const { client, db, credit } = oldDatabase();
    const spellings: [string, string][] = [];
    for (let i = 0; i < 60; i++) {
      const b = Buffer.alloc(32, i + 1);
      b.writeUInt32BE(0xdeadbeef + i, 0);
      const hex = b.toString('hex');
      const network = ['ton', 'trc20', 'bep20'][i % 3];
      const forms = [hex, hex.toUpperCase(), `0x${hex}`, `0X${hex.toUpperCase()}`, b.toString('base64'), b.toString('base64url'), `${hex}:12`, `0x${hex.toUpperCase()}:3`, `${hex}:x`, `tx-${i}`, hex.slice(2), `${b.toString('base64')}:7`];
      const form = forms[Math.floor(i / 3) % forms.length];
      spellings.push([network, form]);
      credit(`tp_${i}`, network, i % 2 ? `${network}:${form}` : form, 100, i);
    }
    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const stored = client.prepare('select topup_id, tx_hash from topups order by created_at').all() as { topup_id: string; tx_hash: string }[];
    expect(stored.map((r) => r.tx_hash)).toEqual(spellings.map(([n, h]) => canonicalTxHash(n, h)));
    expect(stored.filter((r) => r.tx_hash.includes('#duplicate'))).toEqual([]);
    client.close();
  });

  it('a database holding a second debit of one order stops the upgrade with a clear message, and nothing of it is written', () => {
    const { client, db, pid, credit, migrated } = oldDatabase();
    credit('tp_1', 'ton', 'x1', 1000, 1);
    client.prepare("insert into ledger_entries (partner_id, currency, amount, kind, order_id, balance_after, created_at) values (?, 'USD', -100, 'order_debit', 'PA-7', 900, 2), (?, 'USD', -100, 'order_debit', 'PA-7', 800, 3)").run(pid, pid);
    const before = migrated();
    expect(() => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER })).toThrow();
    try {
      migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    } catch (e) {
      const cause = (e as { cause?: Error }).cause ?? (e as Error);
      expect(cause.message).toMatch(/^Upgrade stopped, nothing changed: the ledger holds 1 second debit\(s\) or refund\(s\) of one order \(first: order PA-7\)/);
    }
    expect(migrated()).toBe(before);
    const cols = (client.prepare('pragma table_info(ledger_entries)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).not.toContain('note');
    expect(client.prepare("select name from sqlite_master where type = 'trigger' and name like 'ledger%'").all()).toEqual([]);
    expect(client.prepare("select name from sqlite_master where name = 'topups_tx_hash'").get()).toEqual({ name: 'topups_tx_hash' });
    client.close();
  });
});
