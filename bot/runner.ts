import { Api, GrammyError, webhookCallback, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { autoRetry } from '@grammyjs/auto-retry';
import { createConcurrentSink, createRunner, createSource, createUpdateFetcher, type RunnerHandle } from '@grammyjs/runner';
import type { Alert, BalanceLow, OrderOutcome, TopupCredited } from '../src/kernel/event-bus.js';
import type { Deps } from '../src/app/deps.js';
import type { KeyCache } from '../src/app/keys.js';
import type { GiftCatalog } from '../src/app/nft/gift-catalog.js';
import type { Config } from '../src/config/env.js';
import type { BotWebhook } from '../src/app/bot-webhook.js';
import { rememberBotUsername } from '../src/app/bot-state.js';
import type { BotContext } from './context.js';
import { setAppMenuButton } from './features/app.js';
import { sendAlert, settleReviewOutside } from './features/operator.js';
import { notifyBalanceLow, notifyOrderOutcome, notifyReview, notifyTopupCredited, notifyWebhookGaveUp } from './features/notifications.js';
import { setDefaultCommands, setOperatorCommands } from './commands.js';
import { createBot } from './index.js';
import { operatorLanguage } from './operator-language.js';
import { tick } from './ticker.js';
import { connectionWatch } from './connection.js';

export interface BotHandle {
  bot: Bot<BotContext>;
  /** Stops polling, lets the updates in hand finish, confirms them to the Bot API, waits for notifications in flight. */
  stop(): Promise<void>;
}

export interface StartBotOptions {
  /** getUpdates long-poll timeout in seconds (default 30). */
  pollTimeoutSec?: number;
  /** Wait before polling again after it failed (default 5 s). */
  restartDelayMs?: number;
}

const STOP_GRACE_MS = 5_000;
/** How often the ticker runs on real time (the sandbox's clock moves run it too). */
const TICK_MS = 60_000;

/** The updates the bot handles (commands, typed answers, buttons): what setWebhook asks Telegram for. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/**
 * Starts the bot with long polling, without blocking: returns at once. Updates are handled concurrently by
 * @grammyjs/runner, so one slow supplier call in one chat keeps no other chat waiting; the bot's
 * `sequentialize` (bot/index.ts) keeps each chat's and each person's updates in order. Order outcomes on `deps.bus` go to
 * the partner's linked chats, operator alerts to ADMIN_CHAT_IDS. Polling that fails (the Bot API is down
 * at start-up, say) is started again after a pause until `stop()`. With TELEGRAM_WEBHOOK_URL (`svc.botWebhook`)
 * the bot does not poll: it attaches to the API's webhook route and calls setWebhook instead.
 */
export function startBot(
  svc: { deps: Deps; keys: KeyCache; catalog: GiftCatalog; botWebhook?: BotWebhook | null },
  config: Config,
  opts: StartBotOptions = {},
): BotHandle {
  const token = config.TELEGRAM_BOT_TOKEN;
  if (!token) throw new Error('TELEGRAM_BOT_TOKEN is not set');
  const { deps } = svc;
  // The API's gift catalog and its cache: one copy of the market for both doors.
  const gifts = svc.catalog;
  const env = { deps, keys: svc.keys, config, apiRoot: config.TELEGRAM_API_ROOT, gifts };
  const bot = createBot(token, env);
  // an unreachable Bot API is logged at once and shown by partner_service_bot_connected (bot/connection.ts)
  const watch = connectionWatch(deps.bus, deps.log, config.TELEGRAM_API_ROOT);
  bot.api.config.use(watch);
  // Replies wait out flood limits (429) but fail fast otherwise: grammY's polling loop restarts by itself.
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowInternalServerErrors: true, rethrowHttpErrors: true }));
  // Notifications and alerts have no user waiting: they also retry server errors (3 s, 6 s, 12 s).
  const notifyApi = new Api(token, { apiRoot: config.TELEGRAM_API_ROOT });
  notifyApi.config.use(watch);
  notifyApi.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60, rethrowHttpErrors: true }));

  const inFlight = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const onOrder = (e: OrderOutcome) => {
    track(notifyOrderOutcome(notifyApi, env, e).catch((err) => deps.log.error({ err, orderId: e.orderId }, 'order notification failed')));
    // A review resolved outside the bot (the operator API, the console): the operators' cards say so.
    track(settleReviewOutside(notifyApi, env, e.orderId).catch((err) => deps.log.error({ err, orderId: e.orderId }, 'operator cards not settled')));
  };
  const onAlert = (a: Alert) => {
    track(sendAlert(notifyApi, env, a).catch((err) => deps.log.error({ err, alert: a.kind }, 'operator alert failed')));
    // Owners hear it too when their own webhook keeps failing: only they can fix their server.
    // The person who placed an order that went to a manual check hears so (and owners, by their /notices).
    if (a.kind === 'review') track(notifyReview(notifyApi, env, a).catch((err) => deps.log.error({ err, orderId: a.orderId }, 'review notice failed')));
    if (a.kind === 'webhook_gave_up')
      track(notifyWebhookGaveUp(notifyApi, env, a).catch((err) => deps.log.error({ err, orderId: a.orderId }, 'webhook give-up notice failed')));
  };
  const onTopup = (e: TopupCredited) =>
    track(notifyTopupCredited(notifyApi, env, e).catch((err) => deps.log.error({ err, topupId: e.topupId }, 'top-up notification failed')));
  deps.bus.on('order', onOrder);
  deps.bus.on('alert', onAlert);
  deps.bus.on('topup_credited', onTopup);
  const onBalanceLow = (e: BalanceLow) =>
    track(notifyBalanceLow(notifyApi, env, e).catch((err) => deps.log.error({ err, orderId: e.orderId }, 'low-balance notice failed')));
  deps.bus.on('balance_low', onBalanceLow);

  // Digests, reminders and housekeeping on the service clock (bot/ticker.ts): every minute, and at once when
  // the sandbox moves the clock; one run at a time.
  let ticking = false;
  const runTick = () => {
    if (ticking) return;
    ticking = true;
    track(
      tick(notifyApi, env)
        .catch((err) => deps.log.error({ err }, 'bot tick failed'))
        .finally(() => {
          ticking = false;
        }),
    );
  };
  const ticker = setInterval(runTick, TICK_MS);
  ticker.unref();
  const offClockMove = deps.clock.onMove(() => runTick());

  // The bot's username, command lists and menu button, once it is running.
  const announce = async (message: string) => {
    const me = bot.botInfo;
    rememberBotUsername(deps, me.username);
    deps.log.info({ username: me.username }, message);
    try {
      await setDefaultCommands(bot.api);
      const operators = config.ADMIN_CHAT_IDS.map((id) => ({ chatId: Number(id), lang: operatorLanguage(deps, Number(id)) }));
      await setOperatorCommands(bot.api, deps, operators);
    } catch (err) {
      deps.log.warn({ err }, 'bot commands not set');
    }
    await setAppMenuButton(bot.api, config).catch((err) => deps.log.warn({ err }, 'bot menu button not set'));
  };

  let stopped = false;
  let wakeUp = () => {};
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, opts.restartDelayMs ?? 5_000);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  let runner: RunnerHandle | null = null;
  // Updates being handled, and the newest one fetched: confirmed to the Bot API on stop, so a restart does not
  // get them again.
  const handling = new Set<Promise<unknown>>();
  let lastUpdateId: number | undefined;
  // grammY retries getMe by itself while the Bot API is unreachable; this signal ends that on stop().
  const abort = new AbortController();
  const hook = svc.botWebhook ?? null;
  const polling = hook ? startWebhook(hook) : (async () => {
    while (!stopped) {
      try {
        // (grammY types its signal with the abort-controller package; Node's AbortSignal is what it uses at run time)
        if (!bot.isInited()) await bot.init(abort.signal as unknown as Parameters<typeof bot.init>[0]);
        if (stopped) return;
        // as bot.start() does: a webhook left set would make getUpdates fail with 409
        await bot.api.deleteWebhook();
        if (stopped) return;
        // transient fetch failures are retried by the runner itself (with backoff); 401 and 409 end the task
        const fetchUpdates = createUpdateFetcher(bot, { fetch: { timeout: opts.pollTimeoutSec ?? 30 }, silent: true });
        const sink = createConcurrentSink<Update, unknown>(
          {
            consume: (update) => {
              if (lastUpdateId === undefined || update.update_id > lastUpdateId) lastUpdateId = update.update_id;
              const p = bot.handleUpdate(update);
              handling.add(p);
              void p.catch(() => {}).finally(() => handling.delete(p));
              return p;
            },
          },
          async (err) => {
            try {
              await bot.errorHandler(err as Parameters<typeof bot.errorHandler>[0]);
            } catch (e) {
              deps.log.error({ err: e }, 'bot error');
            }
          },
        );
        runner = createRunner(createSource({ supply: fetchUpdates }), sink);
        runner.start();
        await announce('bot polling');
        await runner.task();
        if (stopped) return;
        throw new Error('polling ended');
      } catch (err) {
        if (stopped) return;
        if (err instanceof GrammyError && err.error_code === 401) {
          // A wrong token does not get better by retrying.
          deps.log.error({ err }, 'the Bot API rejected TELEGRAM_BOT_TOKEN (401): the bot is not polling');
          return;
        }
        deps.log.error({ err }, 'bot polling failed; starting again shortly');
        await pause();
      }
    }
  })();

  /**
   * Webhook mode: Telegram posts updates to the API's route, which checked the secret already; grammY's
   * adapter hands each one to the bot (`sequentialize` keeps each chat's order, as with polling). Answered
   * after 9 s at the latest, so that Telegram does not send a slow update again while it is being handled.
   */
  async function startWebhook(hook: BotWebhook): Promise<void> {
    // grammY's adapter of a plain callback: the update, the answer to Telegram (a webhook reply), the secret header
    const callback = webhookCallback(bot, 'callback', { secretToken: hook.secret, onTimeout: 'return', timeoutMilliseconds: 9_000 });
    while (!stopped) {
      try {
        if (!bot.isInited()) await bot.init(abort.signal as unknown as Parameters<typeof bot.init>[0]);
        if (stopped) return;
        hook.attach((update, respond, secretHeader) => {
          const p = callback(update, respond, secretHeader);
          handling.add(p);
          void p.catch(() => {}).finally(() => handling.delete(p));
          return p;
        });
        await bot.api.setWebhook(hook.url, { secret_token: hook.secret, allowed_updates: [...ALLOWED_UPDATES] });
        await announce('bot webhook set');
        return;
      } catch (err) {
        if (stopped) return;
        if (err instanceof GrammyError && err.error_code === 401) {
          deps.log.error({ error: err.message }, 'the Bot API rejected TELEGRAM_BOT_TOKEN (401): the bot is not running');
          return;
        }
        // the message only: a GrammyError carries the call's payload, which holds the secret
        deps.log.error({ error: err instanceof Error ? err.message : String(err) }, 'bot webhook not set; trying again shortly');
        await pause();
      }
    }
  }

  return {
    bot,
    async stop() {
      if (stopped) return;
      stopped = true;
      abort.abort();
      // webhook mode: the route answers 503 from now on, so Telegram keeps the update for the next start
      hook?.detach();
      deps.bus.off('order', onOrder);
      deps.bus.off('alert', onAlert);
      deps.bus.off('topup_credited', onTopup);
      deps.bus.off('balance_low', onBalanceLow);
      clearInterval(ticker);
      offClockMove();
      wakeUp();
      const done = (async () => {
        // stops fetching (the long poll in progress is aborted); the updates in hand go on to their end
        await runner?.stop()?.catch(() => {});
        await Promise.allSettled([polling, ...handling, ...inFlight]);
        // confirms every update fetched (bot.stop() does the same): a restart does not handle them twice
        if (lastUpdateId !== undefined)
          await bot.api.getUpdates({ offset: lastUpdateId + 1, limit: 1, timeout: 0 }).catch((err) => deps.log.warn({ err }, 'bot stop: offset not confirmed'));
      })();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
      await Promise.race([done, grace]);
    },
  };
}
