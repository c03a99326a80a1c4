import { and, eq, isNull, like, lt } from 'drizzle-orm';
import type { Conn } from './db.js';
import { kvGet, kvSet } from './kv-repo.js';
import type { BotRole } from '../domain/enums.js';
import { botSessions, botUsers, invites } from './schema.js';

export type InviteRow = typeof invites.$inferSelect;
export type BotUserRow = typeof botUsers.$inferSelect;

// ---- invites

export function insertInvite(conn: Conn, row: typeof invites.$inferInsert): InviteRow {
  return conn.insert(invites).values(row).returning().get();
}

/** The invite whose code hashes to `codeHash` (src/domain/secret-hash.ts). */
export function getInvite(conn: Conn, codeHash: string): InviteRow | undefined {
  return conn.select().from(invites).where(eq(invites.codeHash, codeHash)).get();
}

/** Marks an unused invite used; false when it was used meanwhile (the update matched nothing). */
export function markInviteUsed(conn: Conn, codeHash: string, usedBy: number, now: number): boolean {
  const r = conn
    .update(invites)
    .set({ usedAt: now, usedBy })
    .where(and(eq(invites.codeHash, codeHash), isNull(invites.usedAt)))
    .run();
  return r.changes === 1;
}

// ---- linked messenger accounts

export function upsertBotUser(
  conn: Conn,
  row: { telegramUserId: number; chatId: number; partnerId: number; role: BotRole; language: string; linkedAt: number; displayName: string | null },
): BotUserRow {
  return conn
    .insert(botUsers)
    .values(row)
    .onConflictDoUpdate({
      target: botUsers.telegramUserId,
      set: { chatId: row.chatId, partnerId: row.partnerId, role: row.role, language: row.language, linkedAt: row.linkedAt, displayName: row.displayName },
    })
    .returning()
    .get();
}

export function getBotUser(conn: Conn, telegramUserId: number): BotUserRow | undefined {
  return conn.select().from(botUsers).where(eq(botUsers.telegramUserId, telegramUserId)).get();
}

export function botUsersOfPartner(conn: Conn, partnerId: number): BotUserRow[] {
  return conn.select().from(botUsers).where(eq(botUsers.partnerId, partnerId)).all();
}

export function botUsersInChat(conn: Conn, chatId: number): BotUserRow[] {
  return conn.select().from(botUsers).where(eq(botUsers.chatId, chatId)).all();
}

export function setBotUserProfile(conn: Conn, telegramUserId: number, profile: { language?: string; displayName?: string }): void {
  conn.update(botUsers).set(profile).where(eq(botUsers.telegramUserId, telegramUserId)).run();
}

// ---- session and conversation storage

export function sessionRead(conn: Conn, key: string): string | undefined {
  return conn.select({ value: botSessions.value }).from(botSessions).where(eq(botSessions.key, key)).get()?.value;
}

export function sessionWrite(conn: Conn, key: string, value: string, now: number): void {
  conn
    .insert(botSessions)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: botSessions.key, set: { value, updatedAt: now } })
    .run();
}

export function sessionDelete(conn: Conn, key: string): void {
  conn.delete(botSessions).where(eq(botSessions.key, key)).run();
}

/** Deletes every key matching a LIKE pattern (`%` any run of characters). */
export function sessionDeleteLike(conn: Conn, pattern: string): void {
  conn.delete(botSessions).where(like(botSessions.key, pattern)).run();
}

// ---- the bot's own username (for invite links), remembered when the bot starts

const BOT_USERNAME_KEY = 'bot.username';

export function getBotUsername(conn: Conn): string | undefined {
  return kvGet<string>(conn, BOT_USERNAME_KEY);
}

export function setBotUsername(conn: Conn, username: string, now: number): void {
  kvSet(conn, BOT_USERNAME_KEY, username, now);
}

// ---- per-chat notice settings (src/app/notices.ts): the notices a chat switched off

const noticesKey = (chatId: number) => `bot.notices.${chatId}`;

export function getMutedNotices(conn: Conn, chatId: number): string[] {
  return kvGet<string[]>(conn, noticesKey(chatId)) ?? [];
}

export function setMutedNotices(conn: Conn, chatId: number, muted: string[], now: number): void {
  kvSet(conn, noticesKey(chatId), muted, now);
}

/** When a partner's owners were last told that its webhook gave up (service clock), for the once-a-day rule. */
const webhookNoticeKey = (partnerId: number) => `bot.webhook-notice.${partnerId}`;

export function getWebhookNoticeAt(conn: Conn, partnerId: number): number | undefined {
  return kvGet<number>(conn, webhookNoticeKey(partnerId));
}

export function setWebhookNoticeAt(conn: Conn, partnerId: number, at: number): void {
  kvSet(conn, webhookNoticeKey(partnerId), at, at);
}

/** Deletes the keys matching a LIKE pattern that were last written before `before` (service clock). */
export function sessionDeleteOlder(conn: Conn, pattern: string, before: number): void {
  conn.delete(botSessions).where(and(like(botSessions.key, pattern), lt(botSessions.updatedAt, before))).run();
}

/** How a chat hears of orders by other team members (`each`, `digest`, `off`); undefined: never chosen. */
const teamModeKey = (chatId: number) => `bot.notices.${chatId}.staff`;

export function getTeamNoticeMode(conn: Conn, chatId: number): string | undefined {
  return kvGet<string>(conn, teamModeKey(chatId));
}

export function setTeamNoticeMode(conn: Conn, chatId: number, mode: string, now: number): void {
  kvSet(conn, teamModeKey(chatId), mode, now);
}

/** When a chat last had its daily digest (service clock), or undefined. */
const digestKey = (chatId: number) => `bot.digest.${chatId}`;

export function getDigestAt(conn: Conn, chatId: number): number | undefined {
  return kvGet<number>(conn, digestKey(chatId));
}

export function setDigestAt(conn: Conn, chatId: number, at: number): void {
  kvSet(conn, digestKey(chatId), at, at);
}

/** Every linked account (for the owners' daily digests). */
export function allBotUsers(conn: Conn): BotUserRow[] {
  return conn.select().from(botUsers).all();
}

/** The keys matching a LIKE pattern (at most `limit`). */
export function sessionKeysLike(conn: Conn, pattern: string, limit: number): string[] {
  return conn.select({ key: botSessions.key }).from(botSessions).where(like(botSessions.key, pattern)).limit(limit).all().map((r) => r.key);
}
