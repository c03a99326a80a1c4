import { Composer, type Api, type InlineKeyboard } from 'grammy';
import type { Alert } from '../../src/kernel/event-bus.js';
import { listDeposits } from '../../src/app/deposits.js';
import { getOperatorOrder, listReviews, resolveReview } from '../../src/app/orders/review.js';
import { partnerView } from '../../src/app/partners.js';
import { ApiError } from '../../src/domain/errors.js';
import type { BotContext, BotDeps } from '../context.js';
import { DEPOSIT_CONVERSATION } from '../conversations/deposit.js';
import { DEPOSIT_DATA, REVIEW_DATA } from '../keyboards/data.js';
import { operatorLanguage } from '../operator-language.js';
import { depositKeyboard, reviewConfirmKeyboard, reviewKeyboard } from '../keyboards/review.js';
import { orderInfo, textsOf, type OrderInfo, type Texts } from '../texts/index.js';

/**
 * Operators (ADMIN_CHAT_IDS): /reviews, the Deliver / Refund buttons, /deposits with the Credit / Close
 * buttons of unmatched deposits, and the alerts the runner sends.
 */

export const REVIEWS_SHOWN = 20;
export const DEPOSITS_SHOWN = 20;

/** An order waiting for review: its stage, partner and what the alert shows; null when it is not waiting. */
function reviewOf(env: BotDeps, orderId: string): { stage: string; partnerId: number; info: OrderInfo } | null {
  try {
    const o = getOperatorOrder(env.deps, orderId);
    return o.review ? { stage: o.review.stage, partnerId: o.partner_id, info: orderInfo(o) } : null;
  } catch {
    return null;
  }
}

/** A partner as alerts name it: its name and id. */
export function partnerLabel(env: BotDeps, t: Texts, partnerId: number): string {
  try {
    return t.operator.partner(partnerView(env.deps, partnerId).name, partnerId);
  } catch {
    return t.operator.partner(null, partnerId);
  }
}

function orderOrNull(env: BotDeps, orderId: string): OrderInfo | null {
  try {
    return orderInfo(getOperatorOrder(env.deps, orderId));
  } catch {
    return null;
  }
}

export function operatorFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();

  c.command('reviews', async (ctx, next) => {
    if (!ctx.isOperator) return next();
    const items = listReviews(ctx.env.deps).items;
    if (!items.length) return void (await ctx.reply(ctx.t.operator.none));
    await ctx.reply(ctx.t.operator.header(items.length));
    for (const o of items.slice(0, REVIEWS_SHOWN)) {
      const info = orderInfo(o);
      await ctx.reply(ctx.t.operator.review(info.order_id, partnerLabel(ctx.env, ctx.t, o.partner_id), o.review?.stage ?? 'review', info), {
        reply_markup: reviewKeyboard(ctx.t, info.order_id),
      });
    }
  });

  c.callbackQuery(REVIEW_DATA, async (ctx) => {
    if (!ctx.isOperator) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.operatorsOnly }));
    const kind = ctx.match[1];
    const orderId = ctx.match[2];
    const { env, t } = ctx;
    // The alert is written anew in the presser's language (not appended to a text in another language).
    const r = reviewOf(env, orderId);
    const msg = ctx.callbackQuery.message;
    const stale = async () => {
      await ctx.answerCallbackQuery({ text: t.operator.notInReview });
      // Check before editing: a message already without buttons was settled before (no failing edit).
      if (!msg?.reply_markup?.inline_keyboard.length) return;
      const now = orderOrNull(env, orderId);
      await ctx.editMessageText(now ? `${msg.text ?? ''}\n\n${t.operator.settledBefore(now)}`.trim() : t.operator.notInReview);
    };
    if (!r) return stale();
    const alert = t.operator.review(orderId, partnerLabel(env, t, r.partnerId), r.stage, r.info);
    const outcome = kind.toLowerCase() === 'd' ? 'delivered' : 'refunded';
    const show = async (text: string, markup?: InlineKeyboard) => {
      await ctx.answerCallbackQuery();
      const same = msg?.text === text && JSON.stringify(msg?.reply_markup?.inline_keyboard ?? []) === JSON.stringify(markup?.inline_keyboard ?? []);
      if (!same) await ctx.editMessageText(text, markup ? { reply_markup: markup } : {});
    };
    // Deliver and Refund move money: they ask "are you sure?" first; No brings the alert back.
    if (kind === 'd' || kind === 'r')
      return show(`${alert}\n\n${kind === 'd' ? t.operator.confirmDeliver(r.info) : t.operator.confirmRefund(r.info)}`, reviewConfirmKeyboard(t, outcome, orderId));
    if (kind === 'n') return show(alert, reviewKeyboard(t, orderId));
    try {
      const o = await resolveReview(env.deps, orderId, { outcome }, `telegram:${ctx.from.id}`);
      await show(`${alert}\n\n${t.operator.resolved(orderId, outcome, orderInfo(o))}`);
    } catch (e) {
      // A gift without a known transfer (or a market that does not answer) stays in review: the operator
      // resolves it over the operator API with its transfer_hash.
      if (e instanceof ApiError && (e.code === 'transfer_hash_required' || e.code === 'product_unavailable'))
        return void (await ctx.answerCallbackQuery({ text: e.detail, show_alert: true }));
      if (!(e instanceof ApiError) || (e.code !== 'not_in_review' && e.code !== 'not_found')) throw e;
      await stale();
    }
  });

  c.command('deposits', async (ctx, next) => {
    if (!ctx.isOperator) return next();
    const items = listDeposits(ctx.env.deps, { status: 'unmatched' }).items;
    if (!items.length) return void (await ctx.reply(ctx.t.operator.depositsNone));
    await ctx.reply(ctx.t.operator.depositsHeader(items.length, DEPOSITS_SHOWN));
    for (const d of items.slice(0, DEPOSITS_SHOWN))
      await ctx.reply(ctx.t.operator.deposit(d), { reply_markup: depositKeyboard(ctx.t, d.deposit_id) });
  });

  c.callbackQuery(DEPOSIT_DATA, async (ctx) => {
    if (!ctx.isOperator) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.operatorsOnly }));
    await ctx.answerCallbackQuery();
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(DEPOSIT_CONVERSATION, ctx.match[2], ctx.match[1] === 'c' ? 'credit' : 'close');
  });
  return c;
}

/** The alert text (and buttons for a review or an unmatched deposit) in the operator chat's language. */
export function alertMessage(env: BotDeps, t: Texts, a: Alert): { text: string; reviewOrderId?: string; depositId?: string } {
  switch (a.kind) {
    case 'review':
      return { text: t.operator.review(a.orderId, partnerLabel(env, t, a.partnerId), a.stage, orderOrNull(env, a.orderId)), reviewOrderId: a.orderId };
    case 'order_failure':
      return { text: t.operator.failure(a.orderId, partnerLabel(env, t, a.partnerId), a.reason) };
    case 'webhook_gave_up':
      return { text: t.operator.webhookGaveUp(a.orderId, partnerLabel(env, t, a.partnerId), a.event, a.reason) };
    case 'unmatched_deposit':
      return { text: t.operator.unmatchedDeposit(a.depositId, a.amount, a.asset, a.network, a.reason), depositId: a.depositId };
    case 'storage_unavailable':
      return { text: t.operator.storageDown(a.reason, a.detail) };
    case 'storage_recovered':
      return { text: t.operator.storageUp(a.reason, a.downSeconds) };
    case 'supplier':
      return { text: t.operator.supplier(a) };
    default: {
      // a kind this bot does not know yet: still tell the operators
      const other = a as { kind: string };
      return { text: t.operator.other(other.kind, JSON.stringify(other)) };
    }
  }
}

/** Sends one alert to every operator chat; a chat that fails does not stop the others. */
export async function sendAlert(api: Api, env: BotDeps, a: Alert): Promise<void> {
  await Promise.all(
    env.config.ADMIN_CHAT_IDS.map(async (id) => {
      const chatId = Number(id);
      const t = textsOf(operatorLanguage(env.deps, chatId));
      const m = alertMessage(env, t, a);
      try {
        const keyboard = m.reviewOrderId ? reviewKeyboard(t, m.reviewOrderId) : m.depositId ? depositKeyboard(t, m.depositId) : undefined;
        await api.sendMessage(chatId, m.text, keyboard ? { reply_markup: keyboard } : {});
      } catch (e) {
        env.deps.log.warn({ err: e, chatId, alert: a.kind }, 'operator alert not delivered');
      }
    }),
  );
}
