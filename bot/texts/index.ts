import { en, type Texts } from './en.js';
import { ru } from './ru.js';

export type { Texts } from './en.js';

/** Russian for `ru…` language codes, English otherwise. */
export function textsFor(languageCode: string | undefined | null): Texts {
  return typeof languageCode === 'string' && languageCode.toLowerCase().startsWith('ru') ? ru : en;
}

export function textsOf(lang: 'ru' | 'en'): Texts {
  return lang === 'ru' ? ru : en;
}
