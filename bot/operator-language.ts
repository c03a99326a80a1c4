import { chatLanguage } from '../src/app/bot-users.js';
import type { Deps } from '../src/app/deps.js';
import { SqliteStorage } from './storage.js';

/**
 * The language of an operator chat. Operators are not linked to a partner, so the bot remembers the
 * language of the operator's client whenever they write or press a button there; alerts then follow it.
 * An operator chat the bot never heard from gets English (the Bot API does not tell a chat's language).
 */
const store = (deps: Deps) => new SqliteStorage<'ru' | 'en'>(deps, 'operator-language:');

export function operatorLanguage(deps: Deps, chatId: number): 'ru' | 'en' {
  return store(deps).read(String(chatId)) ?? chatLanguage(deps, chatId);
}

export function rememberOperatorLanguage(deps: Deps, chatId: number, languageCode: string | undefined): void {
  if (!languageCode) return;
  const lang = languageCode.toLowerCase().startsWith('ru') ? 'ru' : 'en';
  const s = store(deps);
  if (s.read(String(chatId)) !== lang) s.write(String(chatId), lang);
}
