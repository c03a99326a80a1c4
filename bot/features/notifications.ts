import type { Api } from 'grammy';
import type { Alert, BalanceLow, OrderOutcome, TopupCredited } from '../../src/kernel/event-bus.js';
import { balanceLowNoticeChats, joinNoticeChats, orderNoticeChats, orderPlacer, reviewNoticeChats, topupNoticeChats, webhookNoticeChats, type NoticeChat } from '../../src/app/notices.js';
import { getOwnOrder } from '../../src/app/orders/query.js';
import type { NoticeEnv } from '../context.js';
import { SqliteStorage } from '../storage.js';
import { textsOf, type Texts } from '../texts/index.js';
import { infoOf, numberOfOrder } from '../order-numbers.js';
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

/**
 * Tells the partner's linked chats that one of their orders completed or failed (a failure says why and
 * that the money is back: one message per outcome). Who hears it is the rule of src/app/notices.ts, with
 * each chat's /notices setting.
 */
export async function notifyOrderOutcome(api: Api, env: NoticeEnv, e: OrderOutcome): Promise<void> {
  const chats = orderNoticeChats(env.deps, e.partnerId, e.orderId, e.event);
  // Those told of its manual check hear how it ended, whatever their settings.
  if (e.event !== 'order.refunded') {
    const told = reviewTold(env).read(e.orderId) ?? [];
    for (const c of told) if (!chats.some((x) => x.chatId === c.chatId)) chats.push(c);
    if (told.length) reviewTold(env).delete(e.orderId);
  }
  if (!chats.length) return;
  const o = infoOf(env.deps, getOwnOrder(env.deps, e.partnerId, e.orderId));
  const by = orderPlacer(env.deps, e.orderId);
  // who ordered, except in the orderer's own private chat
  const own = (chatId: number) => by.via === 'bot' && by.telegramUserId === chatId;
  await tell(
    api,
    env,
    chats,
    (t, chatId) => `${e.event === 'order.completed' ? notifyView.completed(t, o) : notifyView.failed(t, o)}${own(chatId) ? '' : `\n${teamView.orderedBy(t, by)}`}`,
    { orderId: e.orderId },
  );
}

/** The chats told that an order is being checked by support (kv `review-told:<order id>`), until its outcome. */
const reviewTold = (env: NoticeEnv) => new SqliteStorage<NoticeChat[]>(env.deps, 'review-told:');

/**
 * An order went to a manual check by support: the person who placed it (and owners, by their /notices)
 * hear so, with its number, unasked; they hear the outcome too (notifyOrderOutcome).
 */
export async function notifyReview(api: Api, env: NoticeEnv, a: Extract<Alert, { kind: 'review' }>): Promise<void> {
  const chats = reviewNoticeChats(env.deps, a.partnerId, a.orderId);
  if (!chats.length) return;
  reviewTold(env).write(a.orderId, chats);
  const o = infoOf(env.deps, getOwnOrder(env.deps, a.partnerId, a.orderId));
  await tell(api, env, chats, (t) => notifyView.inReview(t, o), { orderId: a.orderId });
}

/** Tells the partner's owners that their webhook server did not take an event after its last retry. */
export async function notifyWebhookGaveUp(api: Api, env: NoticeEnv, a: Extract<Alert, { kind: 'webhook_gave_up' }>): Promise<void> {
  await tell(api, env, webhookNoticeChats(env.deps, a.partnerId), (t) => notifyView.webhookGaveUp(t, a.event, numberOfOrder(env.deps, a.orderId), a.reason), { orderId: a.orderId });
}

/** Tells the partner's owners that a top-up was credited (the first also that the account is now active). */
export async function notifyTopupCredited(api: Api, env: NoticeEnv, e: TopupCredited): Promise<void> {
  await tell(api, env, topupNoticeChats(env.deps, e.partnerId), (t) => topupView.credited(t, e.amount, e.currency, e.activated === true), { topupId: e.topupId });
}

/** Tells the partner's owners, each in their language, that an order took a balance below its alert threshold. */
export async function notifyBalanceLow(api: Api, env: NoticeEnv, e: BalanceLow): Promise<void> {
  await tell(api, env, balanceLowNoticeChats(env.deps, e.partnerId), (t) => notifyView.balanceLow(t, e.currency, e.balance, e.threshold), { orderId: e.orderId });
}

/** Tells the partner's owners (each in their language) that someone joined the team with an invite. */
export async function notifyJoined(api: Api, env: NoticeEnv, partnerId: number, joined: { telegramUserId: number; name: string; role: string; partner: string }): Promise<void> {
  await tell(api, env, joinNoticeChats(env.deps, partnerId, joined.telegramUserId), (t) => teamView.joined(t, joined.name, joined.partner, joined.role), { partnerId });
}
