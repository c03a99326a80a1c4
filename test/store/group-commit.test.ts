import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/db.js';
import { GroupCommit } from '../../src/store/group-commit.js';
import { kv } from '../../src/store/schema.js';
import { kvGet } from '../../src/store/kv-repo.js';

/** Group commit on a real SQLite file: units committed together, each atomic on its own. */
const dirs: string[] = [];
const dbs: Db[] = [];
function open(): { db: Db; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-'));
  dirs.push(dir);
  const file = path.join(dir, 'x.db');
  const db = openDatabase(file);
  dbs.push(db);
  return { db, file };
}
afterEach(() => {
  for (const db of dbs.splice(0)) db.$client.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const put = (db: Db, key: string) => db.insert(kv).values({ key, value: key, updatedAt: 0 }).run();

describe('GroupCommit', () => {
  it('runs the units of one turn in one transaction and answers each after the COMMIT', async () => {
    const { db, file } = open();
    const other = new Database(file, { readonly: true });
    const group = new GroupCommit(db);
    const seenByOther: number[] = [];
    const answeredInTx: boolean[] = [];
    const units = ['a', 'b', 'c'].map((k) =>
      group
        .run((tx) => {
          put(tx as unknown as Db, k);
          // another connection sees nothing of the group until it commits
          seenByOther.push((other.prepare('select count(*) n from kv').get() as { n: number }).n);
          return k.toUpperCase();
        })
        .then((v) => {
          answeredInTx.push(db.$client.inTransaction);
          return v;
        }),
    );
    expect(await Promise.all(units)).toEqual(['A', 'B', 'C']);
    expect(seenByOther).toEqual([0, 0, 0]);
    expect(answeredInTx).toEqual([false, false, false]);
    expect((other.prepare('select count(*) n from kv').get() as { n: number }).n).toBe(3);
    other.close();
  });

  it('rolls back only the unit that throws; the others commit', async () => {
    const { db } = open();
    const group = new GroupCommit(db);
    const boom = new Error('refused');
    const results = await Promise.allSettled([
      group.run((tx) => put(tx as unknown as Db, 'first')),
      group.run((tx) => {
        put(tx as unknown as Db, 'second');
        throw boom;
      }),
      group.run((tx) => put(tx as unknown as Db, 'third')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBe(boom);
    expect(kvGet(db, 'first')).toBe('first');
    expect(kvGet(db, 'second')).toBeUndefined();
    expect(kvGet(db, 'third')).toBe('third');
  });

  it('when the transaction itself is lost, every unit of the batch fails and nothing is written', async () => {
    const { db } = open();
    const group = new GroupCommit(db);
    const results = await Promise.allSettled([
      group.run((tx) => put(tx as unknown as Db, 'before')),
      // what SQLite does on a disk-full or I/O error: the whole transaction is rolled back under us
      group.run(() => db.$client.exec('ROLLBACK')),
      group.run((tx) => put(tx as unknown as Db, 'after')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(kvGet(db, 'before')).toBeUndefined();
    expect(kvGet(db, 'after')).toBeUndefined();
    // and the next batch works normally
    await group.run((tx) => put(tx as unknown as Db, 'next'));
    expect(kvGet(db, 'next')).toBe('next');
  });

  it('takes at most maxUnits per transaction and commits the rest in the next one', async () => {
    const { db, file } = open();
    const other = new Database(file, { readonly: true });
    const group = new GroupCommit(db, 2);
    const seenByOther: number[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        group.run((tx) => {
          seenByOther.push((other.prepare('select count(*) n from kv').get() as { n: number }).n);
          put(tx as unknown as Db, `k${i}`);
        }),
      ),
    );
    expect(seenByOther).toEqual([0, 0, 2, 2, 4]);
    other.close();
  });
  it('puts requests first: background units fill at most max(16, requests) places of a transaction, 32 when no request waits', async () => {
    const { db, file } = open();
    const other = new Database(file, { readonly: true });
    const group = new GroupCommit(db);
    const seen = new Map<string, number>();
    const unit = (k: string) => (tx: unknown) => {
      seen.set(k, (other.prepare('select count(*) n from kv').get() as { n: number }).n);
      put(tx as Db, k);
    };
    const runs = [
      ...Array.from({ length: 40 }, (_, i) => group.run(unit(`bg${i}`), { background: true })),
      ...Array.from({ length: 3 }, (_, i) => group.run(unit(`req${i}`))),
    ];
    await Promise.all(runs);
    // the first transaction: the 3 requests, then 16 background units; then, no request waiting, the other 24 (up to 32)
    expect([0, 1, 2].map((i) => seen.get(`req${i}`))).toEqual([0, 0, 0]);
    expect(Array.from({ length: 40 }, (_, i) => seen.get(`bg${i}`))).toEqual([...Array(16).fill(0), ...Array(24).fill(19)]);
    // and with many requests, as many background units as requests
    const many = [
      ...Array.from({ length: 30 }, (_, i) => group.run(unit(`bg2-${i}`), { background: true })),
      ...Array.from({ length: 20 }, (_, i) => group.run(unit(`req2-${i}`))),
    ];
    await Promise.all(many);
    expect(Array.from({ length: 30 }, (_, i) => seen.get(`bg2-${i}`))).toEqual([...Array(20).fill(43), ...Array(10).fill(83)]);
    // background units alone: 32 a transaction
    await Promise.all(Array.from({ length: 40 }, (_, i) => group.run(unit(`bg3-${i}`), { background: true })));
    expect(Array.from({ length: 40 }, (_, i) => seen.get(`bg3-${i}`))).toEqual([...Array(32).fill(93), ...Array(8).fill(125)]);
    other.close();
  });
});
