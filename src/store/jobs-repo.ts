import { and, asc, eq, lte, notInArray, sql } from 'drizzle-orm';
import type { Conn } from './db.js';
import { jobs } from './schema.js';

export type JobRow = typeof jobs.$inferSelect;

/** Schedules (or moves) the one job of `kind` for `ref`. */
export function scheduleJob(conn: Conn, kind: string, ref: string, runAt: number, now: number): void {
  conn
    .insert(jobs)
    .values({ kind, ref, runAt, createdAt: now })
    .onConflictDoUpdate({ target: [jobs.kind, jobs.ref], set: { runAt, attempts: 0, lastError: null } })
    .run();
}

export function completeJob(conn: Conn, jobId: number): void {
  conn.delete(jobs).where(eq(jobs.jobId, jobId)).run();
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

export function dueJobs(conn: Conn, now: number, exclude: number[], limit: number): JobRow[] {
  const conds = [lte(jobs.runAt, now)];
  if (exclude.length) conds.push(notInArray(jobs.jobId, exclude));
  return conn
    .select()
    .from(jobs)
    .where(and(...conds))
    .orderBy(asc(jobs.runAt), asc(jobs.jobId))
    .limit(limit)
    .all();
}

export function earliestJob(conn: Conn, exclude: number[]): number | null {
  const q = conn.select({ t: sql<number | null>`min(${jobs.runAt})` }).from(jobs);
  const row = exclude.length ? q.where(notInArray(jobs.jobId, exclude)).get() : q.get();
  return row?.t ?? null;
}

export function getJob(conn: Conn, kind: string, ref: string): JobRow | undefined {
  return conn.select().from(jobs).where(and(eq(jobs.kind, kind), eq(jobs.ref, ref))).get();
}
