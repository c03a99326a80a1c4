import { Bot, session, type BotError } from 'grammy';
import { conversations, createConversation, type ConversationData, type VersionedState } from '@grammyjs/conversations';
import { sequentialize } from '@grammyjs/runner';
import { findLink, rememberProfile } from '../src/app/bot-users.js';
import { conversationKey } from '../src/app/bot-state.js';
import { displayName } from '../src/domain/display-name.js';
import { GiftCatalog } from '../src/app/nft/gift-catalog.js';
import type { BotContext, BotDeps, BotEnv, ConvContext, SessionData } from './context.js';
import {
  alertsConversation,
  ALERTS_CONVERSATION,
  apikeyConversation,
  APIKEY_CONVERSATION,
  webhookConversation,
  WEBHOOK_CONVERSATION,
} from './conversations/owner.js';
import { depositConversation, DEPOSIT_CONVERSATION } from './conversations/deposit.js';
import { topupConversation, TOPUP_CONVERSATION } from './conversations/topup.js';
import { teamConversation, TEAM_CONVERSATION } from './conversations/team.js';
import { orderConversation, ORDER_CONVERSATION } from './conversations/order.js';
import { appFeature, syncMenuButton } from './features/app.js';
import { balanceFeature } from './features/balance.js';
import { foreignFlowFeature } from './features/foreign-flow.js';
import { gateFeature } from './features/gate.js';
import { receiptsFeature } from './features/receipts.js';
import { operatorFeature } from './features/operator.js';
import { orderFeature } from './features/order.js';
import { noticesFeature } from './features/notices.js';
import { ordersFeature } from './features/orders.js';
import { ownerFeature } from './features/owner.js';
import { secretSavedFeature } from './features/secret-saved.js';
import { startFeature } from './features/start.js';
import { unhandledFeature } from './features/unhandled.js';
import { syncCommands } from './commands.js';
import { configuredLanguage, rememberOperatorLanguage } from './operator-language.js';
import { SqliteStorage } from './storage.js';
import { textsFor, textsOf } from './texts/index.js';

export type { BotContext, BotDeps, BotEnv } from './context.js';

/** What an update must wait for: earlier updates of its chat and of its sender (bot/runner.ts runs the rest concurrently). */
export function updateOrder(ctx: { chat?: { id: number }; from?: { id: number } }): string[] {
  const keys: string[] = [];
  if (ctx.chat) keys.push(`chat:${ctx.chat.id}`);
  if (ctx.from) keys.push(`user:${ctx.from.id}`);
  return keys;
}

/** Bump when a conversation changes so that stored states of the old code are discarded. */
export const CONVERSATION_STATE_VERSION = 5;

/**
 * Builds the bot from injected dependencies; creates nothing at import time and does not start polling
 * (bot/runner.ts does). Order of the middleware: error boundary → who is asking → session →
 * conversations → features, with the gate for unlinked users before the partner features and the
 * "unhandled" feature last.
 */
export function createBot(token: string, input: BotDeps): Bot<BotContext> {
  const env: BotEnv = { ...input, gifts: input.gifts ?? new GiftCatalog(input.deps) };
  const { deps, config } = env;
  const bot = new Bot<BotContext>(token, env.apiRoot ? { client: { apiRoot: env.apiRoot } } : {});

  // Updates run concurrently (bot/runner.ts), but one chat's and one person's in the order they came: the
  // session is per chat and a conversation per person in a chat, so neither sees two updates at once.
  bot.use(sequentialize(updateOrder));
  // bot_updates_total{outcome} (src/ops/metrics.ts): the boundary below marks the updates that failed.
  const failedUpdates = new WeakSet<object>();
  bot.use(async (ctx, next) => {
    let ok = false;
    try {
      await next();
      ok = !failedUpdates.has(ctx.update);
    } finally {
      deps.bus.emit('ops', { kind: 'bot_update', ok });
    }
  });
  const onError = async (err: BotError<BotContext>) => {
    failedUpdates.add(err.ctx.update);
    deps.log.error({ err: err.error, update_id: err.ctx.update.update_id }, 'bot update failed');
    const ctx = err.ctx;
    try {
      const t = textsFor(ctx.from?.language_code);
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: t.common.genericError });
      else if (ctx.chat && ctx.message) await ctx.reply(t.common.genericError);
    } catch {
      // the Bot API itself may be the problem
    }
  };
  // One bad update never stops the bot: the boundary answers it, bot.catch is the last resort.
  bot.catch((err) => deps.log.error({ err: err.error }, 'bot error'));
  const root = bot.errorBoundary(onError);

  root.use(async (ctx, next) => {
    ctx.env = env;
    ctx.link = ctx.from ? findLink(deps, ctx.from.id) : null;
    ctx.isOperator = ctx.chat !== undefined && config.ADMIN_CHAT_IDS.includes(String(ctx.chat.id));
    // An operator chat whose ADMIN_CHAT_IDS entry names a language speaks it to the operator (not a linked partner).
    const configured = ctx.isOperator && !ctx.link && ctx.chat ? configuredLanguage(deps, ctx.chat.id) : undefined;
    ctx.t = configured ? textsOf(configured) : textsFor(ctx.from?.language_code);
    if (ctx.link && ctx.from) rememberProfile(deps, ctx.link, { languageCode: ctx.from.language_code, displayName: displayName(ctx.from) });
    // Alerts reach operators without a user action: their chat's language is remembered when they act.
    if (ctx.isOperator && ctx.chat) rememberOperatorLanguage(deps, ctx.chat.id, ctx.from?.language_code);
    await next();
    // After the update (a /start may have linked the account): the sender's command menu follows their role.
    await syncCommands(ctx);
    await syncMenuButton(ctx);
  });
  root.use(
    session<SessionData, BotContext>({
      initial: () => ({}),
      storage: new SqliteStorage<SessionData>(deps, 'session:'),
      getSessionKey: (ctx) => ctx.chat?.id.toString(),
    }),
  );
  root.use(
    conversations<BotContext, ConvContext>({
      storage: {
        type: 'key',
        version: CONVERSATION_STATE_VERSION,
        // Per user in a chat, so several staff can order in one group at once (an unlink deletes them by this key).
        getStorageKey: (ctx) => (ctx.chat && ctx.from ? conversationKey(ctx.chat.id, ctx.from.id) : undefined),
        adapter: new SqliteStorage<VersionedState<ConversationData>>(deps, ''),
      },
    }),
  );
  // Idleness is judged on the service clock by the conversations themselves (bot/conversations/flow.ts).
  root.use(createConversation(orderConversation(env), { id: ORDER_CONVERSATION }));
  root.use(createConversation(topupConversation(env), { id: TOPUP_CONVERSATION }));
  root.use(createConversation(apikeyConversation(env), { id: APIKEY_CONVERSATION }));
  root.use(createConversation(webhookConversation(env), { id: WEBHOOK_CONVERSATION }));
  root.use(createConversation(alertsConversation(env), { id: ALERTS_CONVERSATION }));
  root.use(createConversation(depositConversation(env), { id: DEPOSIT_CONVERSATION }));
  root.use(createConversation(teamConversation(env), { id: TEAM_CONVERSATION }));

  root.use(startFeature());
  root.use(secretSavedFeature());
  root.use(foreignFlowFeature());
  root.use(operatorFeature());
  root.use(gateFeature());
  root.use(appFeature());
  root.use(balanceFeature());
  root.use(orderFeature());
  root.use(ordersFeature());
  root.use(receiptsFeature());
  root.use(noticesFeature());
  root.use(ownerFeature());
  root.use(unhandledFeature());
  return bot;
}
