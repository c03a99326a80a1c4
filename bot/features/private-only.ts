import type { BotContext } from '../context.js';
import { deepLink, isPrivateChat, type PrivateOnly } from '../private-chat.js';

/**
 * In a group, a command that would show an owner secret answers with this instead: nothing secret, and a
 * button opening the private chat with the bot, where its deep link starts the same flow. Returns whether it
 * answered (the chat is not private).
 */
export async function offerPrivateChat(ctx: BotContext, command: PrivateOnly): Promise<boolean> {
  if (isPrivateChat(ctx.chat)) return false;
  await ctx.reply(ctx.t.common.privateOnly[command], {
    reply_markup: { inline_keyboard: [[{ text: ctx.t.common.btnOpenPrivate, url: deepLink(ctx.me.username, command) }]] },
    ...(ctx.message ? { reply_parameters: { message_id: ctx.message.message_id, allow_sending_without_reply: true } } : {}),
  });
  return true;
}
