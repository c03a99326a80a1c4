import { Composer } from 'grammy';
import type { BotContext } from '../context.js';

/**
 * Everything after this point is for linked accounts. Unlinked users get the short explanation and
 * nothing else: in private chats for any message, in groups only for commands, and as the answer of a
 * button.
 */
export function gateFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.use(async (ctx, next) => {
    if (ctx.link) return next();
    if (ctx.callbackQuery) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.notLinked.slice(0, 200), show_alert: true }));
    const text = ctx.message?.text;
    if (ctx.message && (ctx.chat?.type === 'private' || text?.startsWith('/'))) await ctx.reply(ctx.t.common.notLinked);
  });
  return c;
}
