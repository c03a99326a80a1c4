import { findDeposit, resolveDeposit } from '../../src/app/deposits.js';
import type { BotDeps, Conv, ConvContext } from '../context.js';
import { cancelKeyboard } from '../keyboards/order.js';
import { textsFor } from '../texts/index.js';
import { attempt, cancelled, MAX_ATTEMPTS, newNonce, waitInput } from './common.js';

/**
 * An operator's handling of an unmatched deposit, entered from the buttons of its alert or of /deposits:
 * "credit" asks for the partner id, "close" for a short note; both go through `resolveDeposit`, the code
 * of POST /deposits/{id}/resolve, with its rules and errors. The message with the buttons then shows the
 * outcome instead of the buttons.
 */
export const DEPOSIT_CONVERSATION = 'deposit';

/** Appends the outcome to the alert (or /deposits item) the operator pressed, removing its buttons. */
async function markPressed(ctx: ConvContext, line: string): Promise<void> {
  const before = ctx.callbackQuery?.message?.text;
  if (before === undefined) return;
  try {
    await ctx.editMessageText(`${before}\n\n${line}`);
  } catch {
    // too old to edit, or already edited
  }
}

export function depositConversation(env: BotDeps) {
  const { deps } = env;
  return async function deposit(conversation: Conv, ctx: ConvContext, depositId: string, action: 'credit' | 'close'): Promise<void> {
    const t = textsFor(ctx.from?.language_code);
    const nonce = await newNonce(conversation, deps.ids.hex);
    const actor = `telegram:${ctx.from?.id ?? 'unknown'}`;
    const d = await conversation.external(() => findDeposit(deps, depositId));
    if (!d || d.status !== 'unmatched') {
      const text = t.operator.depositGone(depositId, d?.status ?? null);
      await markPressed(ctx, text);
      return void (await ctx.reply(text));
    }

    if (action === 'close') {
      await ctx.reply(t.operator.askCloseNote(d), { reply_markup: cancelKeyboard(t, nonce) });
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        const typed = await waitInput(conversation, nonce, t);
        if (typed.kind === 'cancel') return cancelled(typed, t);
        if (typed.kind !== 'text') continue;
        const r = await conversation.external(() => attempt(() => resolveDeposit(deps, depositId, { action: 'close', note: typed.text }, actor)));
        if (r.ok) {
          await markPressed(ctx, t.operator.depositClosed(r.value));
          return void (await typed.ctx.reply(t.operator.depositClosed(r.value)));
        }
        await typed.ctx.reply(t.operator.depositError(r, 0));
        if (r.code !== 'validation_error') return;
      }
      return void (await ctx.reply(t.common.tooManyAttempts));
    }

    await ctx.reply(t.operator.askPartnerId(d), { reply_markup: cancelKeyboard(t, nonce) });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const typed = await waitInput(conversation, nonce, t);
      if (typed.kind === 'cancel') return cancelled(typed, t);
      if (typed.kind !== 'text') continue;
      const m = /^(?:#|№)?\s*(\d{1,9})$/.exec(typed.text);
      if (!m) {
        await typed.ctx.reply(t.operator.badPartnerId);
        continue;
      }
      const partnerId = Number(m[1]);
      const r = await conversation.external(() => attempt(() => resolveDeposit(deps, depositId, { action: 'credit', partner_id: partnerId }, actor)));
      if (r.ok) {
        await markPressed(ctx, t.operator.depositCredited(r.value));
        return void (await typed.ctx.reply(t.operator.depositCredited(r.value)));
      }
      await typed.ctx.reply(t.operator.depositError(r, partnerId));
      // Another partner id may do (unknown partner, below that partner's minimum); anything else ends here.
      if (r.code !== 'topup_below_minimum' && r.code !== 'validation_error' && !(r.code === 'not_found' && /partner/i.test(r.detail))) return;
    }
    await ctx.reply(t.common.tooManyAttempts);
  };
}
