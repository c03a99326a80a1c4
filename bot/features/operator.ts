import { Composer, type Api, type InlineKeyboard } from 'grammy';
import { may } from '../../src/domain/permissions.js';
import { whoOfCtx } from '../permissions.js';
import type { InlineKeyboardButton } from 'grammy/types';
import type { Alert } from '../../src/kernel/event-bus.js';
import { findDeposit, listDeposits } from '../../src/app/deposits/view.js';
import { getOperatorOrder, listReviews, resolveReview } from '../../src/app/orders/review.js';
import { partnerView } from '../../src/app/partners.js';
import { displayName } from '../../src/domain/display-name.js';
import { ApiError } from '../../src/domain/errors.js';
import { addCard, claimCase, claimOf, depositCase, dropCard, handledOf, hasCards, reviewCase, settleCards } from '../cases.js';
import type { BotContext, NoticeEnv } from '../context.js';
import { DEPOSIT_CONVERSATION } from '../conversations/deposit.js';
import { CASE_LIST_DATA, CASE_OPEN_DATA, caseListData, caseOpenData, DEPOSIT_DATA, depositActionOf, REVIEW_DATA } from '../keyboards/data.js';
import { operatorLanguage } from '../operator-language.js';
import { depositKeyboard, reviewConfirmKeyboard, reviewKeyboard } from '../keyboards/review.js';
import { textsOf, type Texts } from '../texts/index.js';
import type { OrderInfo } from '../views/model.js';
import { infoOf, numberOfOrder } from '../order-numbers.js';
import { depositNumber, numbered } from '../deposit-numbers.js';
import * as view from '../views/operator.js';

/**
 * Operators (ADMIN_CHAT_IDS): /reviews and /deposits (a summary, then the cases paged, each once: a case
 * opens in place as its card), the Deliver / Refund buttons, the Credit / Close buttons of unmatched
 * deposits, and the alerts the runner sends. Every card of a case is edited when the case is handled
 * (bot/cases.ts).
 */

export const CASES_PAGE_SIZE = 5;

/** An order waiting for review: its stage, partner and what the alert shows; null when it is not waiting. */
function reviewOf(env: NoticeEnv, orderId: string): { stage: string; partnerId: number; info: OrderInfo } | null {
  try {
    const o = getOperatorOrder(env.deps, orderId);
    return o.review ? { stage: o.review.stage, partnerId: o.partner_id, info: infoOf(env.deps, o) } : null;
  } catch {
    return null;
  }
}

/** A partner as operators read it: its name and number. */
export function partnerLabel(env: NoticeEnv, t: Texts, partnerId: number): string {
  try {
    return view.partner(t, partnerView(env.deps, partnerId).name, partnerId);
  } catch {
    return view.partner(t, null, partnerId);
  }
}

function orderOrNull(env: NoticeEnv, orderId: string): OrderInfo | null {
  try {
    return infoOf(env.deps, getOperatorOrder(env.deps, orderId));
  } catch {
    return null;
  }
}

/** A review case named in one line (the heading of its handled cards). */
function reviewTitle(env: NoticeEnv, t: Texts, orderId: string): string {
  const o = orderOrNull(env, orderId);
  let partnerId: number | null = null;
  try {
    partnerId = getOperatorOrder(env.deps, orderId).partner_id;
  } catch {
    // gone
  }
  return view.reviewTitle(t, numberOfOrder(env.deps, orderId), partnerId === null ? null : partnerLabel(env, t, partnerId), o);
}

/**
 * The operator who pressed, as cards name them: Telegram's name of the person.
 */
const operatorName = (ctx: BotContext) => (ctx.from ? (displayName(ctx.from) ?? String(ctx.from.id)) : '?');

/** Since when, in words: the service clock against an ISO timestamp. */
const ageOf = (env: NoticeEnv, iso: string) => Math.max(0, env.deps.clock.now() - Date.parse(iso));

export function operatorFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();

  /** A page of the waiting reviews: the summary, then each case once, as a button that opens its card. */
  const reviewsPage = (ctx: BotContext, page: number): { text: string; keyboard: InlineKeyboardButton[][] } | null => {
    const { env, t } = ctx;
    const items = listReviews(env.deps).items.map((o) => ({ ...infoOf(env.deps, o), partner_id: o.partner_id, since: o.review?.since ?? null }));
    if (!items.length) return null;
    const ages = items.map((o) => ageOf(env, o.since ?? o.created_at));
    const pages = Math.ceil(items.length / CASES_PAGE_SIZE);
    const p = Math.min(Math.max(0, page), pages - 1);
    const shown = items.slice(p * CASES_PAGE_SIZE, (p + 1) * CASES_PAGE_SIZE);
    const lines = shown.map((o, i) => view.reviewLine(t, p * CASES_PAGE_SIZE + i + 1, o, partnerLabel(env, t, o.partner_id), ages[items.indexOf(o)]));
    const text = [view.reviewsSummary(t, items.length, Math.max(...ages)), t.operator.pageOf(p + 1, pages), '', ...lines].join('\n');
    const keyboard: InlineKeyboardButton[][] = shown.map((o, i) => [{ text: `${p * CASES_PAGE_SIZE + i + 1}. ${o.number}`, callback_data: caseOpenData('r', o.order_id, p) }]);
    keyboard.push(navRow(t, 'r', p, pages));
    return { text, keyboard: keyboard.filter((r) => r.length) };
  };

  const depositsPage = (ctx: BotContext, page: number): { text: string; keyboard: InlineKeyboardButton[][] } | null => {
    const { env, t } = ctx;
    const items = listDeposits(env.deps, { status: 'unmatched' }).items.map((d) => numbered(env.deps, d));
    if (!items.length) return null;
    const ages = items.map((d) => ageOf(env, d.created_at));
    const pages = Math.ceil(items.length / CASES_PAGE_SIZE);
    const p = Math.min(Math.max(0, page), pages - 1);
    const shown = items.slice(p * CASES_PAGE_SIZE, (p + 1) * CASES_PAGE_SIZE);
    const lines = shown.map((d, i) => view.depositLine(t, p * CASES_PAGE_SIZE + i + 1, d, ages[items.indexOf(d)]));
    const text = [view.depositsSummary(t, items.length, Math.max(...ages)), t.operator.pageOf(p + 1, pages), '', ...lines].join('\n');
    const keyboard: InlineKeyboardButton[][] = shown.map((d, i) => [{ text: view.depositButton(t, p * CASES_PAGE_SIZE + i + 1, d), callback_data: caseOpenData('d', d.deposit_id, p) }]);
    keyboard.push(navRow(t, 'd', p, pages));
    return { text, keyboard: keyboard.filter((r) => r.length) };
  };

  c.command('reviews', async (ctx, next) => {
    if (!may(whoOfCtx(ctx), 'reviews.resolve')) return next();
    const page = reviewsPage(ctx, 0);
    if (!page) return void (await ctx.reply(ctx.t.operator.none));
    await ctx.reply(page.text, { reply_markup: { inline_keyboard: page.keyboard } });
  });

  c.command('deposits', async (ctx, next) => {
    if (!may(whoOfCtx(ctx), 'deposits.resolve')) return next();
    const page = depositsPage(ctx, 0);
    if (!page) return void (await ctx.reply(ctx.t.operator.depositsNone));
    await ctx.reply(page.text, { reply_markup: { inline_keyboard: page.keyboard } });
  });

  // A page of a list (also "◀ List" from a card opened from it: that message is then no card any more).
  c.callbackQuery(CASE_LIST_DATA, async (ctx) => {
    if (!may(whoOfCtx(ctx), 'reviews.resolve')) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.operatorsOnly }));
    await ctx.answerCallbackQuery();
    const kind = ctx.match[1] as 'r' | 'd';
    const msg = ctx.callbackQuery.message;
    if (msg && ctx.match[3]) dropCard(ctx.env.deps, kind === 'r' ? reviewCase(ctx.match[3]) : depositCase(ctx.match[3]), { chatId: msg.chat.id, messageId: msg.message_id });
    const page = (kind === 'r' ? reviewsPage : depositsPage)(ctx, Number(ctx.match[2]));
    await editPressed(ctx, page ? page.text : kind === 'r' ? ctx.t.operator.none : ctx.t.operator.depositsNone, page?.keyboard ?? []);
  });

  // A case of a list opens in place as its card (and becomes one of the case's cards).
  c.callbackQuery(CASE_OPEN_DATA, async (ctx) => {
    if (!may(whoOfCtx(ctx), 'reviews.resolve')) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.operatorsOnly }));
    const { env, t } = ctx;
    const kind = ctx.match[1] as 'r' | 'd';
    const page = Number(ctx.match[2]);
    const id = ctx.match[3];
    const msg = ctx.callbackQuery.message;
    const back = [{ text: t.operator.btnList, callback_data: caseListData(kind, page, id) }];
    if (kind === 'r') {
      const r = reviewOf(env, id);
      const handled = handledOf(env.deps, reviewCase(id));
      if (!r) return void (await ctx.answerCallbackQuery({ text: handled ? view.alreadyHandled(t, handled) : t.operator.notInReview, show_alert: true }));
      await ctx.answerCallbackQuery();
      if (msg) addCard(env.deps, reviewCase(id), { chatId: msg.chat.id, messageId: msg.message_id });
      return editPressed(ctx, view.review(t, r.info.number, partnerLabel(env, t, r.partnerId), r.stage, r.info), [...reviewKeyboard(t, id).inline_keyboard, back]);
    }
    const found = findDeposit(env.deps, id);
    if (!found || found.status !== 'unmatched') {
      const handled = handledOf(env.deps, depositCase(id));
      return void (await ctx.answerCallbackQuery({ text: handled ? view.alreadyHandled(t, handled) : view.depositGone(t, depositNumber(env.deps, id), found?.status ?? null), show_alert: true }));
    }
    await ctx.answerCallbackQuery();
    if (msg) addCard(env.deps, depositCase(id), { chatId: msg.chat.id, messageId: msg.message_id });
    await editPressed(ctx, view.deposit(t, numbered(env.deps, found)), [...depositKeyboard(t, id).inline_keyboard, back]);
  });

  c.callbackQuery(REVIEW_DATA, async (ctx) => {
    if (!may(whoOfCtx(ctx), 'reviews.resolve')) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.operatorsOnly }));
    const kind = ctx.match[1];
    const orderId = ctx.match[2];
    const { env, t } = ctx;
    // The alert is written anew in the presser's language (not appended to a text in another language).
    const r = reviewOf(env, orderId);
    const msg = ctx.callbackQuery.message;
    // Handled already (here or elsewhere): nothing changes; the toast says by whom, the card shows it.
    const stale = async () => {
      const handled = handledOf(env.deps, reviewCase(orderId));
      const now = orderOrNull(env, orderId);
      await ctx.answerCallbackQuery({ text: (handled ? view.alreadyHandled(t, handled) : now ? view.settledBefore(t, now) : t.operator.notInReview).slice(0, 200), show_alert: true });
      if (!msg?.reply_markup?.inline_keyboard.length) return;
      const text = handled ? `${reviewTitle(env, t, orderId)}\n\n${view.handled(t, handled)}` : now ? `${reviewTitle(env, t, orderId)}\n\n${view.settledBefore(t, now)}` : t.operator.notInReview;
      await editPressed(ctx, text, []);
    };
    if (!r) return stale();
    if (msg) addCard(env.deps, reviewCase(orderId), { chatId: msg.chat.id, messageId: msg.message_id });
    const alert = view.review(t, numberOfOrder(env.deps, orderId), partnerLabel(env, t, r.partnerId), r.stage, r.info);
    const outcome = kind.toLowerCase() === 'd' ? 'delivered' : 'refunded';
    const show = async (text: string, markup?: InlineKeyboard) => {
      await ctx.answerCallbackQuery();
      await editPressed(ctx, text, markup?.inline_keyboard ?? []);
    };
    // Deliver and Refund move money: they ask "are you sure?" first; No brings the alert back.
    if (kind === 'd' || kind === 'r')
      return show(`${alert}\n\n${kind === 'd' ? view.confirmDeliver(t, r.info) : view.confirmRefund(t, r.info)}`, reviewConfirmKeyboard(t, outcome, orderId));
    if (kind === 'n') return show(alert, reviewKeyboard(t, orderId));
    // Its outcome event may reach the cards before this handler goes on: it names the operator from here.
    claimCase(env.deps, reviewCase(orderId), operatorName(ctx));
    try {
      await resolveReview(env.deps, orderId, { outcome }, `telegram:${ctx.from.id}`);
    } catch (e) {
      claimCase(env.deps, reviewCase(orderId), null);
      // A gift without a known transfer (or a market that does not answer) stays in review: the operator
      // resolves it over the operator API with its transfer_hash.
      if (e instanceof ApiError && (e.code === 'transfer_hash_required' || e.code === 'product_unavailable'))
        return void (await ctx.answerCallbackQuery({ text: e.code === 'transfer_hash_required' ? t.operator.transferUnknown : t.operator.marketSilent, show_alert: true }));
      if (!(e instanceof ApiError) || (e.code !== 'not_in_review' && e.code !== 'not_found')) throw e;
      return stale();
    }
    await ctx.answerCallbackQuery();
    await settleCards(ctx.api, env.deps, reviewCase(orderId), { outcome, by: operatorName(ctx), at: env.deps.clock.now() }, (tt) => reviewTitle(env, tt, orderId));
  });

  c.callbackQuery(DEPOSIT_DATA, async (ctx) => {
    if (!may(whoOfCtx(ctx), 'deposits.resolve')) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.operatorsOnly }));
    const { env, t } = ctx;
    const id = ctx.match[2];
    const found = findDeposit(env.deps, id);
    const d = found ? numbered(env.deps, found) : null;
    if (!d || d.status !== 'unmatched') {
      // Handled already: nothing changes; the toast says by whom, and this card shows it.
      const handled = handledOf(env.deps, depositCase(id));
      const text = handled ? view.alreadyHandled(t, handled) : view.depositGone(t, depositNumber(env.deps, id), d?.status ?? null);
      await ctx.answerCallbackQuery({ text: text.slice(0, 200), show_alert: true });
      if (ctx.callbackQuery.message?.reply_markup?.inline_keyboard.length)
        await editPressed(ctx, d ? `${view.depositTitle(t, d)}\n\n${handled ? view.handled(t, handled) : text}` : text, []);
      return;
    }
    await ctx.answerCallbackQuery();
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(DEPOSIT_CONVERSATION, ctx.match[2], depositActionOf(ctx.match[1]));
  });
  return c;
}

/** ◀ ▶ between pages of a list (none for a single page). */
function navRow(t: Texts, kind: 'r' | 'd', page: number, pages: number): InlineKeyboardButton[] {
  const row: InlineKeyboardButton[] = [];
  if (page > 0) row.push({ text: t.operator.btnPrevPage, callback_data: caseListData(kind, page - 1) });
  if (page < pages - 1) row.push({ text: t.operator.btnNextPage, callback_data: caseListData(kind, page + 1) });
  return row;
}

/** Edits the pressed message unless it already reads so (two crossing taps). */
async function editPressed(ctx: BotContext, text: string, keyboard: InlineKeyboardButton[][]): Promise<void> {
  const msg = ctx.callbackQuery?.message;
  const same = msg && 'text' in msg && msg.text === text && JSON.stringify(msg.reply_markup?.inline_keyboard ?? []) === JSON.stringify(keyboard);
  if (same) return;
  try {
    await ctx.editMessageText(text, { reply_markup: { inline_keyboard: keyboard } });
  } catch (err) {
    ctx.env.deps.log.info({ err }, 'operator card not edited');
  }
}

/**
 * A review ended (the order's outcome event): the cards of the case say how, and who (the operator who
 * claimed it in the bot, else "outside the bot": the operator API, the console). Whichever of this and the
 * bot's own handler comes second changes nothing.
 */
export async function settleReviewOutside(api: Api, env: NoticeEnv, orderId: string): Promise<void> {
  const key = reviewCase(orderId);
  if (!hasCards(env.deps, key) || reviewOf(env, orderId) !== null) return;
  const o = orderOrNull(env, orderId);
  const outcome = o?.status === 'completed' ? 'delivered' : 'refunded';
  await settleCards(api, env.deps, key, { outcome, by: claimOf(env.deps, key) ?? null, at: env.deps.clock.now() }, (t) => reviewTitle(env, t, orderId));
}

/** The alert text (and buttons for a review or an unmatched deposit) in the operator chat's language. */
export function alertMessage(env: NoticeEnv, t: Texts, a: Alert): { text: string; reviewOrderId?: string; depositId?: string } {
  switch (a.kind) {
    case 'review':
      return { text: view.review(t, numberOfOrder(env.deps, a.orderId), partnerLabel(env, t, a.partnerId), a.stage, orderOrNull(env, a.orderId)), reviewOrderId: a.orderId };
    case 'order_failure':
      return { text: view.failure(t, numberOfOrder(env.deps, a.orderId), partnerLabel(env, t, a.partnerId), a.reason) };
    case 'webhook_gave_up':
      return { text: view.webhookGaveUp(t, numberOfOrder(env.deps, a.orderId), partnerLabel(env, t, a.partnerId), a.event, a.reason) };
    case 'unmatched_deposit':
      return { text: view.unmatchedDeposit(t, depositNumber(env.deps, a.depositId), a.amount, a.asset, a.network, a.reason), depositId: a.depositId };
    case 'storage_unavailable':
      return { text: view.storageDown(t, a.reason, a.detail) };
    case 'storage_recovered':
      return { text: view.storageUp(t, a.reason, a.downSeconds) };
    case 'supplier':
      return { text: view.supplier(t, a) };
    default: {
      // a kind this bot does not know yet: still tell the operators
      const other = a as { kind: string };
      return { text: t.operator.other(other.kind, JSON.stringify(other)) };
    }
  }
}

/**
 * Sends one alert to every operator chat; a chat that fails does not stop the others. A case's alert is one of
 * its cards. `before`: a line above it in each chat's language (a reminder that the case still waits).
 */
export async function sendAlert(api: Api, env: NoticeEnv, a: Alert, before?: (t: Texts) => string): Promise<void> {
  await Promise.all(
    env.config.ADMIN_CHAT_IDS.map(async (id) => {
      const chatId = Number(id);
      const t = textsOf(operatorLanguage(env.deps, chatId));
      const m = alertMessage(env, t, a);
      try {
        const keyboard = m.reviewOrderId ? reviewKeyboard(t, m.reviewOrderId) : m.depositId ? depositKeyboard(t, m.depositId) : undefined;
        const sent = await api.sendMessage(chatId, before ? `${before(t)}\n\n${m.text}` : m.text, keyboard ? { reply_markup: keyboard } : {});
        const key = m.reviewOrderId ? reviewCase(m.reviewOrderId) : m.depositId ? depositCase(m.depositId) : null;
        if (key) addCard(env.deps, key, { chatId, messageId: sent.message_id });
      } catch (e) {
        env.deps.log.warn({ err: e, chatId, alert: a.kind }, 'operator alert not delivered');
      }
    }),
  );
}
