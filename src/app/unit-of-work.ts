import { ApiError } from '../domain/errors.js';
import { inTx, type Tx } from '../store/db.js';
import { classifyStorageError } from '../store/storage-health.js';
import type { Deps } from './deps.js';

/**
 * One transaction plus what to do once it has committed (tell the bot, wake the scheduler). Nothing
 * after-commit runs if the transaction rolls back.
 */
export type AfterCommit = (fn: () => void) => void;

export function unitOfWork<T>(deps: Pick<Deps, 'db' | 'log'>, fn: (tx: Tx, after: AfterCommit) => T): T {
  const pending: (() => void)[] = [];
  const result = inTx(deps.db, (tx) => fn(tx, (f) => pending.push(f)));
  runHooks(deps, pending);
  return result;
}

/**
 * The same unit of work, committed together with the others queued in this turn of the event loop
 * (src/store/group-commit.ts): used on the hot paths (order creation, delivery outcomes, webhook attempts).
 * All-or-nothing for this unit as before; resolves after the shared COMMIT. `background` marks work no
 * request waits on (it yields to requests).
 */
export async function unitOfWorkGrouped<T>(deps: Pick<Deps, 'log' | 'commits'>, fn: (tx: Tx, after: AfterCommit) => T, opts: { background?: boolean } = {}): Promise<T> {
  const pending: (() => void)[] = [];
  const result = await deps.commits.run((tx) => fn(tx, (f) => pending.push(f)), opts);
  runHooks(deps, pending);
  return result;
}

function runHooks(deps: Pick<Deps, 'log'>, hooks: (() => void)[]): void {
  for (const f of hooks) {
    try {
      f();
    } catch (e) {
      deps.log.error({ err: e }, 'after-commit hook failed');
    }
  }
}

/** Seconds a client is asked to wait after 503 storage_unavailable. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * A write the storage could not take (disk full, I/O error, read-only, busy: src/store/storage-health.ts)
 * fails its whole unit of work; whoever asked gets 503 `storage_unavailable` with its reason and a
 * Retry-After. null for any other error.
 */
export function storageUnavailable(err: unknown): ApiError | null {
  const fault = classifyStorageError(err);
  return fault ? new ApiError('storage_unavailable', undefined, { reason: fault }, { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) }) : null;
}
