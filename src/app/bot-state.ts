import { sessionDelete, sessionRead, sessionWrite, setBotUsername } from '../store/bot-repo.js';
import type { Deps } from './deps.js';

/** What the bot keeps in the service database: session and conversation values (JSON text), its username. */

type StateDeps = Pick<Deps, 'db' | 'clock'>;

export function readBotSession(deps: StateDeps, key: string): string | undefined {
  return sessionRead(deps.db, key);
}

export function writeBotSession(deps: StateDeps, key: string, value: string): void {
  sessionWrite(deps.db, key, value, deps.clock.now());
}

export function deleteBotSession(deps: StateDeps, key: string): void {
  sessionDelete(deps.db, key);
}

/** The bot's @username, for invite links (src/app/invites.ts). */
export function rememberBotUsername(deps: StateDeps, username: string): void {
  setBotUsername(deps.db, username, deps.clock.now());
}
