import type { Api } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import type { Alert, BalanceLow, OrderOutcome, TopupCredited } from '../../src/kernel/event-bus.js';
import { balanceLowNoticeChats, joinNoticeChats, orderNoticeChats, orderPlacer, reviewNoticeChats, topupNoticeChats, webhookNoticeChats, type NoticeChat } from '../../src/app/notices.js';
import { getOwnOrder } from '../../src/app/orders/query.js';
import type { NoticeEnv } from '../context.js';
import { SqliteStorage } from '../storage.js';
import { textsOf, type Texts } from '../texts/index.js';
import { infoOf, numberOfOrder, receiptOf } from '../order-numbers.js';
import { forgetOrderMessage, orderMessageOf } from '../order-messages.js';
import { receiptRows } from '../keyboards/receipt.js';
import { takeRequestMessages } from '../topup-messages.js';
import { topupRequestState } from '../../src/app/topup-request-state.js';
import * as notifyView from '../views/notify.js';
import * as teamView from '../views/team.js';
import * as topupView from '../views/topup.js';

/** Sends one notice to each chat in its language; a chat that fails (blocked the bot, say) does not stop the others. */
async function tell(api: Api, env: NoticeEnv, chats: NoticeChat[], text: (t: Texts, chatId: number) => string, about: Record<string, unknown>): Promise<void> {
  await Promise.all(
    chats.map(async ({ chatId, language }) => {
      try {
        await api.sendMessage(chatId, text(textsOf(language), chatId));
      } catch (err) {
        env.deps.log.warn({ err, chatId, ...about }, 'bot notice not delivered');
      }
    }),
  );
}

/** A chat to tell about an order, and the message to answer there (where it was accepted). */
type Target = NoticeChat & { replyTo?: number };

/**
 * The chats to tell about an order: those the notice rules pick (src/app/notices.ts, with each chat's
 * /notices settings), those told of its manual check, and the chat it was placed from, where the notice
 * answers the "accepted" message: an order placed in a team group is reported in that group.
 */
function orderTargets(env: NoticeEnv, chats: NoticeChat[], orderId: string): Target[] {
  const targets = new Map<number, Target>(chats.map((c) => [c.chatId, { ...c }]));
  for (const c of reviewTold(env).read(orderId) ?? []) if (!targets.has(c.chatId)) targets.set(c.chatId, { ...c });
  const placed = orderMessageOf(env.deps, orderId);
  if (placed) targets.set(placed.chatId, { chatId: placed.chatId, language: placed.group ? placed.language : (targets.get(placed.chatId)?.language ?? placed.language), replyTo: placed.messageId });
  return [...targets.values()];
}

async function sendTo(api: Api, env: NoticeEnv, c: Target, text: string, rows: InlineKeyboardButton[][], about: Record<string, unknown>): Promise<void> {
  try {
    await api.sendMessage(c.chatId, text, {
      reply_markup: { inline_keyboard: rows },
      ...(c.replyTo !== undefined ? { reply_parameters: { message_id: c.replyTo, allow_sending_without_reply: true } } : {}),
    });
  } catch (err) {
    env.deps.log.warn({ err, chatId: c.chatId, ...about }, 'bot notice not delivered');
  }
}

/** "Ordered by …" under a receipt, except in the orderer's own private chat. */
export function placerLine(env: NoticeEnv, t: Texts, orderId: string, chatId: number): string | undefined {
  const by = orderPlacer(env.deps, orderId);
  return by.via === 'bot' && by.telegramUserId === chatId ? undefined : teamView.orderedBy(t, by);
}

/** The receipt of a finished order in one chat's language: completed or failed and refunded, with its buttons. */
export function receiptText(env: NoticeEnv, t: Texts, partnerId: number, orderId: string, chatId: number): string {
  const r = receiptOf(env.deps, partnerId, orderId, wasChecked(env, orderId));
  const by = placerLine(env, t, orderId, chatId);
  return r.status === 'completed' ? notifyView.completed(t, r, by) : notifyView.failed(t, r, by);
}

/**
 * Tells the partner's chats that one of their orders completed or failed: a receipt (what, for whom, the
 * price, the balance after, when; a failure says why and that the money is back, in one message) with
 * "Order again" and "Details". Who hears it is the rule of src/app/notices.ts with each chat's /notices
 * setting, and the chat it was placed from always (a group too, as a reply to its "accepted" message).
 */
export async function notifyOrderOutcome(api: Api, env: NoticeEnv, e: OrderOutcome): Promise<void> {
  // a refund always comes with the failure, which says the money is back
  if (e.event === 'order.refunded') return;
  const targets = orderTargets(env, orderNoticeChats(env.deps, e.partnerId, e.orderId, e.event), e.orderId);
  const final = getOwnOrder(env.deps, e.partnerId, e.orderId);
  const finished = final.status === 'completed' || final.refunded === true;
  if (finished) {
    reviewTold(env).delete(e.orderId);
    forgetOrderMessage(env.deps, e.orderId);
  }
  await Promise.all(
    targets.map((c) => {
      const t = textsOf(c.language);
      return sendTo(api, env, c, receiptText(env, t, e.partnerId, e.orderId, c.chatId), finished ? receiptRows(t, e.orderId) : [], { orderId: e.orderId });
    }),
  );
}

/** The chats told that an order is being checked by support (kv `review-told:<order id>`), until its outcome. */
const reviewTold = (env: NoticeEnv) => new SqliteStorage<NoticeChat[]>(env.deps, 'review-told:');
/** Orders that went through a manual check by support (kv `checked:<order id>`): their receipts say so. */
const checkedStore = (env: NoticeEnv) => new SqliteStorage<true>(env.deps, 'checked:');
export const wasChecked = (env: NoticeEnv, orderId: string) => checkedStore(env).read(orderId) === true;

/**
 * An order went to a manual check by support: the person who placed it (and owners, by their /notices)
 * hear so, with its number, unasked, and the chat it was placed from (a group too, as a reply); they hear
 * the outcome too (notifyOrderOutcome).
 */
export async function notifyReview(api: Api, env: NoticeEnv, a: Extract<Alert, { kind: 'review' }>): Promise<void> {
  checkedStore(env).write(a.orderId, true);
  const chats = reviewNoticeChats(env.deps, a.partnerId, a.orderId);
  const targets = orderTargets(env, chats, a.orderId);
  if (!targets.length) return;
  reviewTold(env).write(a.orderId, targets.map((c) => ({ chatId: c.chatId, language: c.language })));
  const o = infoOf(env.deps, getOwnOrder(env.deps, a.partnerId, a.orderId));
  await Promise.all(targets.map((c) => sendTo(api, env, c, notifyView.inReview(textsOf(c.language), o), [], { orderId: a.orderId })));
}

/** Tells the partner's owners that their webhook server did not take an event after its last retry. */
export async function notifyWebhookGaveUp(api: Api, env: NoticeEnv, a: Extract<Alert, { kind: 'webhook_gave_up' }>): Promise<void> {
  await tell(api, env, webhookNoticeChats(env.deps, a.partnerId), (t) => notifyView.webhookGaveUp(t, a.event, numberOfOrder(env.deps, a.orderId), a.reason), { orderId: a.orderId });
}

/**
 * A top-up was credited. The messages showing the request it paid now read "paid ✅" (their buttons go), and
 * the partner's owners are told (the first top-up also that the account is now active): as an answer to the
 * request's message where it is in their chat.
 */
export async function notifyTopupCredited(api: Api, env: NoticeEnv, e: TopupCredited): Promise<void> {
  const shownIn = e.requestId ? takeRequestMessages(env.deps, e.requestId).messages : [];
  const request = e.requestId ? requestShown(env, e.partnerId, e.requestId) : null;
  await Promise.all(
    shownIn.map(async (m) => {
      if (!request) return;
      const text = topupView.paid(textsOf(m.language), request.toSend, e.currency, e.amount);
      await api.editMessageText(m.chatId, m.messageId, text, { reply_markup: { inline_keyboard: [] } }).catch((err) => env.deps.log.info({ err }, 'top-up request message not marked paid'));
    }),
  );
  const targets: Target[] = topupNoticeChats(env.deps, e.partnerId).map((c) => {
    const m = shownIn.find((x) => x.chatId === c.chatId);
    return m ? { ...c, replyTo: m.messageId } : c;
  });
  await Promise.all(targets.map((c) => sendTo(api, env, c, topupView.credited(textsOf(c.language), e.amount, e.currency, e.activated === true), [], { topupId: e.topupId })));
}

/** The amount a request asked to send, to name it in its "paid" line (null when it is not the partner's). */
function requestShown(env: NoticeEnv, partnerId: number, requestId: string): { toSend: string } | null {
  try {
    return { toSend: topupRequestState(env.deps, partnerId, requestId).amount_to_send };
  } catch {
    return null;
  }
}

/** Tells the partner's owners, each in their language, that an order took a balance below its alert threshold. */
export async function notifyBalanceLow(api: Api, env: NoticeEnv, e: BalanceLow): Promise<void> {
  await tell(api, env, balanceLowNoticeChats(env.deps, e.partnerId), (t) => notifyView.balanceLow(t, e.currency, e.balance, e.threshold), { orderId: e.orderId });
}

/**
 * Tells the partner's owners (each in their language) that someone joined the team with an invite, or
 * (`changed`) that someone of the team took another role by one.
 */
export async function notifyJoined(api: Api, env: NoticeEnv, partnerId: number, joined: { telegramUserId: number; name: string; role: string; partner: string; changed?: boolean }): Promise<void> {
  await tell(
    api,
    env,
    joinNoticeChats(env.deps, partnerId, joined.telegramUserId),
    (t) => (joined.changed ? teamView.nowRole(t, joined.name, joined.partner, joined.role) : teamView.joined(t, joined.name, joined.partner, joined.role)),
    { partnerId },
  );
}

/** Tells a partner's owners that someone left its team for another partner's invite (which partner, they are not told). */
export async function notifyLeft(api: Api, env: NoticeEnv, partnerId: number, left: { telegramUserId: number; name: string; partner: string }): Promise<void> {
  await tell(api, env, joinNoticeChats(env.deps, partnerId, left.telegramUserId), (t) => teamView.leftForOther(t, left.name, left.partner), { partnerId });
}
