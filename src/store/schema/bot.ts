import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { partners } from './partners.js';
import { BOT_ROLES } from '../../domain/enums.js';

/**
 * The bot's tables (operator-api.md section 4): invite codes, linked messenger accounts, and the grammY
 * session and conversation state. Times are service-clock milliseconds.
 */

/**
 * One-time codes that link a messenger account to a partner (`/start <code>`), valid 24 h. Only the code's
 * SHA-256 (hex) is kept, like API keys and sign-in links: the code itself is shown once, when it is made.
 */
export const invites = sqliteTable(
  'invites',
  {
    codeHash: text('code_hash').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.partnerId),
    role: text('role', { enum: BOT_ROLES }).notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    /** Telegram user id that redeemed the code. */
    usedBy: integer('used_by'),
  },
  (t) => [index('invites_partner').on(t.partnerId)],
);

/** Messenger accounts linked to a partner: one partner and role per Telegram user. */
export const botUsers = sqliteTable(
  'bot_users',
  {
    telegramUserId: integer('telegram_user_id').primaryKey(),
    /** Where notifications for this user go (the chat the code was redeemed in). */
    chatId: integer('chat_id').notNull(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.partnerId),
    role: text('role', { enum: BOT_ROLES }).notNull(),
    /** `ru` or `en`: the language of messages sent without a user action (notifications). */
    language: text('language').notNull(),
    linkedAt: integer('linked_at').notNull(),
    /** How Telegram names the person (first and last name, @username), for the team list; kept current. */
    displayName: text('display_name'),
  },
  (t) => [index('bot_users_partner').on(t.partnerId)],
);

/** grammY sessions and conversation state: one JSON document per storage key. */
export const botSessions = sqliteTable('bot_sessions', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
