import type { Deps } from '../src/app/deps.js';
import { SqliteStorage } from './storage.js';

/**
 * Where an order placed in the bot was accepted (kv `order-msg:<order id>`): the chat and the message that
 * became "accepted". Its outcome is told there, as a reply to that message, so an order placed in a team
 * group is reported in that group (bot/features/notifications.ts); the record goes once the outcome is told.
 */
export interface OrderMessage {
  chatId: number;
  messageId: number;
  /** Placed in a group (or supergroup), not a private chat. */
  group: boolean;
  /** The language of the person who placed it (a group has none of its own). */
  language: 'en' | 'ru';
}

const store = (deps: Pick<Deps, 'db' | 'clock'>) => new SqliteStorage<OrderMessage>(deps, 'order-msg:');

export function rememberOrderMessage(deps: Pick<Deps, 'db' | 'clock'>, orderId: string, m: OrderMessage): void {
  store(deps).write(orderId, m);
}

export function orderMessageOf(deps: Pick<Deps, 'db' | 'clock'>, orderId: string): OrderMessage | undefined {
  return store(deps).read(orderId);
}

export function forgetOrderMessage(deps: Pick<Deps, 'db' | 'clock'>, orderId: string): void {
  store(deps).delete(orderId);
}
