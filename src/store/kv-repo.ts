import { eq } from 'drizzle-orm';
import type { Conn } from './db.js';
import { kv } from './schema.js';

export function kvGet<T>(conn: Conn, key: string): T | undefined {
  const row = conn.select({ value: kv.value }).from(kv).where(eq(kv.key, key)).get();
  return row ? (row.value as T) : undefined;
}

export function kvSet(conn: Conn, key: string, value: unknown, now: number): void {
  conn
    .insert(kv)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: kv.key, set: { value, updatedAt: now } })
    .run();
}
