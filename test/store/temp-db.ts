import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type Db } from '../../src/store/db.js';

/**
 * The service's database (migrated, with its connection settings) on a real SQLite file in a temporary
 * folder, closed and removed after each test of the file that calls this.
 */
export function tempDatabases(prefix: string): () => Db {
  const dirs: string[] = [];
  const dbs: Db[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) db.$client.close();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    const db = openDatabase(path.join(dir, 'x.db'));
    dbs.push(db);
    return db;
  };
}
