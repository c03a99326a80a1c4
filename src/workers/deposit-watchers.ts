import type { Deps } from '../app/deps.js';
import { pollDeposits, scheduleWatcherJobs, WATCHER_JOB } from '../app/deposit-watch.js';
import type { DepositNetwork } from '../domain/chain-address.js';
import type { JobHandler } from './scheduler.js';
import type { ChainWatcher } from '../suppliers/types.js';

/** What setupWatchers uses of the service. */
export type SetupWatchersDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'bus'>;

/**
 * The poll jobs of the watchers that run (the composition root builds them: src/suppliers/chains/watchers.ts;
 * src/app/deposit-watch.ts schedules the jobs and runs each poll) and their handler: the watcher of the
 * job's network, or none when it is no longer watched.
 */
export function setupWatchers(deps: SetupWatchersDeps, watchers: readonly ChainWatcher[]): { handlers: Record<string, JobHandler> } {
  const byNetwork = new Map<string, ChainWatcher>(watchers.map((w) => [w.network, w]));
  scheduleWatcherJobs(deps, new Set(byNetwork.keys()) as Set<DepositNetwork>);
  if (byNetwork.size) deps.log.info({ networks: [...byNetwork.keys()] }, 'chain watchers on');
  return { handlers: { [WATCHER_JOB]: (job) => pollDeposits(deps, byNetwork.get(job.ref), job) } };
}
