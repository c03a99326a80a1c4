import type { Deps } from '../src/app/deps.js';
import { SqliteStorage } from './storage.js';

/**
 * The short number operators read for a deposit ("D-17") instead of its id (`dep_…`): given in the order
 * deposits are first shown in the bot (an alert, /deposits), and kept (kv `depno:<deposit id>`). Handled by
 * the bot's synchronous code only, so reading the counter and taking a number cannot interleave.
 */
const NEXT = '#next';
const store = (deps: Pick<Deps, 'db' | 'clock'>) => new SqliteStorage<number>(deps, 'depno:');

export function depositNumber(deps: Pick<Deps, 'db' | 'clock'>, depositId: string): string {
  const s = store(deps);
  const known = s.read(depositId);
  if (known !== undefined) return `D-${known}`;
  const n = s.read(NEXT) ?? 1;
  s.write(NEXT, n + 1);
  s.write(depositId, n);
  return `D-${n}`;
}

/** A deposit view with its short number, for the operators' cards and lists. */
export function numbered<D extends { deposit_id: string }>(deps: Pick<Deps, 'db' | 'clock'>, d: D): D & { number: string } {
  return { ...d, number: depositNumber(deps, d.deposit_id) };
}
