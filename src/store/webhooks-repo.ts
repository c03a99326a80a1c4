import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { blockedWebhookHosts, events, webhookAttempts, webhookDeliveries } from './schema.js';

/** The outbox and its deliveries: the statements of the webhook hot path, prepared once per connection. */
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export function insertEvent(conn: Conn, e: { partnerId: number; orderId: string; event: string; body: string; createdAt: number }): number {
  const row = prepared(conn, 'insertEvent', () =>
    conn
      .insert(events)
      .values({ partnerId: sql.placeholder('partnerId'), orderId: sql.placeholder('orderId'), event: sql.placeholder('event'), body: sql.placeholder('body'), createdAt: sql.placeholder('createdAt') })
      .prepare(),
  ).run(e);
  return Number(row.lastInsertRowid);
}

export function getEvent(conn: Conn, eventId: number): EventRow | undefined {
  return prepared(conn, 'getEvent', () => conn.select().from(events).where(eq(events.eventId, sql.placeholder('id'))).prepare()).get({ id: eventId });
}

export function insertDelivery(conn: Conn, d: { webhookId: string; eventId: number; partnerId: number; orderId: string; event: string; url: string; now: number }): void {
  prepared(conn, 'insertDelivery', () =>
    conn
      .insert(webhookDeliveries)
      .values({
        webhookId: sql.placeholder('webhookId'),
        eventId: sql.placeholder('eventId'),
        partnerId: sql.placeholder('partnerId'),
        orderId: sql.placeholder('orderId'),
        event: sql.placeholder('event'),
        url: sql.placeholder('url'),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: sql.placeholder('now'),
        createdAt: sql.placeholder('now'),
        updatedAt: sql.placeholder('now'),
      })
      .prepare(),
  ).run(d);
}

export function getDelivery(conn: Conn, webhookId: string): DeliveryRow | undefined {
  return prepared(conn, 'getDelivery', () => conn.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, sql.placeholder('id'))).prepare()).get({ id: webhookId });
}

/** The outcome of one attempt. */
export function recordAttempt(
  conn: Conn,
  a: { webhookId: string; status: 'pending' | 'delivered' | 'failed'; attempts: number; lastStatusCode: number | null; lastError: string | null; nextAttemptAt: number | null; now: number },
): void {
  prepared(conn, 'recordAttempt', () =>
    conn
      .update(webhookDeliveries)
      .set({
        status: sql`${sql.placeholder('status')}`,
        attempts: sql`${sql.placeholder('attempts')}`,
        lastStatusCode: sql`${sql.placeholder('lastStatusCode')}`,
        lastError: sql`${sql.placeholder('lastError')}`,
        nextAttemptAt: sql`${sql.placeholder('nextAttemptAt')}`,
        dnsDeferrals: 0,
        updatedAt: sql`${sql.placeholder('now')}`,
      })
      .where(eq(webhookDeliveries.webhookId, sql.placeholder('webhookId')))
      .prepare(),
  ).run(a);
}

/** One request of a delivery for its log, written in the transaction that records the outcome. */
export function insertAttemptLog(conn: Conn, a: Omit<AttemptRow, 'attemptId'>): void {
  prepared(conn, 'insertAttemptLog', () =>
    conn
      .insert(webhookAttempts)
      .values({
        webhookId: sql.placeholder('webhookId'),
        number: sql.placeholder('number'),
        manual: sql.placeholder('manual'),
        sentAt: sql.placeholder('sentAt'),
        statusCode: sql.placeholder('statusCode'),
        error: sql.placeholder('error'),
        durationMs: sql.placeholder('durationMs'),
      })
      .prepare(),
  ).run({ ...a, manual: a.manual ? 1 : 0 });
}

/** A manual redelivery: counted apart from the schedule; `status` changes only as the domain rule says. */
export function recordManualAttempt(
  conn: Conn,
  a: { webhookId: string; manualAttempts: number; status: 'pending' | 'delivered' | 'failed'; lastStatusCode: number | null; lastError: string | null; now: number },
): void {
  conn
    .update(webhookDeliveries)
    .set({ manualAttempts: a.manualAttempts, status: a.status, lastStatusCode: a.lastStatusCode, lastError: a.lastError, updatedAt: a.now })
    .where(eq(webhookDeliveries.webhookId, a.webhookId))
    .run();
}

/** A delivery written with its outcome at once (a test webhook: one attempt, no schedule). */
export function insertFinishedDelivery(conn: Conn, d: Omit<DeliveryRow, 'dnsDeferrals' | 'manualAttempts'>): void {
  conn.insert(webhookDeliveries).values(d).run();
}

/** A DNS failure: no attempt used, the next try at `at`, one more deferral in a row. */
export function recordDnsDeferral(conn: Conn, a: { webhookId: string; deferrals: number; lastError: string; at: number; now: number }): void {
  conn
    .update(webhookDeliveries)
    .set({ lastError: a.lastError, nextAttemptAt: a.at, dnsDeferrals: a.deferrals, updatedAt: a.now })
    .where(eq(webhookDeliveries.webhookId, a.webhookId))
    .run();
}

export function isHostBlocked(conn: Conn, host: string): boolean {
  return !!prepared(conn, 'isHostBlocked', () => conn.select({ host: blockedWebhookHosts.host }).from(blockedWebhookHosts).where(eq(blockedWebhookHosts.host, sql.placeholder('h'))).prepare()).get({ h: host });
}

export function unblockHost(conn: Conn, host: string): void {
  prepared(conn, 'unblockHost', () => conn.delete(blockedWebhookHosts).where(eq(blockedWebhookHosts.host, sql.placeholder('h'))).prepare()).run({ h: host });
}

/** The address was refused before sending: the delivery ends with `rejected_reason`. */
export function refuseDelivery(conn: Conn, webhookId: string, reason: string, now: number): void {
  conn.update(webhookDeliveries).set({ status: 'failed', rejectedReason: reason, nextAttemptAt: null, updatedAt: now }).where(eq(webhookDeliveries.webhookId, webhookId)).run();
}

/** A host that resolved into a private network: order webhook URLs naming it are refused at creation. */
export function blockHost(conn: Conn, host: string, reason: string, now: number): void {
  conn.insert(blockedWebhookHosts).values({ host, reason, createdAt: now }).onConflictDoUpdate({ target: blockedWebhookHosts.host, set: { reason, createdAt: now } }).run();
}

export interface DeliveryFilter {
  orderId?: string;
  status?: 'pending' | 'delivered' | 'failed';
  partnerId?: number;
}

/** Newest first. */
export function listDeliveryRows(conn: Conn, f: DeliveryFilter, limit: number): DeliveryRow[] {
  const conds = [];
  if (f.orderId !== undefined) conds.push(eq(webhookDeliveries.orderId, f.orderId));
  if (f.status !== undefined) conds.push(eq(webhookDeliveries.status, f.status));
  if (f.partnerId !== undefined) conds.push(eq(webhookDeliveries.partnerId, f.partnerId));
  return conn
    .select()
    .from(webhookDeliveries)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.webhookId))
    .limit(limit)
    .all();
}

/** A partner's deliveries, newest first (by event id: one delivery per event), keyset paged. */
export function listPartnerDeliveries(
  conn: Conn,
  f: { partnerId: number; orderId?: string; event?: string; status?: 'pending' | 'delivered' | 'failed'; beforeEventId?: number; limit: number },
): DeliveryRow[] {
  const conds = [eq(webhookDeliveries.partnerId, f.partnerId)];
  if (f.orderId !== undefined) conds.push(eq(webhookDeliveries.orderId, f.orderId));
  if (f.event !== undefined) conds.push(eq(webhookDeliveries.event, f.event));
  if (f.status !== undefined) conds.push(eq(webhookDeliveries.status, f.status));
  if (f.beforeEventId !== undefined) conds.push(lt(webhookDeliveries.eventId, f.beforeEventId));
  return conn
    .select()
    .from(webhookDeliveries)
    .where(and(...conds))
    .orderBy(desc(webhookDeliveries.eventId))
    .limit(f.limit)
    .all();
}

/** The logged requests of these deliveries, oldest first. */
export function attemptsOf(conn: Conn, webhookIds: string[]): AttemptRow[] {
  if (webhookIds.length === 0) return [];
  return conn.select().from(webhookAttempts).where(inArray(webhookAttempts.webhookId, webhookIds)).orderBy(asc(webhookAttempts.attemptId)).all();
}
