import type { Api } from 'grammy';
import { ownerChats, partnerChats } from '../../src/app/bot-users.js';
import type { Alert, BalanceLow, OrderOutcome, TopupCredited } from '../../src/app/event-bus.js';
import { getOwnOrder } from '../../src/app/orders/query.js';
import type { BotDeps } from '../context.js';
import { orderInfo, textsOf } from '../texts/index.js';

/** Tells the partner's linked chats that one of their orders completed, failed or was refunded. */
export async function notifyOrderOutcome(api: Api, env: BotDeps, e: OrderOutcome): Promise<void> {
  const chats = partnerChats(env.deps, e.partnerId);
  if (!chats.length) return;
  const o = orderInfo(getOwnOrder(env.deps, e.partnerId, e.orderId));
  // One message per outcome: a failure that was refunded is told once, by its failure message (which
  // says why and that the money is back); the separate refund event then adds nothing.
  if (e.event === 'order.refunded' && (o.status === 'failed' || o.status === 'canceled')) return;
  await Promise.all(
    chats.map(async ({ chatId, language }) => {
      const t = textsOf(language);
      const text = e.event === 'order.completed' ? t.notify.completed(o) : e.event === 'order.failed' ? t.notify.failed(o) : t.notify.refunded(o);
      try {
        await api.sendMessage(chatId, text);
      } catch (err) {
        env.deps.log.warn({ err, chatId, orderId: e.orderId }, 'order notification not delivered');
      }
    }),
  );
}

/** Tells the partner's owners that their webhook server did not take an event after its last retry. */
export async function notifyWebhookGaveUp(api: Api, env: BotDeps, a: Extract<Alert, { kind: 'webhook_gave_up' }>): Promise<void> {
  await Promise.all(
    ownerChats(env.deps, a.partnerId).map(async ({ chatId, language }) => {
      try {
        await api.sendMessage(chatId, textsOf(language).notify.webhookGaveUp(a.event, a.orderId, a.reason));
      } catch (err) {
        env.deps.log.warn({ err, chatId, orderId: a.orderId }, 'webhook give-up notice not delivered');
      }
    }),
  );
}

/** Tells the partner's owners that a top-up was credited. */
export async function notifyTopupCredited(api: Api, env: BotDeps, e: TopupCredited): Promise<void> {
  await Promise.all(
    ownerChats(env.deps, e.partnerId).map(async ({ chatId, language }) => {
      try {
        await api.sendMessage(chatId, textsOf(language).notify.topupCredited(e.amount, e.currency));
      } catch (err) {
        env.deps.log.warn({ err, chatId, topupId: e.topupId }, 'top-up notification not delivered');
      }
    }),
  );
}

/** Tells the partner's owners, each in their language, that an order took a balance below its alert threshold. */
export async function notifyBalanceLow(api: Api, env: BotDeps, e: BalanceLow): Promise<void> {
  await Promise.all(
    ownerChats(env.deps, e.partnerId).map(async ({ chatId, language }) => {
      try {
        await api.sendMessage(chatId, textsOf(language).notify.balanceLow(e.currency, e.balance, e.threshold));
      } catch (err) {
        env.deps.log.warn({ err, chatId, orderId: e.orderId }, 'low-balance notice not delivered');
      }
    }),
  );
}
