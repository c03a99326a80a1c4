import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The operators' audit log: who did what to which target. */

export const auditLog = sqliteTable('audit_log', {
  auditId: integer('audit_id').primaryKey({ autoIncrement: true }),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  target: text('target'),
  data: text('data', { mode: 'json' }),
  createdAt: integer('created_at').notNull(),
});
