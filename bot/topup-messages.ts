import type { Deps } from '../src/app/deps.js';
import { botSessionKeys } from '../src/app/bot-state.js';
import { SqliteStorage } from './storage.js';

/**
 * What the bot remembers of a top-up request (kv `topup-req:<request id>`): the network the owner chose for
 * it (a request itself takes its asset on any configured network; the bot shows the one chosen), and the
 * messages that show it, so that they read "paid ✅" when its transfer is credited and "canceled" when it is
 * canceled. A request made in the dashboard or over the operator API has no record until it is shown here.
 */
export interface ShownIn {
  chatId: number;
  messageId: number;
  language: 'en' | 'ru';
}

export interface RequestRecord {
  /** The network chosen in the bot (null: made elsewhere, every address is shown). */
  network: string | null;
  /** Whose request it is (to read it again when it ends without an event: expired, canceled elsewhere). */
  partnerId?: number;
  messages: ShownIn[];
}

/** At most this many messages are remembered per request (the newest). */
const MAX_MESSAGES = 10;

const store = (deps: Pick<Deps, 'db' | 'clock'>) => new SqliteStorage<RequestRecord>(deps, 'topup-req:');

export function requestRecord(deps: Pick<Deps, 'db' | 'clock'>, requestId: string): RequestRecord {
  return store(deps).read(requestId) ?? { network: null, messages: [] };
}

/** Remembers a message showing the partner's request (and the network chosen for it, when given). */
export function rememberRequestMessage(deps: Pick<Deps, 'db' | 'clock'>, partnerId: number, requestId: string, m: ShownIn, network?: string): void {
  const r = requestRecord(deps, requestId);
  const messages = [...r.messages.filter((x) => !(x.chatId === m.chatId && x.messageId === m.messageId)), m].slice(-MAX_MESSAGES);
  store(deps).write(requestId, { network: network ?? r.network, partnerId, messages });
}

/** The requests with messages remembered (at most `limit`). */
export function rememberedRequests(deps: Pick<Deps, 'db' | 'clock'>, limit = 1000): string[] {
  return botSessionKeys(deps, 'topup-req:', limit);
}

/** A message that showed the request shows something else now (the list again): it is not edited for it. */
export function forgetRequestMessage(deps: Pick<Deps, 'db' | 'clock'>, requestId: string, m: { chatId: number; messageId: number }): void {
  const r = store(deps).read(requestId);
  if (!r) return;
  store(deps).write(requestId, { ...r, messages: r.messages.filter((x) => !(x.chatId === m.chatId && x.messageId === m.messageId)) });
}

/** The messages of a request that ended (paid or canceled), forgotten once they are edited to say so. */
export function takeRequestMessages(deps: Pick<Deps, 'db' | 'clock'>, requestId: string): RequestRecord {
  const r = requestRecord(deps, requestId);
  store(deps).delete(requestId);
  return r;
}
