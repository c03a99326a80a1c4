import { Composer } from 'grammy';
import type { BotContext } from '../context.js';
import { SECRET_SAVED_DATA } from '../keyboards/data.js';

/**
 * "Saved it: delete this message" under a shown API key or webhook secret (sent only in the owner's private
 * chat): the message goes. A message too old for Telegram to delete (48 hours) has its text replaced
 * instead, so the secret leaves the chat either way. Before the gate: an owner unlinked meanwhile can still
 * clear a secret off their screen.
 */
export function secretSavedFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.callbackQuery(SECRET_SAVED_DATA, async (ctx) => {
    try {
      await ctx.deleteMessage();
    } catch (err) {
      ctx.env.deps.log.info({ err }, 'shown secret not deleted; its text is replaced');
      await ctx.editMessageText(ctx.t.team.secretRemoved).catch(() => undefined);
    }
    await ctx.answerCallbackQuery({ text: ctx.t.team.deleted });
  });
  return c;
}
