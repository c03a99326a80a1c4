import { Composer } from 'grammy';
import { partnerView } from '../../src/app/partners.js';
import type { BotContext } from '../context.js';
import { flowOwnerOf } from '../flow-owners.js';
import { CONV_DATA } from '../keyboards/data.js';
import * as commonView from '../views/common.js';

/**
 * A button of a conversation that no conversation of the presser took (before the gate for unlinked users):
 * - someone else's (a colleague in an operators' group, a teammate at another's Confirm in a team group): the
 *   toast says whose it is, and nothing changes;
 * - their own, after they were removed from the team (their conversations ended with the link) or linked to
 *   another partner: its message says so, naming the partner, and that nothing was done.
 * Anything else (a stale menu of their own) goes on to the features after the gate.
 */
export function foreignFlowFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.callbackQuery(CONV_DATA, async (ctx, next) => {
    const { env, t } = ctx;
    const owner = flowOwnerOf(env.deps, ctx.match[1]);
    if (!owner) return next();
    if (owner.userId !== ctx.from.id) return void (await ctx.answerCallbackQuery({ text: commonView.someoneElses(t, owner.name, owner.resume).slice(0, 200), show_alert: true }));
    if (owner.partnerId === null || (ctx.link && ctx.link.partnerId === owner.partnerId)) return next();
    let name: string | null = null;
    try {
      name = partnerView(env.deps, owner.partnerId).name;
    } catch {
      // the partner is gone: the general words
    }
    const text = commonView.accessEnded(t, name, owner.resume, ctx.link ? 'moved' : 'removed');
    await ctx.answerCallbackQuery({ text: text.slice(0, 200), show_alert: true });
    const msg = ctx.callbackQuery.message;
    if (msg?.reply_markup?.inline_keyboard.length) await ctx.editMessageText(text, { reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
  });
  return c;
}
