import type { Action, Who } from '../src/domain/permissions.js';
import type { BotContext } from './context.js';

/**
 * The action of the permission table (src/domain/permissions.ts) behind each command that needs a role, in
 * the order of the command menu: the menu, the refusals and the conversations' checks all read it.
 */
export const COMMAND_ACTION = {
  order: 'orders.place',
  orders: 'orders.view',
  balance: 'balance.view',
  status: 'orders.view',
  app: 'orders.view',
  notices: 'notices.choose',
  topup: 'topups.request',
  apikey: 'apikey.manage',
  webhook: 'webhook.manage',
  alerts: 'alerts.manage',
  team: 'team.manage',
  reviews: 'reviews.resolve',
  deposits: 'deposits.resolve',
} as const satisfies Record<string, Action>;

export type RoleCommand = keyof typeof COMMAND_ACTION;

/** The sender as the table sees them: the role of their link, and whether the chat is an operator chat. */
export function whoOfCtx(ctx: Pick<BotContext, 'link' | 'isOperator'>): Who {
  return { role: ctx.link?.role ?? null, operator: ctx.isOperator };
}
