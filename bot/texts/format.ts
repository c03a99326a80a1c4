import { offsetIso } from '../../src/domain/time-format.js';
import { zonedTime } from './types.js';

/** How long, in a few words: "5 min", "3 h 12 min", "2 d 4 h" ("5 мин", "3 ч 12 мин", "2 дн. 4 ч"). */
export function duration(ms: number, lang: 'en' | 'ru'): string {
  const u = lang === 'ru' ? { d: 'дн.', h: 'ч', m: 'мин' } : { d: 'd', h: 'h', m: 'min' };
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} ${u.m}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} ${u.h} ${minutes % 60} ${u.m}` : `${hours} ${u.h}`;
  return hours % 24 ? `${Math.floor(hours / 24)} ${u.d} ${hours % 24} ${u.h}` : `${Math.floor(hours / 24)} ${u.d}`;
}

/** When a case was handled (service clock, milliseconds), with its zone. */
export function handledAt(ms: number): string {
  return zonedTime(offsetIso(ms));
}
