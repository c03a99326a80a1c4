import type { Config } from '../../config/env.js';
import { fail } from '../../domain/errors.js';
import { may, refusalOf, type Action, type PERMISSIONS } from '../../domain/permissions.js';

/**
 * Operators are the Telegram users listed in ADMIN_CHAT_IDS (a private chat's id is the user's id; an entry
 * may carry a language after a colon, `123456:ru`). The console's routes call `requireOperator` first:
 * 403 forbidden for anyone else, linked to a partner or not.
 */
export function isOperator(config: Pick<Config, 'ADMIN_CHAT_IDS'>, telegramUserId: number): boolean {
  return config.ADMIN_CHAT_IDS.some((entry) => entry.split(':')[0] === String(telegramUserId));
}

/** 403 forbidden unless an operator may do `action` (the table of src/domain/permissions.ts). */
export function requireOperator(config: Pick<Config, 'ADMIN_CHAT_IDS'>, telegramUserId: number, action: OperatorAction = 'service.operate'): void {
  if (!may({ role: null, operator: isOperator(config, telegramUserId) }, action)) fail('forbidden', refusalOf(action));
}

/** The actions of the table that are an operator's. */
export type OperatorAction = { [A in Action]: (typeof PERMISSIONS)[A] extends readonly ['operator'] ? A : never }[Action];
