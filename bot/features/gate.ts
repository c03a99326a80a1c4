import { Composer } from 'grammy';
import type { BotContext } from '../context.js';
import { CONV_DATA } from '../keyboards/data.js';
import * as commonView from '../views/common.js';

/**
 * Everything after this point is for linked accounts. Unlinked users get the short explanation and
 * nothing else: in private chats for any message, in groups only for commands, and as the answer of a
 * button. A menu of a conversation pressed by someone unlinked meanwhile (their conversations ended with the
 * link) also loses its buttons, in a private chat (in a group the message may be someone else's).
 */
export function gateFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.use(async (ctx, next) => {
    if (ctx.link) return next();
    if (ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: ctx.t.common.notLinked.slice(0, 200), show_alert: true });
      const msg = ctx.callbackQuery.message;
      if (ctx.chat?.type === 'private' && CONV_DATA.test(ctx.callbackQuery.data ?? '') && msg?.reply_markup?.inline_keyboard.length)
        await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
      return;
    }
    const text = ctx.message?.text;
    // An operator typing a partner command (/order, /balance …) gets the operators' help, not the stranger's text.
    if (ctx.message && (ctx.chat?.type === 'private' || text?.startsWith('/'))) await ctx.reply(ctx.isOperator ? commonView.help(ctx.t, null, true) : ctx.t.common.notLinked);
  });
  return c;
}
