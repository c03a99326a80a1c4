import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * State of the simulated suppliers (the sandbox) that must survive a restart: when an account was first
 * seen, the simulated DNS answers, and changes to the simulated gift market.
 */

export const sandboxAccounts = sqliteTable('sandbox_accounts', {
  username: text('username').primaryKey(),
  firstSeenAt: integer('first_seen_at').notNull(),
  premiumUntil: integer('premium_until'),
});

export const sandboxDns = sqliteTable('sandbox_dns', {
  hostname: text('hostname').primaryKey(),
  addresses: text('addresses', { mode: 'json' }).$type<string[]>().notNull(),
});

/** The gift market: changes to the seeded listings (PUT /sandbox/gifts/{gift}) and sales. */
export const sandboxGifts = sqliteTable('sandbox_gifts', {
  gift: text('gift').primaryKey(),
  priceMilli: integer('price_milli'),
  available: integer('available', { mode: 'boolean' }),
  reserved: integer('reserved', { mode: 'boolean' }),
  outcome: text('outcome'),
  updatedAt: integer('updated_at').notNull(),
});
