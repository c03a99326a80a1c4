import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Durable jobs on the service clock. */
export const jobs = sqliteTable(
  'jobs',
  {
    jobId: integer('job_id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    ref: text('ref').notNull(),
    runAt: integer('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('jobs_run_at').on(t.runAt), uniqueIndex('jobs_kind_ref').on(t.kind, t.ref)],
);
