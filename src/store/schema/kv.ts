import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Small key-value state: operator settings, the sandbox clock offset, sandbox market and faults. */
export const kv = sqliteTable('kv', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
  updatedAt: integer('updated_at').notNull(),
});
