import type { Api } from 'grammy';
import { listDeposits } from '../src/app/deposits/view.js';
import { claimDigest, digestChats } from '../src/app/notices.js';
import { teamDigest } from '../src/app/order-digest.js';
import { listReviews } from '../src/app/orders/review.js';
import type { Config } from '../src/config/env.js';
import { claimReminder, depositCase, reviewCase } from './cases.js';
import type { NoticeEnv } from './context.js';
import { sendAlert } from './features/operator.js';
import { pruneFlowOwners } from './flow-owners.js';
import { topupRequestState } from '../src/app/topup-request-state.js';
import { rememberedRequests, requestRecord, takeRequestMessages } from './topup-messages.js';
import * as topupView from './views/topup.js';
import { textsOf } from './texts/index.js';
import { duration } from './views/format.js';
import * as notifyView from './views/notify.js';

/**
 * What the bot does on the service clock rather than on an event (bot/runner.ts calls `tick` every minute
 * and whenever the sandbox moves the clock): the owners' daily digests of their team's orders, the one
 * reminder of an operator case that still waits, the messages of top-up requests that ended unheard (hourly),
 * and forgetting old bookkeeping. Each is claimed in the
 * database before it is sent, so two ticks never send it twice (a send that fails is not tried again).
 */
export type TickEnv = NoticeEnv & { config: Pick<Config, 'ADMIN_CHAT_IDS' | 'BOT_CASE_REMINDER_HOURS'> };

const HOUR_MS = 3600_000;

/** Old bookkeeping is forgotten at most this often (service clock). */
const PRUNE_EVERY_MS = 3600_000;
/** When each service (its database) last had its hourly work, on its own clock. */
const prunedAt = new WeakMap<object, number>();

export async function tick(api: Api, env: TickEnv): Promise<void> {
  await sendDigests(api, env);
  await remindCases(api, env);
  const now = env.deps.clock.now();
  if (now - (prunedAt.get(env.deps.db) ?? -Infinity) >= PRUNE_EVERY_MS) {
    prunedAt.set(env.deps.db, now);
    pruneFlowOwners(env.deps);
    await settleRequestMessages(api, env);
  }
}

/**
 * A top-up request that ended without the bot's hearing of it (it expired, or was canceled in the dashboard or
 * over the operator API, or was paid while the bot missed its credit's event, a restart in between): the
 * messages showing it say so, and are forgotten. (Paid ones are told at once by their credit's event.)
 */
export async function settleRequestMessages(api: Api, env: TickEnv): Promise<void> {
  for (const id of rememberedRequests(env.deps)) {
    const partnerId = requestRecord(env.deps, id).partnerId;
    if (partnerId === undefined) continue;
    let r: ReturnType<typeof topupRequestState> | null = null;
    try {
      r = topupRequestState(env.deps, partnerId, id);
    } catch {
      // gone: nothing to show
    }
    if (r?.status === 'open') continue;
    const { messages } = takeRequestMessages(env.deps, id);
    if (!r) continue;
    const request = r;
    const ended = request.status === 'paid' ? topupView.paidSeenLater : request.status === 'expired' ? topupView.expired : topupView.canceled;
    await Promise.all(
      messages.map((m) => {
        const text = ended(textsOf(m.language), request.amount_to_send, request.currency);
        return api.editMessageText(m.chatId, m.messageId, text, { reply_markup: { inline_keyboard: [] } }).catch((err) => env.deps.log.info({ err }, 'top-up request message not settled'));
      }),
    );
  }
}

/**
 * Owners' chats (and any chat that chose it in /notices) hear once a day how many orders other members of the
 * team completed, of what kind, and what they cost; nothing when there were none. A chat's first digest
 * covers the day after it was linked.
 */
export async function sendDigests(api: Api, env: TickEnv): Promise<void> {
  for (const c of digestChats(env.deps)) {
    const last = claimDigest(env.deps, c.chatId);
    if (last === null) continue;
    const now = env.deps.clock.now();
    const d = teamDigest(env.deps, c.partnerId, c.users, last, now);
    if (!d.count) continue;
    try {
      await api.sendMessage(c.chatId, notifyView.digest(textsOf(c.language), d, last, now));
    } catch (err) {
      env.deps.log.warn({ err, chatId: c.chatId }, 'bot digest not delivered');
    }
  }
}

/**
 * An order in review or an unmatched deposit still waiting after BOT_CASE_REMINDER_HOURS is reminded once in
 * every operator chat, as a new card of the case (with its buttons, edited like the others when it is handled).
 */
export async function remindCases(api: Api, env: TickEnv): Promise<void> {
  const hours = env.config.BOT_CASE_REMINDER_HOURS;
  if (!hours || !env.config.ADMIN_CHAT_IDS.length) return;
  const now = env.deps.clock.now();
  const before = (waited: number) => (t: ReturnType<typeof textsOf>) => t.operator.reminder(duration(waited, t.lang));
  for (const o of listReviews(env.deps).items) {
    const orderId = String((o as { order_id?: unknown }).order_id);
    if (!o.review) continue;
    const since = Date.parse(o.review.since);
    if (now - since < hours * HOUR_MS || !claimReminder(env.deps, reviewCase(orderId))) continue;
    await sendAlert(api, env, { kind: 'review', orderId, partnerId: o.partner_id, stage: o.review.stage }, before(now - since));
  }
  for (const d of listDeposits(env.deps, { status: 'unmatched' }).items) {
    const since = Date.parse(d.created_at);
    if (now - since < hours * HOUR_MS || !claimReminder(env.deps, depositCase(d.deposit_id))) continue;
    await sendAlert(api, env, { kind: 'unmatched_deposit', depositId: d.deposit_id, network: d.network, asset: d.asset, amount: d.amount, reason: d.reason ?? '' }, before(now - since));
  }
}
