import { and, asc, eq, lte, notInArray, sql } from 'drizzle-orm';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { jobs } from './schema.js';

export type JobRow = typeof jobs.$inferSelect;

/** Schedules (or moves) the one job of `kind` for `ref`. */
export function scheduleJob(conn: Conn, kind: string, ref: string, runAt: number, now: number): void {
  prepared(conn, 'scheduleJob', () =>
    conn
      .insert(jobs)
      .values({ kind: sql.placeholder('kind'), ref: sql.placeholder('ref'), runAt: sql.placeholder('runAt'), createdAt: sql.placeholder('now') })
      .onConflictDoUpdate({ target: [jobs.kind, jobs.ref], set: { runAt: sql`excluded.run_at`, attempts: 0, lastError: null } })
      .prepare(),
  ).run({ kind, ref, runAt, now });
}

export function completeJob(conn: Conn, jobId: number): void {
  prepared(conn, 'completeJob', () => conn.delete(jobs).where(eq(jobs.jobId, sql.placeholder('id'))).prepare()).run({ id: jobId });
}

export function deleteJob(conn: Conn, kind: string, ref: string): void {
  conn.delete(jobs).where(and(eq(jobs.kind, kind), eq(jobs.ref, ref))).run();
}

export function retryJob(conn: Conn, jobId: number, runAt: number, error: string): void {
  conn
    .update(jobs)
    .set({ runAt, attempts: sql`${jobs.attempts} + 1`, lastError: error.slice(0, 500) })
    .where(eq(jobs.jobId, jobId))
    .run();
}

/** Due jobs, oldest first, skipping the ones in `exclude` (running now). */
export function dueJobs(conn: Conn, now: number, exclude: number[], limit: number): JobRow[] {
  const rows = prepared(conn, 'dueJobs', () =>
    conn
      .select()
      .from(jobs)
      .where(lte(jobs.runAt, sql.placeholder('now')))
      .orderBy(asc(jobs.runAt), asc(jobs.jobId))
      .limit(sql.placeholder('limit'))
      .prepare(),
  ).all({ now, limit: limit + exclude.length });
  if (!exclude.length) return rows;
  const skip = new Set(exclude);
  return rows.filter((r) => !skip.has(r.jobId)).slice(0, limit);
}

export function earliestJob(conn: Conn, exclude: number[]): number | null {
  const q = conn.select({ t: sql<number | null>`min(${jobs.runAt})` }).from(jobs);
  const row = exclude.length ? q.where(notInArray(jobs.jobId, exclude)).get() : q.get();
  return row?.t ?? null;
}

export function getJob(conn: Conn, kind: string, ref: string): JobRow | undefined {
  return prepared(conn, 'getJob', () => conn.select().from(jobs).where(and(eq(jobs.kind, sql.placeholder('k')), eq(jobs.ref, sql.placeholder('r')))).prepare()).get({ k: kind, r: ref });
}
