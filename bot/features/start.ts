import { Composer } from 'grammy';
import { findLink } from '../../src/app/bot-users.js';
import { inviteFor, redeemInvite, type Linked } from '../../src/app/invites.js';
import { partnerView } from '../../src/app/partners.js';
import type { Deps } from '../../src/app/deps.js';
import { displayName } from '../../src/domain/display-name.js';
import { ApiError } from '../../src/domain/errors.js';
import type { BotContext } from '../context.js';
import { fit } from '../keyboards/data.js';
import { isPrivateOnly } from '../private-chat.js';
import { openApp } from './app.js';
import { editMessage } from './edit-message.js';
import { notifyJoined, notifyLeft } from './notifications.js';
import { startOwnerFlow } from './owner.js';
import * as commonView from '../views/common.js';

/**
 * /start <invite code> links the account; /start and /help without a code show what the user may do.
 * `/start app`, `/start apikey`, `/start webhook` and `/start invite` come from the deep links a group offers
 * for what is shown only in a private chat (bot/private-chat.ts): they run that command, with its checks.
 * (Invite codes are 16 characters or more, so they never read as one of these words.)
 *
 * Someone linked already is asked before an invite takes them elsewhere (another partner, or staff of their
 * own): the question names what they would lose, and the code stays unused until they say yes. A partner's
 * last owner is not taken from it (src/app/invites.ts refuses it too). When someone leaves a partner this
 * way, its other owners are told.
 */
function partnerNameOf(deps: Pick<Deps, 'db'>, partnerId: number): string | null {
  try {
    return partnerView(deps, partnerId).name;
  } catch {
    return null;
  }
}

/**
 * "Yes, move me" (`iv:y:<code>:<user id>`) or "stay" (`iv:n:…`) under the question an invite asks: only the
 * person asked may answer (in a group anyone could press it).
 */
const inviteAnswer = (yes: boolean, code: string, userId: number) => fit(`iv:${yes ? 'y' : 'n'}:${code}:${userId}`);
const INVITE_ANSWER = /^iv:([yn]):([A-Za-z0-9_-]{1,40}):(\d{1,16})$/;

export function startFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();

  const help = async (ctx: BotContext) => {
    if (!ctx.link && !ctx.isOperator) return void (await ctx.reply(ctx.t.common.notLinked));
    await ctx.reply(commonView.help(ctx.t, ctx.link?.role ?? null, ctx.isOperator));
  };

  const quoted = (ctx: BotContext, partnerId: number) => {
    const name = partnerNameOf(ctx.env.deps, partnerId);
    return name ? ctx.t.common.quoted(name) : `#${partnerId}`;
  };

  /** Redeems the invite and welcomes the person; the owners hear who joined (and, of a partner left, who left). */
  const link = async (ctx: BotContext, code: string, leave: boolean, answer: (text: string) => Promise<unknown>) => {
    const { deps } = ctx.env;
    const from = ctx.from!;
    let linked: Linked;
    try {
      linked = redeemInvite(deps, code, from.id, ctx.chat!.id, from.language_code ?? 'en', displayName(from), { leave });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'invite_invalid') return void (await answer(ctx.t.common.inviteInvalid));
      if (e instanceof ApiError && e.code === 'last_owner') return void (await answer(ctx.t.common.lastOwner(quoted(ctx, Number(e.extra.partner_id)))));
      throw e;
    }
    ctx.link = findLink(deps, from.id);
    await answer(`${commonView.linked(ctx.t, quoted(ctx, linked.partnerId), linked.role)}\n\n${commonView.help(ctx.t, linked.role, ctx.isOperator)}`);
    const who = displayName(from) ?? String(from.id);
    const name = partnerNameOf(deps, linked.partnerId) ?? `#${linked.partnerId}`;
    if (linked.left && linked.left.partnerId !== linked.partnerId)
      await notifyLeft(ctx.api, ctx.env, linked.left.partnerId, { telegramUserId: from.id, name: who, partner: partnerNameOf(deps, linked.left.partnerId) ?? `#${linked.left.partnerId}` });
    await notifyJoined(ctx.api, ctx.env, linked.partnerId, { telegramUserId: from.id, name: who, role: linked.role, partner: name, changed: linked.left?.partnerId === linked.partnerId });
  };

  c.command('start', async (ctx) => {
    const code = ctx.match.trim();
    if (!code || !ctx.from) return help(ctx);
    if (isPrivateOnly(code)) {
      if (!ctx.link) return void (await ctx.reply(ctx.t.common.notLinked));
      return code === 'app' ? openApp(ctx) : startOwnerFlow(ctx, code);
    }
    const { t } = ctx;
    const peek = inviteFor(ctx.env.deps, code, ctx.from.id);
    if (!peek) return void (await ctx.reply(t.common.inviteInvalid));
    const { from } = peek;
    if (from && from.partnerId === peek.partnerId && from.role === peek.role) return void (await ctx.reply(t.common.alreadyLinked(quoted(ctx, from.partnerId), commonView.roleName(t, from.role))));
    if (from && peek.lastOwner) return void (await ctx.reply(t.common.lastOwner(quoted(ctx, from.partnerId))));
    if (from && peek.asks) {
      // asked first, with what would be lost; the code stays unused until the answer
      const here = quoted(ctx, from.partnerId);
      const there = quoted(ctx, peek.partnerId);
      const same = from.partnerId === peek.partnerId;
      const question = same ? t.common.askDemote(here) : t.common.askMove(commonView.roleName(t, from.role), here, there, commonView.roleName(t, peek.role));
      return void (await ctx.reply(question, {
        reply_markup: {
          inline_keyboard: [
            [{ text: same ? t.common.btnBecomeStaff : t.common.btnJoin(there), callback_data: inviteAnswer(true, code, ctx.from.id) }],
            [{ text: t.common.btnStay(here), callback_data: inviteAnswer(false, code, ctx.from.id) }],
          ],
        },
      }));
    }
    await link(ctx, code, false, (text) => ctx.reply(text));
  });

  c.callbackQuery(INVITE_ANSWER, async (ctx) => {
    if (Number(ctx.match[3]) !== ctx.from.id) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.notYourQuestion, show_alert: true }));
    await ctx.answerCallbackQuery();
    const answer = (text: string) => editMessage(ctx, text);
    if (ctx.match[1] === 'n') return answer(ctx.link ? ctx.t.common.stayed(quoted(ctx, ctx.link.partnerId)) : ctx.t.common.inviteInvalid);
    await link(ctx, ctx.match[2], true, answer);
  });

  c.command('help', help);
  return c;
}
