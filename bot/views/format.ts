import { offsetIso } from '../../src/domain/time-format.js';

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

/**
 * A decimal amount as people of the language read it: "1,234.50" in English, "1 234,50" in Russian (a
 * no-break space between thousands, a decimal comma). Values meant to be copied (an exact top-up amount,
 * an address) are shown as they are instead.
 */
export function amount(lang: 'en' | 'ru', value: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) return value;
  const whole = m[2].replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'ru' ? '\u00a0' : ',');
  return m[1] + whole + (m[3] === undefined ? '' : (lang === 'ru' ? ',' : '.') + m[3]);
}

/** A whole number with thousands separators ("50,000", "50 000"). */
export const count = (lang: 'en' | 'ru', n: number): string => amount(lang, String(n));

/** Short time for messages: "2026-03-01 12:00" from the contract's ISO timestamps. */
export function shortTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/**
 * A contract timestamp with its time zone: "2026-03-01 12:00 UTC" (or "UTC+03:00"). Timestamps without
 * an offset are the service's local time, which is UTC.
 */
export function zonedTime(iso: string): string {
  const m = /(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  const zone = !m || m[1] === 'Z' || m[1] === '+00:00' || m[1] === '-00:00' ? 'UTC' : `UTC${m[1]}`;
  return `${shortTime(iso)} ${zone}`;
}

/** Tap-to-copy text (parse_mode HTML). */
export function code(s: string): string {
  return `<code>${esc(s)}</code>`;
}

/** Escapes text for parse_mode HTML. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

