import type Database from 'better-sqlite3';

/**
 * Values a transaction wrote to an in-memory cache of committed values (src/store/committed-cache.ts): they
 * hold for the rest of that transaction and become committed values once its outermost COMMIT succeeded;
 * any rollback (of the transaction or of a savepoint in it) forgets all of them. `inTx` (src/store/db.ts),
 * the only maker of transactions, settles them.
 */
export interface Staging {
  settle(client: Database.Database, committed: boolean): void;
}

const pending = new WeakMap<Database.Database, Set<Staging>>();

export function noteStaged(client: Database.Database, s: Staging): void {
  let set = pending.get(client);
  if (!set) {
    set = new Set();
    pending.set(client, set);
  }
  set.add(s);
}

export function settleStaged(client: Database.Database, committed: boolean): void {
  const set = pending.get(client);
  if (!set || set.size === 0) return;
  for (const s of set) s.settle(client, committed);
  set.clear();
}
