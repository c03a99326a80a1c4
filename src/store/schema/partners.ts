import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CURRENCIES, PARTNER_STATUSES } from '../../domain/enums.js';

/** Partners, their API keys and their low-balance alert thresholds. */

export const partners = sqliteTable('partners', {
  partnerId: integer('partner_id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  status: text('status', { enum: PARTNER_STATUSES }).notNull(),
  /** The webhook block: null until first saved. */
  webhookUrl: text('webhook_url'),
  /** Secret encrypted at rest (AES-256-GCM, see src/app/secrets.ts). */
  webhookSecretEnc: text('webhook_secret_enc'),
  /** The webhook events the partner takes (the Webhook block's `events`); null: the three order events. */
  webhookEvents: text('webhook_events', { mode: 'json' }).$type<string[]>(),
  createdAt: integer('created_at').notNull(),
});

/**
 * Low-balance alert thresholds: a row per partner and currency that has one. `alerted`
 * is set when a debit took the balance below the threshold and the owners were told, and cleared when a
 * debit finds the balance back at or above it (or the threshold is saved again).
 */
export const balanceAlerts = sqliteTable(
  'balance_alerts',
  {
    partnerId: integer('partner_id').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    threshold: integer('threshold').notNull(),
    alerted: integer('alerted', { mode: 'boolean' }).notNull().default(false),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.currency] })],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    keyId: text('key_id').primaryKey(),
    partnerId: integer('partner_id').notNull().references(() => partners.partnerId),
    prefix: text('prefix').notNull(),
    /** SHA-256 of the full key; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    ipWhitelist: text('ip_whitelist', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash').on(t.keyHash), index('api_keys_partner').on(t.partnerId)],
);
