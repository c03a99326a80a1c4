import { sessionDelete, sessionDeleteLike, sessionDeleteOlder, sessionKeysLike, sessionRead, sessionWrite, setBotUsername } from '../store/bot-repo.js';
import type { Conn } from '../store/db.js';
import type { Deps } from './deps.js';

/** What the bot keeps in the service database: session and conversation values (JSON text), its username. */

type StateDeps = Pick<Deps, 'db' | 'clock'>;

export function readBotSession(deps: StateDeps, key: string): string | undefined {
  return sessionRead(deps.db, key);
}

export function writeBotSession(deps: StateDeps, key: string, value: string): void {
  sessionWrite(deps.db, key, value, deps.clock.now());
}

export function deleteBotSession(deps: StateDeps, key: string): void {
  sessionDelete(deps.db, key);
}

/** The keys under `prefix` (without it), at most `limit`. */
export function botSessionKeys(deps: StateDeps, prefix: string, limit = 1000): string[] {
  return sessionKeysLike(deps.db, `${prefix}%`, limit).map((k) => k.slice(prefix.length));
}

/** Forgets the values under `prefix` not written for `maxAgeMs` of service clock (bounded bookkeeping). */
export function pruneBotSessions(deps: StateDeps, prefix: string, maxAgeMs: number): void {
  sessionDeleteOlder(deps.db, `${prefix}%`, deps.clock.now() - maxAgeMs);
}

/**
 * Where a person's conversation in a chat is stored (the bot's conversations plugin uses this key): one
 * per user per chat, so several people can be in a flow in one group at once.
 */
export function conversationKey(chatId: number, telegramUserId: number): string {
  return `conversation:${chatId}:${telegramUserId}`;
}

/**
 * Ends every conversation of a person, in whatever chat (inside the caller's transaction): after an unlink,
 * none of their open menus can do anything; their next press or answer meets the unlinked-user gate.
 */
export function endConversationsOf(conn: Conn, telegramUserId: number): void {
  sessionDeleteLike(conn, `conversation:%:${telegramUserId}`);
}

/** The bot's @username, for invite links (src/app/invites.ts). */
export function rememberBotUsername(deps: StateDeps, username: string): void {
  setBotUsername(deps.db, username, deps.clock.now());
}
