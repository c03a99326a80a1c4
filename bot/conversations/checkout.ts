import type { Deps } from '../../src/app/deps.js';
import { createOrder } from '../../src/app/orders/create.js';
import { validateRecipient } from '../../src/app/recipients.js';
import type { Conv, ConvContext } from '../context.js';
import { cancelKeyboard, confirmKeyboard } from '../keyboards/order.js';
import { orderInfo, type Texts } from '../texts/index.js';
import { attempt, cancelled, MAX_ATTEMPTS, waitButton, waitInput } from './common.js';

/** The two steps every product shares: the recipient check and the confirmed order. */

export interface CheckedRecipient {
  /** As the user typed it: the order's `recipient` is the username as given. */
  recipient: string;
  alreadyPremium: boolean;
}

/**
 * Asks for the recipient and checks it with `validateRecipient` (the resolution the order path uses) before
 * any confirmation: not found is explained and another username asked for, at most MAX_ATTEMPTS times.
 * For gifts, an account that cannot receive gifts is refused here too. Null: cancelled or given up.
 */
export async function askRecipient(conversation: Conv, ctx: ConvContext, t: Texts, nonce: string, deps: Deps, type: 'stars' | 'premium' | 'nft'): Promise<CheckedRecipient | null> {
  await ctx.reply(t.order.askRecipient, { reply_markup: cancelKeyboard(t, nonce) });
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const typed = await waitInput(conversation, nonce, t);
    if (typed.kind === 'cancel') {
      await cancelled(typed, t);
      return null;
    }
    if (typed.kind !== 'text') continue;
    const username = typed.text;
    const checked = await conversation.external(() => attempt(() => validateRecipient(deps, { type, username })));
    const last = i + 1 >= MAX_ATTEMPTS;
    if (!checked.ok) {
      await typed.ctx.reply(`${t.error(checked)}\n${last ? t.common.tooManyAttempts : t.order.recipientRetry}`);
      continue;
    }
    const v = checked.value as { already_premium?: boolean; can_receive_gifts?: boolean };
    if (type === 'nft' && v.can_receive_gifts === false) {
      await typed.ctx.reply(last ? t.common.tooManyAttempts : t.gifts.cannotReceive);
      continue;
    }
    return { recipient: username, alreadyPremium: v.already_premium === true };
  }
  return null;
}

/** Errors after which the same confirmation may simply be tried again. */
const RETRYABLE = new Set(['order_in_progress', 'ledger_unavailable', 'resolver_error', 'rate_limited']);

function retryable(code: string, extra: Record<string, unknown>): boolean {
  return RETRYABLE.has(code) || (code === 'product_unavailable' && extra.reason === 'upstream_unavailable');
}

/**
 * Shows the confirmation and places the order through `createOrder` (the code of POST /orders) when its
 * button is pressed. The button carries `key`, the idempotency key made once for this confirmation: a
 * second tap, a retry after a transient error, or a replay all send the same key and get the same order
 * with one debit. Every refusal is explained in words.
 */
export async function confirmAndPlace(
  conversation: Conv,
  ctx: ConvContext,
  t: Texts,
  nonce: string,
  deps: Deps,
  partnerId: number,
  confirmText: string,
  key: string,
  body: { type: 'stars' | 'premium' | 'nft'; idempotency_key: string; params: Record<string, unknown> },
): Promise<void> {
  await ctx.reply(confirmText, { reply_markup: confirmKeyboard(t, nonce, key) });
  for (let tries = 0; tries < MAX_ATTEMPTS; ) {
    const pressed = await waitButton(conversation, nonce, t);
    if (!pressed) break;
    if (pressed.kind === 'cancel') return cancelled(pressed, t);
    tries++;
    if (pressed.kind !== 'button' || pressed.action !== `ok:${key}`) continue;
    const placed = await conversation.external(() =>
      attempt(() => createOrder(deps, partnerId, body)),
    );
    await dropButtons(pressed.ctx);
    if (placed.ok) return void (await pressed.ctx.reply(t.order.accepted(orderInfo(placed.value.order))));
    if (retryable(placed.code, placed.extra) && tries < MAX_ATTEMPTS) {
      await pressed.ctx.reply(`${t.error(placed)}\n${t.order.retryHint}`, { reply_markup: confirmKeyboard(t, nonce, key, true) });
      continue;
    }
    return void (await pressed.ctx.reply(t.error(placed)));
  }
  await ctx.reply(t.common.tooManyAttempts);
}

/** Takes the buttons off the message a button was pressed on. */
export async function dropButtons(ctx: ConvContext): Promise<void> {
  if (!ctx.callbackQuery?.message) return;
  try {
    await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } });
  } catch {
    // already without buttons
  }
}
