import { botUsersInChat, getBotUser, setBotUserProfile } from '../store/bot-repo.js';
import type { BotRole } from '../domain/enums.js';
import { classifyStorageError } from '../store/storage-health.js';
import type { Deps } from './deps.js';
import { normaliseLanguage } from './invites.js';

/** Who a messenger account is to the service: its partner and role (who hears what: src/app/notices.ts). */

export interface BotLink {
  telegramUserId: number;
  chatId: number;
  partnerId: number;
  role: BotRole;
  language: 'ru' | 'en';
  displayName: string | null;
}

function toLink(r: { telegramUserId: number; chatId: number; partnerId: number; role: BotRole; language: string; displayName: string | null }): BotLink {
  return { telegramUserId: r.telegramUserId, chatId: r.chatId, partnerId: r.partnerId, role: r.role, language: normaliseLanguage(r.language), displayName: r.displayName };
}

export function findLink(deps: Pick<Deps, 'db'>, telegramUserId: number): BotLink | null {
  const r = getBotUser(deps.db, telegramUserId);
  return r ? toLink(r) : null;
}

/** The language of a chat without a user action (operator alerts): a linked account there, else English. */
export function chatLanguage(deps: Pick<Deps, 'db'>, chatId: number): 'ru' | 'en' {
  const u = botUsersInChat(deps.db, chatId)[0];
  return u ? normaliseLanguage(u.language) : 'en';
}

/**
 * Keeps the stored language and name in step with the user's client (the language for later notifications,
 * the name for the team list); writes only what changed. Best effort: during a storage fault the write is
 * skipped, so that what the person asked for (often a read) still works.
 */
export function rememberProfile(deps: Pick<Deps, 'db'>, link: BotLink, from: { languageCode?: string; displayName: string | null }): void {
  const change: { language?: string; displayName?: string } = {};
  const lang = normaliseLanguage(from.languageCode);
  if (from.languageCode !== undefined && lang !== link.language) change.language = lang;
  if (from.displayName !== null && from.displayName !== link.displayName) change.displayName = from.displayName;
  if (change.language === undefined && change.displayName === undefined) return;
  try {
    setBotUserProfile(deps.db, link.telegramUserId, change);
  } catch (e) {
    if (!classifyStorageError(e)) throw e;
  }
}
