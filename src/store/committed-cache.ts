import type Database from 'better-sqlite3';
import type { Conn } from './db.js';
import { clientOf } from './prepared.js';

/**
 * A per-connection cache of committed values for reads that run on every request (a partner's status,
 * balances): the service is the only writer of its database, so a value read outside a transaction stays
 * true until this process changes it, and every write path of that value calls `drop` first.
 *
 * Reads inside a transaction are never cached (the transaction could still roll back); a drop inside a
 * transaction that rolls back only costs one extra read. Bounded: past `max` entries it starts afresh.
 * Hand-written: a few lines whose whole point is the transaction rule above, which no LRU library knows.
 */
export class CommittedCache<K, V> {
  private readonly maps = new WeakMap<Database.Database, Map<K, V>>();

  constructor(private readonly max = 50_000) {}

  read(conn: Conn, key: K, load: () => V | undefined): V | undefined {
    const m = this.mapOf(conn);
    const hit = m.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    if (value !== undefined && !clientOf(conn).inTransaction) {
      if (m.size >= this.max) m.clear();
      m.set(key, value);
    }
    return value;
  }

  drop(conn: Conn, key: K): void {
    this.mapOf(conn).delete(key);
  }

  private mapOf(conn: Conn): Map<K, V> {
    const client = clientOf(conn);
    let m = this.maps.get(client);
    if (!m) {
      m = new Map();
      this.maps.set(client, m);
    }
    return m;
  }
}
