import { botUsersInChat, getBotUser, setBotUserLanguage } from '../store/bot-repo.js';
import type { BotRole } from '../domain/enums.js';
import type { Deps } from './deps.js';
import { normaliseLanguage } from './invites.js';

/** Who a messenger account is to the service: its partner and role (who hears what: src/app/notices.ts). */

export interface BotLink {
  telegramUserId: number;
  chatId: number;
  partnerId: number;
  role: BotRole;
  language: 'ru' | 'en';
}

function toLink(r: { telegramUserId: number; chatId: number; partnerId: number; role: BotRole; language: string }): BotLink {
  return { telegramUserId: r.telegramUserId, chatId: r.chatId, partnerId: r.partnerId, role: r.role, language: normaliseLanguage(r.language) };
}

export function findLink(deps: Deps, telegramUserId: number): BotLink | null {
  const r = getBotUser(deps.db, telegramUserId);
  return r ? toLink(r) : null;
}

/** The language of a chat without a user action (operator alerts): a linked account there, else English. */
export function chatLanguage(deps: Deps, chatId: number): 'ru' | 'en' {
  const u = botUsersInChat(deps.db, chatId)[0];
  return u ? normaliseLanguage(u.language) : 'en';
}

/** Keeps the stored language in step with the user's client (for later notifications). */
export function rememberLanguage(deps: Deps, link: BotLink, languageCode: string | undefined): void {
  const lang = normaliseLanguage(languageCode);
  if (languageCode !== undefined && lang !== link.language) setBotUserLanguage(deps.db, link.telegramUserId, lang);
}
