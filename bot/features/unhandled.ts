import { Composer } from 'grammy';
import type { BotContext } from '../context.js';
import * as commonView from '../views/common.js';

/** Registered last: whatever no feature took. */
export function unhandledFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.command('cancel', (ctx) => ctx.reply(ctx.t.common.nothingToCancel));
  c.on('callback_query', (ctx) => ctx.answerCallbackQuery({ text: ctx.t.common.menuExpired }));
  c.on('message', async (ctx) => {
    const command = ctx.message.text?.startsWith('/') === true;
    if (ctx.chat.type !== 'private' && !command) return;
    // free text gets one line; an unknown command the whole help
    if (!command) return void (await ctx.reply(ctx.t.common.freeTextHint));
    await ctx.reply(commonView.help(ctx.t, ctx.link?.role ?? null, ctx.isOperator));
  });
  return c;
}
