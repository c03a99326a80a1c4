import { Composer } from 'grammy';
import { findLink } from '../../src/app/bot-users.js';
import { redeemInvite } from '../../src/app/invites.js';
import { partnerView } from '../../src/app/partners.js';
import type { Deps } from '../../src/app/deps.js';
import { displayName } from '../../src/domain/display-name.js';
import { ApiError } from '../../src/domain/errors.js';
import type { BotContext } from '../context.js';
import { isPrivateOnly } from '../private-chat.js';
import { openApp } from './app.js';
import { notifyJoined } from './notifications.js';
import { startOwnerFlow } from './owner.js';
import * as commonView from '../views/common.js';

/**
 * /start <invite code> links the account; /start and /help without a code show what the user may do.
 * `/start app`, `/start apikey` and `/start webhook` come from the deep links a group offers for what is shown
 * only in a private chat (bot/private-chat.ts): they run that command, with its checks. (Invite codes are
 * 16 characters or more, so they never read as one of these words.)
 */
function partnerNameOf(deps: Pick<Deps, 'db'>, partnerId: number): string | null {
  try {
    return partnerView(deps, partnerId).name;
  } catch {
    return null;
  }
}

export function startFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();

  const help = async (ctx: BotContext) => {
    if (!ctx.link && !ctx.isOperator) return void (await ctx.reply(ctx.t.common.notLinked));
    await ctx.reply(commonView.help(ctx.t, ctx.link?.role ?? null, ctx.isOperator));
  };

  c.command('start', async (ctx) => {
    const code = ctx.match.trim();
    if (!code || !ctx.from) return help(ctx);
    if (isPrivateOnly(code)) {
      if (!ctx.link) return void (await ctx.reply(ctx.t.common.notLinked));
      return code === 'app' ? openApp(ctx) : startOwnerFlow(ctx, code);
    }
    const { deps } = ctx.env;
    try {
      const linked = redeemInvite(deps, code, ctx.from.id, ctx.chat.id, ctx.from.language_code ?? 'en', displayName(ctx.from));
      ctx.link = findLink(deps, ctx.from.id);
      // The partner by its name, as people know it (the number only when it has none).
      const name = partnerNameOf(deps, linked.partnerId);
      const partner = name ? ctx.t.common.quoted(name) : `#${linked.partnerId}`;
      await ctx.reply(`${commonView.linked(ctx.t, partner, linked.role)}\n\n${commonView.help(ctx.t, linked.role, ctx.isOperator)}`);
      const who = displayName(ctx.from) ?? String(ctx.from.id);
      await notifyJoined(ctx.api, ctx.env, linked.partnerId, { telegramUserId: ctx.from.id, name: who, role: linked.role, partner: name ?? `#${linked.partnerId}` });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'invite_invalid') return void (await ctx.reply(ctx.t.common.inviteInvalid));
      throw e;
    }
  });
  c.command('help', help);
  return c;
}
