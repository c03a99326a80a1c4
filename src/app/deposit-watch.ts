import { DEPOSIT_NETWORKS, type DepositNetwork } from '../domain/chain-address.js';
import { inTx } from '../store/db.js';
import { getWatcherPosition, setWatcherPosition } from '../store/deposits-repo.js';
import { completeJob, deleteJob, getJob, retryJob, scheduleJob } from '../store/jobs-repo.js';
import type { ChainWatcher } from '../suppliers/types.js';
import { recordDepositInTx } from './deposits/record.js';
import type { Deps } from './deps.js';
import type { Job } from './job-queue.js';
import { unitOfWork } from './unit-of-work.js';

/**
 * The chain watchers as durable jobs on the service clock: one `watcher.poll` job per network, every
 * WATCHER_POLL_SECONDS. A poll reads from the stored position, and records the transfers it got, the new
 * position and the next run in ONE transaction, through the same record-and-match service as the sandbox
 * route. When the API fails nothing is recorded and the job runs again after an exponential backoff
 * (2, 4, 8 … poll intervals, at most 30 minutes).
 */

export const WATCHER_JOB = 'watcher.poll';
const MAX_BACKOFF_MS = 30 * 60_000;

/** Delay after the (attempts+1)-th failure in a row: 2, 4, 8 … poll intervals, at most 30 minutes. */
export function watcherBackoffMs(pollMs: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, pollMs * 2 ** Math.min(attempts + 1, 20));
}

/**
 * Schedules the poll job of every watched network (keeping an existing job's time, so a restart resumes
 * where it was) and removes the jobs of networks no longer watched.
 */
export function scheduleWatcherJobs(deps: Pick<Deps, 'db' | 'clock'>, watched: ReadonlySet<DepositNetwork>): void {
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    for (const n of DEPOSIT_NETWORKS) {
      if (!watched.has(n)) deleteJob(tx, WATCHER_JOB, n);
      else if (!getJob(tx, WATCHER_JOB, n)) scheduleJob(tx, WATCHER_JOB, n, now, now);
    }
  });
}

/** What pollDeposits uses of the service. */
export type PollDepositsDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'bus'>;

/** One `watcher.poll` run (ref = network): `watcher` is that network's, undefined when it is no longer watched. */
export async function pollDeposits(deps: PollDepositsDeps, watcher: ChainWatcher | undefined, job: Job): Promise<void> {
  if (!watcher) {
    completeJob(deps.db, job.jobId);
    return;
  }
  const pollMs = deps.config.WATCHER_POLL_SECONDS * 1000;
  const position = getWatcherPosition(deps.db, watcher.network);
  let result: Awaited<ReturnType<ChainWatcher['poll']>>;
  try {
    result = await watcher.poll(position);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const delay = watcherBackoffMs(pollMs, job.attempts);
    deps.log.warn({ network: watcher.network, attempts: job.attempts + 1, retry_in_s: delay / 1000, err: msg }, 'chain watcher poll failed');
    retryJob(deps.db, job.jobId, deps.clock.now() + delay, msg);
    return;
  }
  unitOfWork(deps, (tx, after) => {
    const t = deps.clock.now();
    for (const transfer of result.transfers) recordDepositInTx(tx, deps, transfer, 'watcher', after);
    setWatcherPosition(tx, watcher.network, result.position, t);
    scheduleJob(tx, WATCHER_JOB, watcher.network, t + pollMs, t);
  });
}
