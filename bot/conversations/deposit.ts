import { findDeposit, resolveDeposit } from '../../src/app/deposits.js';
import type { BotDeps, ConvContext } from '../context.js';
import { attempt } from './common.js';
import { flowConversation, retry } from './flow.js';

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
  return flowConversation(deps, '/deposits', async (flow, depositId: string, action: 'credit' | 'close') => {
    const { conversation, t, ctx } = flow;
    const actor = `telegram:${ctx.from?.id ?? 'unknown'}`;
    const d = await conversation.external(() => findDeposit(deps, depositId));
    if (!d || d.status !== 'unmatched') {
      const text = t.operator.depositGone(depositId, d?.status ?? null);
      await markPressed(ctx, text);
      return void (await ctx.reply(text));
    }

    if (action === 'close') {
      const ask = await flow.menu(t.operator.askCloseNote(d), []);
      const done = await flow.ask(ask, async (note) => {
        const r = await conversation.external(() => attempt(() => resolveDeposit(deps, depositId, { action: 'close', note }, actor)));
        if (r.ok) return { text: t.operator.depositClosed(r.value) };
        return r.code === 'validation_error' ? retry(t.operator.depositError(r, 0)) : { text: t.operator.depositError(r, 0), failed: true };
      });
      if (!done.value.failed) await markPressed(ctx, done.value.text);
      return void (await done.ctx.reply(done.value.text));
    }

    const ask = await flow.menu(t.operator.askPartnerId(d), []);
    const done = await flow.ask(ask, async (text) => {
      const m = /^(?:#|№)?\s*(\d{1,9})$/.exec(text);
      if (!m) return retry(t.operator.badPartnerId);
      const partnerId = Number(m[1]);
      const r = await conversation.external(() => attempt(() => resolveDeposit(deps, depositId, { action: 'credit', partner_id: partnerId }, actor)));
      if (r.ok) return { text: t.operator.depositCredited(r.value) };
      // Another partner id may do (unknown partner, below that partner's minimum); anything else ends here.
      const again = r.code === 'topup_below_minimum' || r.code === 'validation_error' || (r.code === 'not_found' && /partner/i.test(r.detail));
      return again ? retry(t.operator.depositError(r, partnerId)) : { text: t.operator.depositError(r, partnerId), failed: true };
    });
    if (!done.value.failed) await markPressed(ctx, done.value.text);
    await done.ctx.reply(done.value.text);
  });
}
