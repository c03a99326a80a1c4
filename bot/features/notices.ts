import { Composer } from 'grammy';
import { chatNotices, isNotice, isTeamMode, NOTICES, OWNER_NOTICES, setChatNotice, setTeamMode, teamMode, type Notice } from '../../src/app/notices.js';
import type { BotContext } from '../context.js';
import { may } from '../../src/domain/permissions.js';
import { whoOfCtx } from '../permissions.js';
import { NOTICE_DATA } from '../keyboards/data.js';
import { editMessage } from './edit-message.js';
import { noticesKeyboard } from '../keyboards/notices.js';
import type { NoticeItem } from '../views/common.js';
import * as commonView from '../views/common.js';

/**
 * /notices: which notices the user's notice chat receives (the chat where the account was linked), one
 * button per notice that switches it; owners also see the owners' news. Orders of other team members go each
 * one → a daily digest (owners' default) → off. In a group the menu says it sets the caller's own notices, in
 * their chat with the bot. The buttons carry no state, so the menu works for as long as it is on screen; Done
 * closes it with a summary.
 */
export function noticesFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  const shown = (ctx: BotContext): readonly Notice[] => (may(whoOfCtx(ctx), 'notices.owners') ? NOTICES : NOTICES.filter((n) => !OWNER_NOTICES.includes(n)));
  const items = (ctx: BotContext): NoticeItem[] => {
    const { deps } = ctx.env;
    const chatId = ctx.link!.chatId;
    const s = chatNotices(deps, chatId);
    const mode = teamMode(deps, chatId, ctx.link!.role === 'owner');
    return shown(ctx).map((n) => (n === 'staff' ? { notice: n, on: mode !== 'off', mode } : { notice: n, on: s[n] }));
  };
  const elsewhere = (ctx: BotContext) => ctx.chat?.id !== ctx.link!.chatId;

  c.command('notices', async (ctx) => {
    const list = items(ctx);
    await ctx.reply(commonView.noticesMenu(ctx.t, list, elsewhere(ctx)), { reply_markup: noticesKeyboard(ctx.t, list) });
  });

  c.callbackQuery(NOTICE_DATA, async (ctx) => {
    const { deps } = ctx.env;
    const chatId = ctx.link!.chatId;
    const what = ctx.match[1];
    const to = ctx.match[2];
    if (what === 'done') {
      await ctx.answerCallbackQuery();
      return void (await editMessage(ctx, commonView.noticesSummary(ctx.t, items(ctx))));
    }
    if (!isNotice(what) || !shown(ctx).includes(what) || to === undefined) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.ownerOnly }));
    if (what === 'staff') {
      const mode = isTeamMode(to) ? to : to === '1' ? 'each' : 'off';
      setTeamMode(deps, chatId, mode);
      await ctx.answerCallbackQuery({ text: ctx.t.notices.switchedTo(ctx.t.notices.teamMode[mode] ?? mode) });
    } else {
      const s = setChatNotice(deps, chatId, what, to === '1');
      await ctx.answerCallbackQuery({ text: s[what] ? ctx.t.notices.switchedOn : ctx.t.notices.switchedOff });
    }
    const list = items(ctx);
    await editMessage(ctx, commonView.noticesMenu(ctx.t, list, elsewhere(ctx)), { reply_markup: noticesKeyboard(ctx.t, list) });
  });
  return c;
}
