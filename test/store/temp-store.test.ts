import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tempDatabases } from './temp-db.js';
import { withTempFiles, type Db } from '../../src/store/db.js';
import { GroupCommit } from '../../src/store/group-commit.js';
import { kv } from '../../src/store/schema.js';

/**
 * SQLite's temporary storage on the service's connection: the savepoint of each unit of a group commit keeps
 * its pages' copies in memory (no temporary file per unit), and still rolls a refused unit back.
 */
const open = tempDatabases('temp-store-');

/** SQLite's temporary files (named etilqs_*) this process holds open now. */
function sqliteTempFiles(): string[] {
  return fs
    .readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((l) => l.includes('etilqs_'));
}

// 3 KB per value: 40 rows fill about 30 pages, well over the 64 KiB a sub-journal holds before spilling to a file
const big = (tag: string) => tag.repeat(3000 / tag.length);
const putMany = (db: Db, prefix: string, n: number) => {
  for (let i = 0; i < n; i++) db.insert(kv).values({ key: `${prefix}-${i}`, value: big(prefix), updatedAt: i }).run();
};

describe('temporary storage', () => {
  it('is in memory on the service connection: a unit changing many pages opens no temporary file, and a refused unit still rolls back alone', async () => {
    const db = open();
    expect(db.$client.pragma('temp_store', { simple: true })).toBe(2);
    putMany(db, 'old', 40);
    const group = new GroupCommit(db);
    const seen: string[][] = [];
    const a = group.run((tx) => {
      putMany(tx as unknown as Db, 'a', 40);
      seen.push(sqliteTempFiles());
      return 'a';
    });
    const b = group.run((tx) => {
      putMany(tx as unknown as Db, 'b', 40);
      // rewrite the pages of rows committed before: the savepoint must restore them
      for (let i = 0; i < 40; i++) tx.update(kv).set({ value: big('x') }).where(eq(kv.key, `old-${i}`)).run();
      seen.push(sqliteTempFiles());
      throw new Error('refused');
    });
    expect(await a).toBe('a');
    await expect(b).rejects.toThrow('refused');
    expect(seen).toEqual([[], []]);
    const rows = db.select().from(kv).all();
    expect(rows.filter((r) => r.key.startsWith('a-'))).toHaveLength(40);
    expect(rows.filter((r) => r.key.startsWith('b-'))).toHaveLength(0);
    expect(rows.filter((r) => r.key.startsWith('old-')).map((r) => r.value)).toEqual(Array.from({ length: 40 }, () => big('old')));
  });

  it('withTempFiles puts temporary files on disk for its reads and back in memory after, also when they throw', () => {
    const db = open();
    expect(withTempFiles(db, () => db.$client.pragma('temp_store', { simple: true }))).toBe(1);
    expect(db.$client.pragma('temp_store', { simple: true })).toBe(2);
    expect(() =>
      withTempFiles(db, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.$client.pragma('temp_store', { simple: true })).toBe(2);
  });
});
