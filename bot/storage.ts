import type { StorageAdapter } from 'grammy';
import type { Deps } from '../src/app/deps.js';
import { deleteBotSession, readBotSession, writeBotSession } from '../src/app/bot-state.js';

/**
 * A grammY storage adapter over the service database (`bot_sessions`), used for sessions and for
 * conversation state (`conversations({ storage })`), so a restart loses no conversation. Values are JSON.
 * Each instance works under its own key prefix.
 */
export class SqliteStorage<T> implements StorageAdapter<T> {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'clock'>,
    private readonly prefix: string,
  ) {}

  read(key: string): T | undefined {
    const raw = readBotSession(this.deps, this.prefix + key);
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      // A damaged row must not wedge the chat: treat it as no state.
      return undefined;
    }
  }

  write(key: string, value: T): void {
    writeBotSession(this.deps, this.prefix + key, JSON.stringify(value));
  }

  delete(key: string): void {
    deleteBotSession(this.deps, this.prefix + key);
  }
}
