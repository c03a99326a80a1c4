import { HttpError, type Transformer } from 'grammy';
import type { EventBus } from '../src/kernel/event-bus.js';
import type { Logger } from '../src/kernel/log.js';

/**
 * Whether the Bot API answers the bot, told at once: grammY retries an unreachable Bot API quietly (getMe at
 * start-up, getUpdates while polling), which left nothing in the log for the first 24 s. Installed on every Api
 * of the bot: the first call that cannot reach TELEGRAM_API_ROOT logs one error and sets
 * `partner_service_bot_connected` to 0 (an `ops` event); the first answer after it logs the recovery and sets
 * it to 1. Any answer counts (an error answer too: the API was reached). The message and the cause's code only:
 * a request's URL holds the bot token.
 */
export function connectionWatch(bus: EventBus, log: Logger, apiRoot: string): Transformer {
  let connected: boolean | null = null;
  const set = (now: boolean, err?: HttpError) => {
    if (connected === now) return;
    const was = connected;
    connected = now;
    bus.emit('ops', { kind: 'bot_connection', connected: now });
    if (!now) {
      const cause = (err?.error as { cause?: { code?: string }; code?: string } | undefined) ?? {};
      log.error({ api_root: new URL(apiRoot).origin, error: err?.message, code: cause.code ?? cause.cause?.code }, 'Bot API unreachable: the bot retries until it answers');
    } else if (was === false) log.info({ api_root: new URL(apiRoot).origin }, 'Bot API reachable again');
  };
  return async (prev, method, payload, signal) => {
    try {
      const res = await prev(method, payload, signal);
      set(true);
      return res;
    } catch (err) {
      if (err instanceof HttpError && !signal?.aborted) set(false, err);
      throw err;
    }
  };
}
