import type { Config } from '../../config/env.js';
import { fail } from '../../domain/errors.js';

/**
 * Operators are the Telegram users listed in ADMIN_CHAT_IDS (a private chat's id is the user's id; an entry
 * may carry a language after a colon, `123456:ru`). The console's routes call `requireOperator` first:
 * 403 forbidden for anyone else, linked to a partner or not.
 */
export function isOperator(config: Pick<Config, 'ADMIN_CHAT_IDS'>, telegramUserId: number): boolean {
  return config.ADMIN_CHAT_IDS.some((entry) => entry.split(':')[0] === String(telegramUserId));
}

export function requireOperator(config: Pick<Config, 'ADMIN_CHAT_IDS'>, telegramUserId: number): void {
  if (!isOperator(config, telegramUserId)) fail('forbidden', 'Only an operator of the service may do this.');
}
