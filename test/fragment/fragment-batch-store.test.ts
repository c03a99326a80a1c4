import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '../../src/store/db.js';
import { batchInFlight, getPayment, lastUsedSeqno, putBatch, updatePayment, type NewFragmentBatch, type NewFragmentPayment } from '../../src/store/fragment-payments-repo.js';
import { matchBatch, receiptOf, type OutMessage } from '../../src/suppliers/fragment/payment-checks.js';
import { tempDatabases } from '../store/temp-db.js';
import { FRAGMENT_ADDRESS, OTHER_ADDRESS } from './fakes.js';

/**
 * The batches' money rules where they are kept: the database refuses a second batch in flight per wallet,
 * a second live batch on a seqno, a second live payment of one Fragment reference, moving a live payment to
 * another batch and un-paying a paid one; the matching of a found transaction to its orders by Ref#.
 */
const db = tempDatabases('pos-fragment-batches-');
const W = '0:' + 'ab'.repeat(32);

function batch(id: string, over: Partial<NewFragmentBatch> = {}): NewFragmentBatch {
  return { batchId: id, wallet: W, seqno: 0, validUntil: 100, normHash: id, boc: 'te6', state: 'signed', orders: 1, messages: 1, amountNano: '1', createdAt: 0, updatedAt: 0, ...over };
}

function payment(orderId: string, batchId: string, ref: string, over: Partial<NewFragmentPayment> = {}): NewFragmentPayment {
  return { orderId, batchId, product: 'stars', state: 'signed', wallet: W, seqno: 0, validUntil: 100, normHash: batchId, amountNano: '1', reqId: 'r', ref, createdAt: 0, updatedAt: 0, ...over };
}

describe('fragment batches in the database', () => {
  it('one batch in flight per wallet, one live batch per seqno: the second is refused and nothing of it is written', () => {
    const d = db();
    putBatch(d, batch('b1'), [payment('PA-1', 'b1', 'R1')]);
    expect(() => putBatch(d, batch('b2', { seqno: 1 }), [payment('PA-2', 'b2', 'R2')])).toThrow(/UNIQUE constraint failed: fragment_batches.wallet/);
    expect(getPayment(d, 'PA-2')).toBeUndefined();
    // executed: no longer in flight, but its seqno stays taken while it is not void
    d.$client.prepare("update fragment_batches set state = 'executed', tx_hash = 'h' where batch_id = 'b1'").run();
    expect(batchInFlight(d, W)).toBeUndefined();
    expect(lastUsedSeqno(d, W)).toBe(0);
    expect(() => putBatch(d, batch('b3', { seqno: 0 }), [payment('PA-3', 'b3', 'R3')])).toThrow(/UNIQUE constraint failed: fragment_batches.wallet, fragment_batches.seqno/);
    putBatch(d, batch('b4', { seqno: 1 }), [payment('PA-4', 'b4', 'R4')]);
    expect(batchInFlight(d, W)!.batchId).toBe('b4');
  });

  it("a Fragment reference is paid for one order only; an order's live payment is never replaced or moved; a paid one stays paid", () => {
    const d = db();
    putBatch(d, batch('b1'), [payment('PA-1', 'b1', 'R1')]);
    d.$client.prepare("update fragment_batches set state = 'executed' where batch_id = 'b1'").run();
    expect(() => putBatch(d, batch('b2', { seqno: 1 }), [payment('PA-2', 'b2', 'R1')])).toThrow(/UNIQUE constraint failed: fragment_payments.ref/);
    expect(() => putBatch(d, batch('b3', { seqno: 1 }), [payment('PA-1', 'b3', 'R9')])).toThrow(/already has a live payment/);
    expect(() => d.$client.prepare("update fragment_payments set batch_id = 'b9' where order_id = 'PA-1'").run()).toThrow(/never moved to another batch/);
    updatePayment(d, 'PA-1', { state: 'paid' });
    expect(() => updatePayment(d, 'PA-1', { state: 'void' })).toThrow(/a paid payment stays paid/);
    // a void payment (its batch provably never executed) is replaced by the order's next attempt
    putBatch(d, batch('b5', { seqno: 1 }), [payment('PA-5', 'b5', 'R5')]);
    d.$client.prepare("update fragment_batches set state = 'void' where batch_id = 'b5'").run();
    updatePayment(d, 'PA-5', { state: 'void' });
    putBatch(d, batch('b6', { seqno: 1 }), [payment('PA-5', 'b6', 'R6')]);
    expect(getPayment(d, 'PA-5')).toMatchObject({ batchId: 'b6', ref: 'R6', state: 'signed', attempts: 2 });
  });
});

describe('the batches migration', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((x) => fs.rmSync(x, { recursive: true, force: true })));

  it('every payment written before batches becomes a batch of its own; an unsettled one is looked up again from the start', () => {
    const migrations = fs.mkdtempSync(path.join(os.tmpdir(), 'frag-batches-mig-'));
    dirs.push(migrations);
    fs.cpSync(MIGRATIONS_FOLDER, migrations, { recursive: true });
    const journalFile = path.join(migrations, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith('_fragment_batches'));
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frag-batches-db-'));
    dirs.push(dir);
    const client = new Database(path.join(dir, 'db.sqlite'));
    const d = drizzle(client);
    migrate(d, { migrationsFolder: migrations });
    const insert = client.prepare(
      `insert into fragment_payments (order_id, product, state, wallet, seqno, valid_until, norm_hash, boc, amount_nano, req_id, ref, tx_hash, tx_lt, detail, attempts, created_at, updated_at)
       values (?, 'stars', ?, ?, ?, 100, ?, ?, '520000000', 'req', ?, ?, ?, null, 1, 5, 6)`,
    );
    insert.run('PA-1', 'paid', W, 0, 'h1', 'boc1', 'R1', 'tx1', '11');
    insert.run('PA-2', 'void', W, 1, 'h2', 'boc2', 'R2', null, null);
    insert.run('PA-3', 'sent', W, 1, 'h3', 'boc3', 'R3', 'tx3', '13');
    client.close();
    // the service's own opening of the file runs the migrations left (with the functions they use)
    const opened = openDatabase(path.join(dir, 'db.sqlite'));
    const client2 = opened.$client;
    expect(client2.prepare('select batch_id, state, seqno, norm_hash, boc, orders, tx_hash from fragment_batches order by batch_id').all()).toEqual([
      { batch_id: 'h1', state: 'done', seqno: 0, norm_hash: 'h1', boc: 'boc1', orders: 1, tx_hash: 'tx1' },
      { batch_id: 'h2', state: 'void', seqno: 1, norm_hash: 'h2', boc: 'boc2', orders: 1, tx_hash: null },
      // found before, its receipt not yet: in flight again, so the lookup matches its messages to it
      { batch_id: 'h3', state: 'sent', seqno: 1, norm_hash: 'h3', boc: 'boc3', orders: 1, tx_hash: null },
    ]);
    expect(client2.prepare('select order_id, batch_id, state, ref, out_hashes from fragment_payments order by order_id').all()).toEqual([
      { order_id: 'PA-1', batch_id: 'h1', state: 'paid', ref: 'R1', out_hashes: null },
      { order_id: 'PA-2', batch_id: 'h2', state: 'void', ref: 'R2', out_hashes: null },
      { order_id: 'PA-3', batch_id: 'h3', state: 'sent', ref: 'R3', out_hashes: null },
    ]);
    client2.close();
  });
});

describe('matching a batch found on chain to its orders', () => {
  const allowed = [FRAGMENT_ADDRESS.toString()];
  const to = FRAGMENT_ADDRESS.toRawString().toUpperCase();
  const m = (ref: string | null, ton: bigint, hash: string, dest = to): OutMessage => ({ destination: dest, valueNano: ton, hash, comment: ref === null ? null : `100 Telegram Stars \n\nRef#${ref}` });
  const parts = [
    { orderId: 'PA-1', ref: 'A1', amountNano: 5n },
    { orderId: 'PA-2', ref: 'B2', amountNano: 5n },
  ];

  it('by each payment’s reference, whatever the order of the messages and however equal their amounts', () => {
    const r = matchBatch({ success: true, outMessages: [m('B2', 5n, 'hb'), m('A1', 5n, 'ha')] }, parts, allowed);
    expect(r.problem).toBeNull();
    expect(r.orders.get('PA-1')).toEqual({ hashes: ['ha'], problem: null });
    expect(r.orders.get('PA-2')).toEqual({ hashes: ['hb'], problem: null });
  });

  it('a missing message or another amount is that payment’s problem alone; a stranger message or destination is the whole batch’s', () => {
    const missing = matchBatch({ success: true, skippedActions: 1, outMessages: [m('A1', 5n, 'ha')] }, parts, allowed);
    expect(missing.problem).toBeNull();
    expect(missing.orders.get('PA-1')!.problem).toBeNull();
    expect(missing.orders.get('PA-2')!.problem).toMatch(/no outgoing message carries its reference Ref#B2 \(the wallet skipped 1/);
    const other = matchBatch({ success: true, outMessages: [m('A1', 5n, 'ha'), m('B2', 4n, 'hb')] }, parts, allowed);
    expect(other.orders.get('PA-2')!.problem).toMatch(/sent 4 nanoTON for it, the payment was 5/);
    expect(matchBatch({ success: true, outMessages: [m('A1', 5n, 'ha'), m('ZZ', 5n, 'hz')] }, parts, allowed).problem).toMatch(/names no payment of the batch/);
    expect(matchBatch({ success: true, outMessages: [m('A1', 5n, 'ha'), m('B2', 5n, 'hb', OTHER_ADDRESS.toRawString())] }, parts, allowed).problem).toMatch(/not a known Fragment address/);
    expect(matchBatch({ success: false, outMessages: [] }, parts, allowed).problem).toBe('the wallet transaction failed on chain');
    // a message without a reference is never given to a payment by its amount
    expect(matchBatch({ success: true, outMessages: [m(null, 5n, 'ha'), m('B2', 5n, 'hb')] }, parts, allowed).problem).toMatch(/names no payment/);
  });

  it('receipts: paid when every message of the order was taken, bounced when one came back, else waiting', () => {
    const got = new Map([['h1', { success: true }], ['h2', { success: false }]]);
    expect(receiptOf(['h1'], got)).toBe('paid');
    expect(receiptOf(['h1', 'h2'], got)).toBe('bounced');
    expect(receiptOf(['h1', 'h3'], got)).toBe('waiting');
    expect(receiptOf([], got)).toBe('waiting');
  });
});
