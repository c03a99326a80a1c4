import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { creditInTx } from '../../src/app/topups.js';
import { inTx, openDatabase, type Db, type Tx } from '../../src/store/db.js';
import { countPartners } from '../../src/store/partners-repo.js';

describe('the transaction handle', () => {
  it('when a function must run inside a transaction, then the bare database is refused by the type check', () => {
    // Checked by `tsc --noEmit` (npm test): without the brand these lines would compile and the directive fail.
    // @ts-expect-error a Db is not a Tx
    const refused = (db: Db) => creditInTx(db, null as never, null as never, null as never);
    const accepted = (tx: Tx) => countPartners(tx);
    expect(typeof refused).toBe('function');
    expect(typeof accepted).toBe('function');
  });

  it('when inTx runs, then its handle reads and writes on the same connection, inside the transaction', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tx-'));
    const db = openDatabase(path.join(dir, 'db.sqlite'));
    try {
      const seen = inTx(db, (tx) => ({ inside: db.$client.inTransaction, partners: countPartners(tx) }));
      expect(seen).toEqual({ inside: true, partners: 0 });
      expect(db.$client.inTransaction).toBe(false);
    } finally {
      db.$client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
