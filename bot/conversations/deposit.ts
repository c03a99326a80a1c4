import { adjustBalance, parseSignedAmount } from '../../src/app/adjustments.js';
import { resolveDeposit, type ResolveDepositDeps } from '../../src/app/deposits/resolve.js';
import { findDeposit } from '../../src/app/deposits/view.js';
import { partnerView, searchPartners, type PartnerMatch } from '../../src/app/partners.js';
import { ASSET_CURRENCY, knownAsset } from '../../src/domain/deposit-matching.js';
import { displayName } from '../../src/domain/display-name.js';
import { addCard, applyEdits, depositCase, handledOf, recordHandled, type Handled } from '../cases.js';
import type { ConvContext } from '../context.js';
import { depositNumber, numbered } from '../deposit-numbers.js';
import type { Texts } from '../texts/index.js';
import type { DepositShown } from '../views/model.js';
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
 * itself stays as it is (its cards keep their buttons). The steps are one message below the card; the card, and every other card of the deposit in every operator chat, then shows
 * who handled it and how (bot/cases.ts). Every step after the first has a Back button.
 */
export const DEPOSIT_CONVERSATION = 'deposit';

/**
 * Rewrites the alert (or /deposits item) the operator pressed with the outcome, in the presser's language
 * (the alert may have been sent in another operator's), removing its buttons.
 */
async function markPressed(ctx: ConvContext, t: Texts, d: DepositShown | null, line: string): Promise<boolean> {
  if (!ctx.callbackQuery?.message) return false;
  try {
    await ctx.editMessageText(d ? `${operatorView.deposit(t, d)}\n\n${line}` : line);
  } catch {
    // too old to edit, or already edited
  }
  return true;
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
    const found = await conversation.external(() => {
      const view = findDeposit(deps, depositId);
      return { d: view ? numbered(deps, view) : null, number: depositNumber(deps, depositId), handled: handledOf(deps, depositCase(depositId)) ?? null };
    });
    const d = found.d;
    if (!d || d.status !== 'unmatched') {
      // Handled already: nothing changes, and the card says by whom.
      const text = found.handled ? operatorView.alreadyHandled(t, found.handled) : operatorView.depositGone(t, found.number, d?.status ?? null);
      if (!(await markPressed(ctx, t, null, d ? `${operatorView.depositTitle(t, d)}\n\n${text}` : text))) await ctx.reply(text);
      return;
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
        if (r.ok) return { text: operatorView.depositClosed(t, { ...r.value, number: d.number }), note: r.value.note ?? note };
        return r.code === 'validation_error' ? retry(operatorView.depositError(t, r, null)) : { text: operatorView.depositError(t, r, null), failed: true };
      });
      if (!done.value.failed) await settleCards({ outcome: 'closed', detail: done.value.note ?? '' });
      return void (await flow.done(done.value.text));
    }

    // 1. who: part of the name (or the number)
    const search = (text: string) => conversation.external(() => attempt(() => searchPartners(deps, text)));
    const atSearch = flow.checkpoint();
    const ask = await flow.prompt(action === 'adjust' ? operatorView.askAdjustPartner(t, d) : operatorView.askPartner(t, d));
    const { value: first } = await flow.ask(ask, async (text) => {
      const r = await search(text);
      if (!r.ok) return retry(t.operator.searchTooLong);
      return r.value.items.length ? { query: text, ...r.value } : retry(t.operator.noPartnerMatch(text));
    });

    // 2. the matches as buttons; another text typed here is a new search shown in the same message; after a
    // refusal for that partner (below its minimum), the matches again with why
    const atResults = flow.checkpoint();
    let why: string | null = null;
    for (;;) {
      const matches = operatorView.partnerMatches(t, first.query, first.items.length, first.more);
      const results = await flow.menu(why ? `${why}\n\n${matches}` : matches, partnerRows(flow, t, first.items), { back: atSearch });
      why = null;
      const picked = await flow.choose(results, {
        typed: async (text) => {
          const r = await search(text);
          if (!r.ok) return flow.hint(results, t.operator.searchTooLong);
          if (!r.value.items.length) return flow.hint(results, t.operator.noPartnerMatch(text));
          await flow.redraw(results, operatorView.partnerMatches(t, text, r.value.items.length, r.value.more), partnerRows(flow, t, r.value.items));
        },
      });
      const m = /^pt:(\d{1,9})$/.exec(picked.action);
      if (!m) return conversation.skip();
      const partnerId = Number(m[1]);
      const partner = await conversation.external(() => attempt(() => partnerView(deps, partnerId)));
      if (!partner.ok) {
        await flow.hint(results, operatorView.depositError(t, partner, null));
        return conversation.skip();
      }
      const label = operatorView.partnerNumbered(t, partner.value.name, partnerId);

      if (action === 'adjust') {
        // 3. how much (signed, in the deposit's currency) and why, then are you sure?, then the adjustment
        const asset = knownAsset(d.asset);
        if (!asset) return void (await flow.done(t.operator.depositErrors.bad_asset));
        const currency = ASSET_CURRENCY[asset];
        const atAmount = flow.checkpoint();
        const askAmount = await flow.prompt(operatorView.askAdjustAmount(t, label, currency, partner.value.balances[currency]), { back: atResults });
        const { value: amount } = await flow.ask(askAmount, async (text) => {
          const typed = text.replace(',', '.').replace(/\s/g, '');
          return parseSignedAmount(typed, currency) === null ? retry(t.operator.badAdjustAmount(currency)) : typed;
        });
        const askNote = await flow.prompt(t.operator.askAdjustNote, { back: atAmount });
        const { value: note } = await flow.ask(askNote, async (text) => (text.trim() && text.trim().length <= 300 ? text.trim() : retry(t.operator.badAdjustNote)));
        const sure = await flow.menu(operatorView.confirmAdjust(t, amount, currency, label), [[flow.button(t.operator.btnSureAdjust, 'adjust')]], { back: atAmount });
        const go = await flow.choose(sure);
        if (go.action !== 'adjust') return conversation.skip();
        const body = { currency, amount, note: `${note} (deposit ${depositId})` };
        const r = await conversation.external(() => flow.guarded(() => adjustBalance(deps, partnerId, body, actor)));
        if (r.ok) return void (await flow.done(operatorView.adjusted(t, label, r.value.amount, currency, r.value.balance_after)));
        return void (await flow.done(r.code === 'insufficient_balance' ? operatorView.adjustNegative(t, currency, String(r.extra.balance)) : operatorView.depositError(t, r, label)));
      }

      // 3. are you sure? (it moves money), then the credit
      const sure = await flow.menu(operatorView.confirmCredit(t, d, label, partner.value.status === 'active'), [[flow.button(t.operator.btnSureCredit, 'credit')]], { back: atResults });
      const yes = await flow.choose(sure);
      if (yes.action !== 'credit') return conversation.skip();
      const r = await conversation.external(() => flow.guarded(() => resolveDeposit(deps, depositId, { action: 'credit', partner_id: partnerId }, actor)));
      if (r.ok) {
        await flow.done(operatorView.depositCredited(t, { ...r.value, number: d.number }, label));
        return void (await settleCards({ outcome: 'credited', detail: label }));
      }
      const refused = operatorView.depositError(t, r, label);
      // Below that partner's minimum (say): the matches again, to choose another partner or go back.
      if (anotherPartner(r)) {
        why = refused;
        continue;
      }
      await flow.done(refused);
      await markPressed(ctx, t, d, refused);
      return;
    }
  });
}
