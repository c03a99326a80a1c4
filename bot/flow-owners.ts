import type { Deps } from '../src/app/deps.js';
import { pruneBotSessions } from '../src/app/bot-state.js';
import { SqliteStorage } from './storage.js';

/**
 * Whose conversation a button belongs to (kv `flow:<nonce>`, written when the conversation starts): a press by
 * someone else (a colleague in an operators' group, a teammate in a team group) is told whose flow it is, and
 * the person's own press after they were removed from the team is told that, not the text for strangers.
 */
export interface FlowOwner {
  userId: number;
  /** As Telegram names the person. */
  name: string;
  /** The partner the conversation began for (null: an operator's flow). */
  partnerId: number | null;
  /** The command that starts it (what it is called in words). */
  resume: string;
}

/** Records are kept this long after the conversation began (a conversation itself ends after 30 min idle). */
export const FLOW_OWNER_TTL_MS = 7 * 24 * 3600_000;

const store = (deps: Pick<Deps, 'db' | 'clock'>) => new SqliteStorage<FlowOwner>(deps, 'flow:');

export function rememberFlowOwner(deps: Pick<Deps, 'db' | 'clock'>, nonce: string, owner: FlowOwner): void {
  store(deps).write(nonce, owner);
}

export function flowOwnerOf(deps: Pick<Deps, 'db' | 'clock'>, nonce: string): FlowOwner | undefined {
  return store(deps).read(nonce);
}

export function pruneFlowOwners(deps: Pick<Deps, 'db' | 'clock'>): void {
  pruneBotSessions(deps, 'flow:', FLOW_OWNER_TTL_MS);
}
