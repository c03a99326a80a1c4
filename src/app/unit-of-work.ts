import { inTx, type Tx } from '../store/db.js';
import type { Deps } from './deps.js';

/**
 * One transaction plus what to do once it has committed (tell the bot, wake the scheduler). Nothing
 * after-commit runs if the transaction rolls back.
 */
export type AfterCommit = (fn: () => void) => void;

export function unitOfWork<T>(deps: Deps, fn: (tx: Tx, after: AfterCommit) => T): T {
  const pending: (() => void)[] = [];
  const result = inTx(deps.db, (tx) => fn(tx, (f) => pending.push(f)));
  for (const f of pending) {
    try {
      f();
    } catch (e) {
      deps.log.error({ err: e }, 'after-commit hook failed');
    }
  }
  return result;
}
