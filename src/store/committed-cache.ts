import type Database from 'better-sqlite3';
import type { Conn } from './db.js';
import { clientOf } from './prepared.js';
import { noteStaged, type Staging } from './staged.js';

/**
 * A per-connection cache of committed values for reads that run on every request (a partner's status,
 * balances): the service is the only writer of its database, so a value read outside a transaction stays
 * true until this process changes it, and every write path of that value calls `drop` first.
 *
 * Reads inside a transaction are not cached as committed (the transaction could still roll back); a
 * repository may instead *stage* a value inside a transaction (what it wrote, or opt in for what it read:
 * `stage`, `read(..., { stage: true })`): a staged value is the current one for the rest of that
 * transaction and becomes a committed value when its outermost COMMIT succeeds; any rollback, even of one
 * savepoint, forgets every staged value (src/store/staged.ts). A drop inside a transaction that rolls back
 * only costs one extra read. Bounded: past `max` entries it starts afresh.
 * Hand-written: a few lines whose whole point is the transaction rule above, which no LRU library knows.
 */
export class CommittedCache<K, V> implements Staging {
  private readonly maps = new WeakMap<Database.Database, Map<K, V>>();
  private readonly staged = new WeakMap<Database.Database, Map<K, V>>();

  constructor(private readonly max = 50_000) {}

  read(conn: Conn, key: K, load: () => V | undefined, opts?: { stage?: boolean }): V | undefined {
    const client = clientOf(conn);
    const inTx = client.inTransaction;
    // what this transaction staged is newer than what was committed before it
    const own = inTx ? this.staged.get(client)?.get(key) : undefined;
    if (own !== undefined) return own;
    const m = this.mapOf(client);
    const hit = m.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    if (value === undefined) return value;
    if (!inTx) this.keep(m, key, value);
    else if (opts?.stage) this.stageIn(client, key, value);
    return value;
  }

  /** The value known in memory (committed, or staged by the current transaction), without reading the database. */
  peek(conn: Conn, key: K): V | undefined {
    const client = clientOf(conn);
    return (client.inTransaction ? this.staged.get(client)?.get(key) : undefined) ?? this.mapOf(client).get(key);
  }

  /**
   * A value the caller has just written: inside a transaction it is staged (committed with it, forgotten by
   * any rollback), outside one it is the committed value.
   */
  stage(conn: Conn, key: K, value: V): void {
    const client = clientOf(conn);
    if (client.inTransaction) this.stageIn(client, key, value);
    else this.keep(this.mapOf(client), key, value);
  }

  drop(conn: Conn, key: K): void {
    const client = clientOf(conn);
    this.mapOf(client).delete(key);
    this.staged.get(client)?.delete(key);
  }

  /** Called by settleStaged once the outermost transaction committed (keep) or anything rolled back (forget). */
  settle(client: Database.Database, committed: boolean): void {
    const s = this.staged.get(client);
    if (!s) return;
    if (committed) {
      const m = this.mapOf(client);
      for (const [k, v] of s) this.keep(m, k, v);
    }
    s.clear();
  }

  private stageIn(client: Database.Database, key: K, value: V): void {
    // the committed value is superseded: if a rollback forgets the staged one, the next read goes to the database
    this.mapOf(client).delete(key);
    let s = this.staged.get(client);
    if (!s) {
      s = new Map();
      this.staged.set(client, s);
    }
    s.set(key, value);
    noteStaged(client, this);
  }

  private keep(m: Map<K, V>, key: K, value: V): void {
    if (m.size >= this.max) m.clear();
    m.set(key, value);
  }

  private mapOf(client: Database.Database): Map<K, V> {
    let m = this.maps.get(client);
    if (!m) {
      m = new Map();
      this.maps.set(client, m);
    }
    return m;
  }
}
