import { Composer } from 'grammy';
import { ALERTS_CONVERSATION, APIKEY_CONVERSATION, TOPUP_CONVERSATION, WEBHOOK_CONVERSATION } from '../conversations/owner.js';
import type { BotContext } from '../context.js';

/** Owner-only commands: /topup, /apikey, /webhook, /alerts. Staff get a refusal. */
export function ownerFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  const commands = ['topup', 'apikey', 'webhook', 'alerts'];

  c.command(commands, async (ctx, next) => {
    if (ctx.link?.role !== 'owner') return void (await ctx.reply(ctx.t.common.ownerOnly));
    return next();
  });
  c.command('topup', async (ctx) => {
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(TOPUP_CONVERSATION, ctx.link!.partnerId);
  });
  c.command('apikey', async (ctx) => {
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(APIKEY_CONVERSATION, ctx.link!.partnerId);
  });
  c.command('webhook', async (ctx) => {
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(WEBHOOK_CONVERSATION, ctx.link!.partnerId);
  });
  c.command('alerts', async (ctx) => {
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(ALERTS_CONVERSATION, ctx.link!.partnerId);
  });
  return c;
}
