import { Composer } from 'grammy';
import { chatNotices, isNotice, NOTICES, OWNER_NOTICES, setChatNotice, type Notice, type NoticeSettings } from '../../src/app/notices.js';
import type { BotContext } from '../context.js';
import { may } from '../../src/domain/permissions.js';
import { whoOfCtx } from '../permissions.js';
import { NOTICE_DATA } from '../keyboards/data.js';
import { editMessage } from './edit-message.js';
import { noticesKeyboard } from '../keyboards/notices.js';
import * as commonView from '../views/common.js';

/**
 * /notices: which notices the user's notice chat receives (the chat where the account was linked), one
 * button per notice that switches it; owners also see the owners' news. The buttons carry no state, so the
 * menu works for as long as it is on screen; Done closes it with a summary.
 */
export function noticesFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  const shown = (ctx: BotContext): readonly Notice[] => (may(whoOfCtx(ctx), 'notices.owners') ? NOTICES : NOTICES.filter((n) => !OWNER_NOTICES.includes(n)));
  const menuText = (ctx: BotContext, s: NoticeSettings) => commonView.noticesMenu(ctx.t, shown(ctx).map((n) => ({ notice: n, on: s[n] })));

  c.command('notices', async (ctx) => {
    const s = chatNotices(ctx.env.deps, ctx.link!.chatId);
    await ctx.reply(menuText(ctx, s), { reply_markup: noticesKeyboard(ctx.t, shown(ctx), s) });
  });

  c.callbackQuery(NOTICE_DATA, async (ctx) => {
    const { deps } = ctx.env;
    const chatId = ctx.link!.chatId;
    const what = ctx.match[1];
    if (what === 'done') {
      await ctx.answerCallbackQuery();
      return void (await editMessage(ctx, commonView.noticesSummary(ctx.t, shown(ctx).map((n) => ({ notice: n, on: chatNotices(deps, chatId)[n] })))));
    }
    if (!isNotice(what) || !shown(ctx).includes(what) || ctx.match[2] === undefined) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.ownerOnly }));
    const s = setChatNotice(deps, chatId, what, ctx.match[2] === '1');
    await ctx.answerCallbackQuery({ text: s[what] ? ctx.t.notices.switchedOn : ctx.t.notices.switchedOff });
    await editMessage(ctx, menuText(ctx, s), { reply_markup: noticesKeyboard(ctx.t, shown(ctx), s) });
  });
  return c;
}
