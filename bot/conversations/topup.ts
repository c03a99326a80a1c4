import type { InlineKeyboardButton } from 'grammy/types';
import { fundingInfo } from '../../src/app/funding.js';
import { cancelTopupRequest, openTopupRequests, type CancelTopupRequestDeps } from '../../src/app/topup-request-state.js';
import { createTopupRequest, type CreateTopupRequestDeps, type TopupRequestView } from '../../src/app/topup-requests.js';
import { formatAmount, parseAmount } from '../../src/domain/money.js';
import type { ConvContext } from '../context.js';
import { networkRows, requestRows, topupRows } from '../keyboards/owner.js';
import { forgetRequestMessage, rememberRequestMessage, requestRecord, takeRequestMessages } from '../topup-messages.js';
import { textsOf } from '../texts/index.js';
import * as commonView from '../views/common.js';
import * as topupView from '../views/topup.js';
import type { TopupShown } from '../views/topup.js';
import { flowConversation, retry, type FlowDeps } from './flow.js';

/**
 * /topup, in one message. First what is open: the balances, then each open request (the amount to send, the
 * network, the address, the time left) with "Show again" and "Cancel" (`openTopupRequests`,
 * `cancelTopupRequest`: the code of the operator API and the Mini App); a new request is offered only for a
 * currency with room under TOPUP_REQUESTS_MAX_OPEN. A new one: which balance, for USD the network, then the
 * amount, which makes the request (`createTopupRequest`); then the one address chosen, the exact amount to
 * send (the offset by which the payment is recognised said in words) and, for TON, an https wallet link. A
 * message showing a request is remembered (bot/topup-messages.ts): it reads "paid ✅" once the request's
 * transfer is credited (bot/features/notifications.ts), "canceled" once it is canceled.
 */
export const TOPUP_CONVERSATION = 'topup';

const actorOf = (ctx: ConvContext) => `telegram:${ctx.from?.id ?? 'unknown'}`;

/** A request view as the bot shows it, with the network chosen in the bot (or none: every address). */
export function shownOf(r: TopupRequestView, network: string | null): TopupShown {
  const asked = parseAmount(r.amount, r.currency) ?? 0;
  const toSend = parseAmount(r.amount_to_send, r.currency) ?? asked;
  return {
    requestId: r.request_id,
    currency: r.currency,
    asked: r.amount,
    toSend: r.amount_to_send,
    added: formatAmount(toSend - asked, r.currency),
    network: network !== null && r.addresses.some((a) => a.network === network) ? network : r.addresses.length === 1 ? r.addresses[0].network : null,
    addresses: r.addresses,
    comment: r.comment_code ?? null,
    expiresAt: r.expires_at,
    secondsLeft: r.seconds_left,
  };
}

export function topupConversation(env: { deps: FlowDeps & CreateTopupRequestDeps & CancelTopupRequestDeps }) {
  const { deps } = env;
  return flowConversation(deps, '/topup', async (flow, partnerId: number) => {
    const { conversation, t, ctx } = flow;
    const actor = actorOf(ctx);
    /** The message showing `menu` shows the request now: it is remembered with the request. */
    const remember = (menu: { chatId: number; messageId: number }, requestId: string, network?: string) =>
      conversation.external(() => rememberRequestMessage(deps, partnerId, requestId, { chatId: menu.chatId, messageId: menu.messageId, language: t.lang }, network));

    let note: string | null = null;
    for (;;) {
      // 1. what is open, and a new request where there is room
      const s = await conversation.external(() => {
        const info = fundingInfo(deps, partnerId);
        const open = openTopupRequests(deps, partnerId);
        return { info, open: open.items.map((r) => shownOf(r, requestRecord(deps, r.request_id).network)), room: open.room, max: open.max_open };
      });
      if (!s.info.currencies.length && !s.open.length) return void (await flow.done(t.topup.notConfigured));
      const rows: InlineKeyboardButton[][] = s.open.map((_, i) => [flow.button(t.topup.btnShowAgain(i + 1), `rq:s:${i}`), flow.button(t.topup.btnCancelRequest(i + 1), `rq:x:${i}`)]);
      rows.push(topupRows(flow, s.info.currencies.filter((c) => (s.room[c] ?? 0) > 0))[0]);
      const list = await flow.menu(topupView.intro(t, s.info, s.open, s.room, s.max, note), rows, { parseMode: 'HTML' });
      note = null;
      const choice = await flow.choose(list);

      const picked = /^rq:([sx]):(\d{1,2})$/.exec(choice.action);
      if (picked) {
        const r = s.open[Number(picked[2])];
        if (!r) return conversation.skip();
        if (picked[1] === 's') {
          // shown again, in this message: the amount, the address, the copy buttons; and its cancel
          const shown = await flow.menu(topupView.request(t, r), [...requestRows(t, r), [flow.button(t.topup.btnCancelThis, 'x')], [flow.button(t.topup.btnBackToList, 'list')]], { parseMode: 'HTML' });
          await remember(shown, r.requestId);
          const act = await flow.choose(shown);
          // the message goes back to the list: it no longer shows the request
          if (act.action === 'list' || act.action === 'x') await conversation.external(() => forgetRequestMessage(deps, r.requestId, shown));
          if (act.action === 'list') continue;
          if (act.action !== 'x') return conversation.skip();
        }
        // canceling is asked once more: a payment already on its way would then wait for support
        const sure = await flow.menu(topupView.confirmCancel(t, r.toSend, r.currency), [[flow.button(t.topup.btnYesCancel, 'yes')], [flow.button(t.topup.btnBackToList, 'list')]]);
        const yes = await flow.choose(sure);
        if (yes.action === 'list') continue;
        if (yes.action !== 'yes') return conversation.skip();
        const c = await conversation.external(() => flow.guarded(() => cancelTopupRequest(deps, partnerId, r.requestId, actor)));
        if (c.ok) {
          note = topupView.canceledNote(t, r.toSend, r.currency);
          // every other message showing it says so (this one shows the list again)
          const shownIn = await conversation.external(() => takeRequestMessages(deps, r.requestId).messages.filter((m) => m.messageId !== sure.messageId || m.chatId !== sure.chatId));
          for (const m of shownIn) await ctx.api.editMessageText(m.chatId, m.messageId, topupView.canceled(textsOf(m.language), r.toSend, r.currency), { reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
        } else note = commonView.errorText(t, c);
        continue;
      }

      // 2. a new request: the balance, then (USD on several) the network: the address shown is that network's
      const currency = choice.action === 'tc:TON' ? 'TON' : choice.action === 'tc:USD' ? 'USD' : null;
      if (!currency) return conversation.skip();
      const options = s.info.options.filter((o) => o.currency === currency);
      let option = options[0]!;
      let chosen = topupView.chosenCurrency(t, currency);
      if (options.length > 1) {
        const nets = await flow.menu(`${chosen}\n\n${t.topup.chooseNetwork}`, [...networkRows(flow, options.map((o) => o.network)), [flow.button(t.topup.btnBackToList, 'list')]]);
        const net = await flow.choose(nets);
        if (net.action === 'list') continue;
        const found = options.find((o) => net.action === `tn:${o.network}`);
        if (!found) return conversation.skip();
        option = found;
        chosen = topupView.chosenNetwork(t, found.network);
      }

      // 3. the amount, which makes the request
      const ask = await flow.prompt(`${chosen}\n\n${topupView.askAmount(t, currency, s.info.minimums[currency])}`, { rows: [[flow.button(t.topup.btnBackToList, 'list')]] });
      const made = await flow.askOrPress(ask, async (text) => {
        const amount = text.replace(',', '.').replace(/\s/g, '');
        // Checked here first, so that the user reads what is wrong in their own language.
        if (parseAmount(amount, currency) === null) return retry(topupView.badAmount(t, currency));
        const r = await conversation.external(() => flow.guarded(() => createTopupRequest(deps, partnerId, { currency, amount }, actor)));
        if (r.ok) return { ok: true as const, request: r.value };
        return ['topup_below_minimum', 'validation_error', 'topup_amount_unavailable'].includes(r.code) ? retry(commonView.errorText(t, r)) : { ok: false as const, error: commonView.errorText(t, r) };
      });
      if ('action' in made) {
        if (made.action === 'list') continue;
        return conversation.skip();
      }
      const v = made.value;
      if (!v.ok) return void (await flow.done(v.error));

      // 4. the request: one address, the exact amount, and (TON) the wallet button
      const shown = shownOf(v.request, option.network);
      const m = await flow.done(topupView.request(t, shown), { parseMode: 'HTML', rows: requestRows(t, shown) });
      await remember(m, shown.requestId, option.network);
      return;
    }
  });
}

