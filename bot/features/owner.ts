import { Composer } from 'grammy';
import { ALERTS_CONVERSATION, APIKEY_CONVERSATION, WEBHOOK_CONVERSATION } from '../conversations/owner.js';
import { TOPUP_CONVERSATION } from '../conversations/topup.js';
import { TEAM_CONVERSATION } from '../conversations/team.js';
import type { BotContext } from '../context.js';
import { offerPrivateChat } from './private-only.js';
import { may } from '../../src/domain/permissions.js';
import { COMMAND_ACTION, whoOfCtx } from '../permissions.js';

/** Owner-only commands: /topup, /apikey, /webhook, /alerts, /team. Staff get a refusal. */
const FLOWS = { topup: TOPUP_CONVERSATION, apikey: APIKEY_CONVERSATION, webhook: WEBHOOK_CONVERSATION, alerts: ALERTS_CONVERSATION, team: TEAM_CONVERSATION } as const;
export type OwnerCommand = keyof typeof FLOWS;

/**
 * Starts an owner's flow for a linked person (also from a deep link's `/start apikey`): staff are refused;
 * /apikey and /webhook show secrets, so in a group they only offer the private chat.
 */
export async function startOwnerFlow(ctx: BotContext, command: OwnerCommand | 'invite'): Promise<void> {
  const link = ctx.link;
  const flow = command === 'invite' ? 'team' : command;
  if (!link || !may(whoOfCtx(ctx), COMMAND_ACTION[flow])) return void (await ctx.reply(ctx.t.common.ownerOnly));
  if ((command === 'apikey' || command === 'webhook' || command === 'invite') && (await offerPrivateChat(ctx, command))) return;
  await ctx.conversation.exitAll();
  // `/start invite` (from /team's button in a group) opens the team flow at its invite step
  if (command === 'invite') await ctx.conversation.enter(TEAM_CONVERSATION, link.partnerId, true);
  else await ctx.conversation.enter(FLOWS[command], link.partnerId);
}

export function ownerFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  for (const command of Object.keys(FLOWS) as OwnerCommand[]) c.command(command, (ctx) => startOwnerFlow(ctx, command));
  return c;
}
