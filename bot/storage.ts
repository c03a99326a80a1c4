import type { StorageAdapter } from 'grammy';
import type { Deps } from '../src/app/deps.js';
import { sessionDelete, sessionRead, sessionWrite } from '../src/store/bot-repo.js';

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
    const raw = sessionRead(this.deps.db, this.prefix + key);
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      // A damaged row must not wedge the chat: treat it as no state.
      return undefined;
    }
  }

  write(key: string, value: T): void {
    sessionWrite(this.deps.db, this.prefix + key, JSON.stringify(value), this.deps.clock.now());
  }

  delete(key: string): void {
    sessionDelete(this.deps.db, this.prefix + key);
  }
}
