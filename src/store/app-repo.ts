import { and, asc, eq, like, lt, sql } from 'drizzle-orm';
import type { Conn } from './db.js';
import { botUsers, events, kv, topupRequests } from './schema.js';

/** What the Mini App stores: one-time sign-in links and cookie sessions (kv rows), team changes, request reads. */

export interface AppGrant {
  telegramUserId: number;
  expiresAt: number;
  /** What the grant allows, for a grant that is more than a sign-in (an export link's partner and filters). */
  data?: Record<string, unknown>;
}

export function putGrant(conn: Conn, key: string, grant: AppGrant, now: number): void {
  conn.insert(kv).values({ key, value: grant, updatedAt: now }).run();
}

export function readGrant(conn: Conn, key: string): AppGrant | undefined {
  return conn.select({ value: kv.value }).from(kv).where(eq(kv.key, key)).get()?.value as AppGrant | undefined;
}

/** Deletes a grant and returns it: at most one caller ever gets it (single use). */
export function takeGrant(conn: Conn, key: string): AppGrant | undefined {
  const row = conn.delete(kv).where(eq(kv.key, key)).returning({ value: kv.value }).get();
  return row?.value as AppGrant | undefined;
}

export function dropGrant(conn: Conn, key: string): void {
  conn.delete(kv).where(eq(kv.key, key)).run();
}

/** Removes the grants under `prefix` that expired before `now`. */
export function sweepGrants(conn: Conn, prefix: string, now: number): void {
  conn
    .delete(kv)
    .where(and(like(kv.key, `${prefix}%`), lt(sql`json_extract(${kv.value}, '$.expiresAt')`, now)))
    .run();
}

export function deleteBotUser(conn: Conn, telegramUserId: number): boolean {
  return conn.delete(botUsers).where(eq(botUsers.telegramUserId, telegramUserId)).run().changes === 1;
}

export function getTopupRequest(conn: Conn, requestId: string) {
  return conn.select().from(topupRequests).where(eq(topupRequests.requestId, requestId)).get();
}

/** The events an order produced, oldest first (an order page's timeline). */
export function eventsOfOrder(conn: Conn, orderId: string): { event: string; createdAt: number }[] {
  return conn.select({ event: events.event, createdAt: events.createdAt }).from(events).where(eq(events.orderId, orderId)).orderBy(asc(events.eventId)).all();
}
