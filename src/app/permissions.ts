import type { Config } from '../config/env.js';
import { fail } from '../domain/errors.js';
import { may, refusalOf, type Action, type Who } from '../domain/permissions.js';
import { isOperator } from './operator/access.js';

/** A Telegram user as the permission table sees them: their link's role (if linked) and ADMIN_CHAT_IDS. */
export function whoOf(config: Pick<Config, 'ADMIN_CHAT_IDS'>, telegramUserId: number, link: { role: 'owner' | 'staff' } | null): Who {
  return { role: link?.role ?? null, operator: isOperator(config, telegramUserId) };
}

/** 403 forbidden unless the table (src/domain/permissions.ts) lets this person do it. */
export function requireAllowed(who: Who, action: Action): void {
  if (!may(who, action)) fail('forbidden', refusalOf(action));
}
