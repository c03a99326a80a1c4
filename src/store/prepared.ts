import type Database from 'better-sqlite3';
import type { Conn } from './db.js';

/**
 * Prepared queries, built once per SQLite connection. The profile of the order path showed half the CPU in
 * drizzle building SQL text and better-sqlite3 re-preparing it on every call; a query prepared once runs
 * with neither. A query prepared on the database also runs inside its transactions (same connection).
 */
const cache = new WeakMap<Database.Database, Map<string, unknown>>();

export function clientOf(conn: Conn): Database.Database {
  return (conn as unknown as { session: { client: Database.Database } }).session.client;
}

export function prepared<T>(conn: Conn, name: string, build: () => T): T {
  const client = clientOf(conn);
  let m = cache.get(client);
  if (!m) {
    m = new Map();
    cache.set(client, m);
  }
  let q = m.get(name) as T | undefined;
  if (q === undefined) {
    q = build();
    m.set(name, q);
  }
  return q;
}
