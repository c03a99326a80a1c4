import { adjustBalance, parseSignedAmount } from '../../src/app/adjustments.js';
import { resolveDeposit, type ResolveDepositDeps } from '../../src/app/deposits/resolve.js';
import { ASSET_CURRENCY, knownAsset } from '../../src/domain/deposit-matching.js';
import { findDeposit, type DepositView } from '../../src/app/deposits/view.js';
import { partnerView, searchPartners, type PartnerMatch } from '../../src/app/partners.js';
import { displayName } from '../../src/domain/display-name.js';
import { addCard, applyEdits, depositCase, handledOf, recordHandled, type Handled } from '../cases.js';
import type { ConvContext } from '../context.js';
import type { Texts } from '../texts/index.js';
import { attempt } from './common.js';
import { flowConversation, retry, type Flow, type FlowDeps } from './flow.js';
import * as operatorView from '../views/operator.js';

/**
 * An operator's handling of an unmatched deposit, entered from the buttons of its alert or of /deposits.
 * "Credit" finds the partner by part of its name (or its number) with `searchPartners`, offers the matches
 * as buttons, asks "are you sure?" and credits; "close" asks for a short note. Both go through
 * `resolveDeposit`, the code of POST /deposits/{id}/resolve, with its rules and errors. "Correct a balance"
 * finds a partner the same way, asks a signed amount in the deposit's currency and a note, asks "are you
 * sure?" and posts an adjustment (`adjustBalance`, the code of POST /partners/{id}/adjustments); the deposit
 * itself stays as it is. The message with the
 * buttons, and every other card of the deposit in every operator chat, then shows who handled it and how
 * (bot/cases.ts). Every step after the first has a Back button.
 */
export const DEPOSIT_CONVERSATION = 'deposit';

/**
 * Rewrites the alert (or /deposits item) the operator pressed with the outcome, in the presser's language
 * (the alert may have been sent in another operator's), removing its buttons.
 */
async function markPressed(ctx: ConvContext, t: Texts, d: DepositView | null, line: string): Promise<void> {
  if (!ctx.callbackQuery?.message) return;
  try {
    await ctx.editMessageText(d ? `${operatorView.deposit(t, d)}\n\n${line}` : line);
  } catch {
    // too old to edit, or already edited
  }
}

/** One button per matching partner: its name and number (and whether its account is activated). */
function partnerRows(flow: Flow, t: Texts, items: PartnerMatch[]) {
  return items.map((p) => [flow.button(operatorView.partnerButton(t, p.name, p.partner_id, p.status === 'active'), `pt:${p.partner_id}`)]);
}

/** Refusals after which another partner may be chosen: below that partner's minimum, the partner gone. */
const anotherPartner = (e: { code: string; detail: string }) => e.code === 'topup_below_minimum' || (e.code === 'not_found' && /partner/i.test(e.detail));

export function depositConversation(env: { deps: FlowDeps & ResolveDepositDeps }) {
  const { deps } = env;
  return flowConversation(deps, '/deposits', async (flow, depositId: string, action: 'credit' | 'close' | 'adjust') => {
    const { conversation, t, ctx } = flow;
    const actor = `telegram:${ctx.from?.id ?? 'unknown'}`;
    const by = ctx.from ? (displayName(ctx.from) ?? String(ctx.from.id)) : '?';
    const pressed = ctx.callbackQuery?.message ? { chatId: ctx.callbackQuery.message.chat.id, messageId: ctx.callbackQuery.message.message_id } : null;
    const found = await conversation.external(() => ({ d: findDeposit(deps, depositId), handled: handledOf(deps, depositCase(depositId)) ?? null }));
    const d = found.d;
    if (!d || d.status !== 'unmatched') {
      // Handled already: nothing changes, and the operator reads by whom.
      const text = found.handled ? operatorView.alreadyHandled(t, found.handled) : operatorView.depositGone(t, depositId, d?.status ?? null);
      await markPressed(ctx, t, null, d ? `${operatorView.depositTitle(t, d)}\n\n${text}` : text);
      return void (await ctx.reply(text));
    }
    if (pressed) await conversation.external(() => addCard(deps, depositCase(depositId), pressed));
    /** Every card of the deposit says who handled it and how. */
    const settleCards = async (handled: Omit<Handled, 'at' | 'by'>) => {
      const edits = await conversation.external(() => recordHandled(deps, depositCase(depositId), { ...handled, by, at: deps.clock.now() }, (tt) => operatorView.depositTitle(tt, d)).edits);
      await applyEdits(ctx.api, deps, edits);
    };

    if (action === 'close') {
      const ask = await flow.prompt(operatorView.askCloseNote(t, d));
      const done = await flow.ask(ask, async (note) => {
        const r = await conversation.external(() => flow.guarded(() => resolveDeposit(deps, depositId, { action: 'close', note }, actor)));
        if (r.ok) return { text: operatorView.depositClosed(t, r.value), note: r.value.note ?? note };
        return r.code === 'validation_error' ? retry(operatorView.depositError(t, r, null)) : { text: operatorView.depositError(t, r, null), failed: true };
      });
      if (!done.value.failed) await settleCards({ outcome: 'closed', detail: done.value.note ?? '' });
      return void (await done.ctx.reply(done.value.text));
    }

    // 1. who: part of the name (or the number)
    const search = (text: string) => conversation.external(() => attempt(() => searchPartners(deps, text)));
    const atSearch = conversation.checkpoint();
    const ask = await flow.prompt(action === 'adjust' ? t.operator.askAdjustPartner(d.deposit_id) : operatorView.askPartner(t, d));
    const { value: first } = await flow.ask(ask, async (text) => {
      const r = await search(text);
      if (!r.ok) return retry(t.operator.searchTooLong);
      return r.value.items.length ? { query: text, ...r.value } : retry(t.operator.noPartnerMatch(text));
    });

    // 2. the matches as buttons; another text typed here is a new search shown in the same message
    const atResults = conversation.checkpoint();
    const results = await flow.menu(operatorView.partnerMatches(t, first.query, first.items.length, first.more), partnerRows(flow, t, first.items), { back: atSearch });
    const picked = await flow.choose(results, undefined, async (text, c) => {
      const r = await search(text);
      if (!r.ok) return void (await c.reply(t.operator.searchTooLong));
      if (!r.value.items.length) return void (await c.reply(t.operator.noPartnerMatch(text)));
      await flow.redraw(results, operatorView.partnerMatches(t, text, r.value.items.length, r.value.more), partnerRows(flow, t, r.value.items));
    });
    const m = /^pt:(\d{1,9})$/.exec(picked.action);
    if (!m) return conversation.skip();
    const partnerId = Number(m[1]);
    const partner = await conversation.external(() => attempt(() => partnerView(deps, partnerId)));
    if (!partner.ok) return flow.again(picked.ctx, operatorView.depositError(t, partner, null));
    const label = operatorView.partnerNumbered(t, partner.value.name, partnerId);
    await flow.settle(results, label);

    if (action === 'adjust') {
      // 3. how much (signed, in the deposit's currency) and why, then are you sure?, then the adjustment
      const asset = knownAsset(d.asset);
      if (!asset) return void (await ctx.reply(t.operator.depositErrors.bad_asset));
      const currency = ASSET_CURRENCY[asset];
      const atAmount = conversation.checkpoint();
      const askAmount = await flow.prompt(t.operator.askAdjustAmount(label, currency, partner.value.balances[currency]), { back: atResults });
      const { value: amount } = await flow.ask(askAmount, async (text) => (parseSignedAmount(text, currency) === null ? retry(t.operator.badAdjustAmount(currency)) : text.trim()), (v) => `${v} ${currency}`);
      const askNote = await flow.prompt(t.operator.askAdjustNote, { back: atAmount });
      const { value: note } = await flow.ask(askNote, async (text) => (text.trim() && text.trim().length <= 300 ? text.trim() : retry(t.operator.badAdjustNote)), (v) => v);
      const sure = await flow.menu(t.operator.confirmAdjust(amount, currency, label), [[flow.button(t.operator.btnSureAdjust, 'adjust')]], { back: atAmount });
      const go = await flow.choose(sure);
      if (go.action !== 'adjust') return conversation.skip();
      const body = { currency, amount, note: `${note} (deposit ${depositId})` };
      const r = await conversation.external(() => flow.guarded(() => adjustBalance(deps, partnerId, body, actor)));
      if (r.ok) return void (await flow.settle(sure, t.operator.adjusted(label, r.value.amount, currency, r.value.balance_after)));
      return void (await flow.settle(sure, r.code === 'insufficient_balance' ? t.operator.adjustNegative(currency, String(r.extra.balance)) : operatorView.depositError(t, r, label)));
    }

    // 3. are you sure? (it moves money), then the credit
    const sure = await flow.menu(operatorView.confirmCredit(t, d, label, partner.value.status === 'active'), [[flow.button(t.operator.btnSureCredit, 'credit')]], { back: atResults });
    const yes = await flow.choose(sure);
    if (yes.action !== 'credit') return conversation.skip();
    const r = await conversation.external(() => flow.guarded(() => resolveDeposit(deps, depositId, { action: 'credit', partner_id: partnerId }, actor)));
    if (r.ok) {
      await flow.settle(sure, operatorView.depositCredited(t, r.value, label));
      return void (await settleCards({ outcome: 'credited', detail: label }));
    }
    const why = operatorView.depositError(t, r, label);
    await flow.settle(sure, why);
    // Below that partner's minimum (say): the matches again, to choose another partner or go back.
    if (anotherPartner(r)) return conversation.rewind(atResults);
    await markPressed(ctx, t, d, why);
  });
}
