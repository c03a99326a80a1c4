import { chatLanguage } from '../src/app/bot-users.js';
import type { Deps } from '../src/app/deps.js';
import { SqliteStorage } from './storage.js';

/**
 * The language of an operator chat: the one its ADMIN_CHAT_IDS entry carries (`123456:ru`), used from the
 * first alert on. Otherwise, operators not being linked to a partner, the bot remembers the language of the
 * operator's client whenever they write or press a button there; alerts then follow it. An operator chat
 * the bot never heard from gets English (the Bot API does not tell a chat's language).
 */
const store = (deps: Pick<Deps, 'db' | 'clock'>) => new SqliteStorage<'ru' | 'en'>(deps, 'operator-language:');

export function operatorLanguage(deps: Pick<Deps, 'db' | 'clock' | 'config'>, chatId: number): 'ru' | 'en' {
  return configuredLanguage(deps, chatId) ?? store(deps).read(String(chatId)) ?? chatLanguage(deps, chatId);
}

/** The language the chat's ADMIN_CHAT_IDS entry carries, if any. */
export function configuredLanguage(deps: Pick<Deps, 'config'>, chatId: number): 'ru' | 'en' | undefined {
  return deps.config.operatorLanguages?.[String(chatId)];
}

export function rememberOperatorLanguage(deps: Pick<Deps, 'db' | 'clock'>, chatId: number, languageCode: string | undefined): void {
  if (!languageCode) return;
  const lang = languageCode.toLowerCase().startsWith('ru') ? 'ru' : 'en';
  const s = store(deps);
  if (s.read(String(chatId)) !== lang) s.write(String(chatId), lang);
}
