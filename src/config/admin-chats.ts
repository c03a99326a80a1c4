import { csv } from './fields.js';

/**
 * ADMIN_CHAT_IDS (operator-api.md section 1): chat ids, each optionally with the operator's language,
 * `123456:ru`. The configuration keeps the ids as the list of operator chats and the languages beside them,
 * used from the first alert on (before the operator ever wrote to the bot).
 */
const ENTRY = /^(-?\d+)(?::(ru|en))?$/i;

export const adminChatIds = csv
  .refine((items) => items.every((c) => ENTRY.test(c)), 'must be comma-separated chat ids, each optionally with its language (:ru or :en)')
  .transform((items) => items.map((c) => ENTRY.exec(c)![1]));

/** The languages the entries carry, by chat id (entries without one are left out). */
export function adminChatLanguages(raw: string | undefined): Record<string, 'ru' | 'en'> {
  const out: Record<string, 'ru' | 'en'> = {};
  for (const entry of (raw ?? '').split(',').map((x) => x.trim())) {
    const m = ENTRY.exec(entry);
    if (m?.[2]) out[m[1]] = m[2].toLowerCase() as 'ru' | 'en';
  }
  return out;
}
