import { GrammyError } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { BotContext } from '../context.js';

/**
 * Edits the message of the pressed button, unless it already reads so: two taps that crossed (the second
 * still carrying the old text) would otherwise end in "message is not modified". The shown copy is checked
 * first, and the server's answer covers the crossing taps.
 */
export async function editMessage(ctx: BotContext, text: string, extra: { reply_markup?: InlineKeyboardMarkup } = {}): Promise<void> {
  const msg = ctx.callbackQuery?.message;
  const buttons = JSON.stringify(extra.reply_markup?.inline_keyboard ?? []);
  if (msg && 'text' in msg && msg.text === text && JSON.stringify(msg.reply_markup?.inline_keyboard ?? []) === buttons) return;
  try {
    await ctx.editMessageText(text, extra);
  } catch (e) {
    if (e instanceof GrammyError && /message is not modified/.test(e.description)) return;
    throw e;
  }
}
