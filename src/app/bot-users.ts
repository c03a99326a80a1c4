import { botUsersInChat, botUsersOfPartner, getBotUser, setBotUserLanguage } from '../store/bot-repo.js';
import type { BotRole } from '../store/schema-bot.js';
import type { Deps } from './deps.js';
import { normaliseLanguage } from './invites.js';

/** Who a messenger account is to the service: its partner and role, and where to notify a partner. */

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

/** Chats to tell about a partner's orders: one per linked account, each with its language. */
export function partnerChats(deps: Deps, partnerId: number): { chatId: number; language: 'ru' | 'en' }[] {
  const seen = new Map<number, 'ru' | 'en'>();
  for (const u of botUsersOfPartner(deps.db, partnerId)) if (!seen.has(u.chatId)) seen.set(u.chatId, normaliseLanguage(u.language));
  return [...seen].map(([chatId, language]) => ({ chatId, language }));
}

/** The owners' chats of a partner (top-up news). */
export function ownerChats(deps: Deps, partnerId: number): { chatId: number; language: 'ru' | 'en' }[] {
  const seen = new Map<number, 'ru' | 'en'>();
  for (const u of botUsersOfPartner(deps.db, partnerId))
    if (u.role === 'owner' && !seen.has(u.chatId)) seen.set(u.chatId, normaliseLanguage(u.language));
  return [...seen].map(([chatId, language]) => ({ chatId, language }));
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
