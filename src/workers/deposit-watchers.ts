import type { Config } from '../config.js';
import type { Deps } from '../app/deps.js';
import { recordDepositInTx } from '../app/deposits.js';
import { explicitDepositAddresses } from '../app/topup-requests.js';
import { unitOfWork } from '../app/unit-of-work.js';
import { DEPOSIT_NETWORKS } from '../domain/chain-address.js';
import { inTx } from '../store/db.js';
import { getWatcherPosition, setWatcherPosition } from '../store/deposits-repo.js';
import { completeJob, deleteJob, getJob, retryJob, scheduleJob, type JobRow } from '../store/jobs-repo.js';
import type { JobHandler } from './scheduler.js';
import { BscWatcher } from '../suppliers/chains/bsc-rpc.js';
import { TonWatcher } from '../suppliers/chains/toncenter.js';
import { TronWatcher } from '../suppliers/chains/trongrid.js';
import type { ChainWatcher } from '../suppliers/chains/chain-watcher.js';

/**
 * The chain watchers as durable jobs on the service clock: one `watcher.poll` job per network, every
 * WATCHER_POLL_SECONDS. A poll reads from the stored position, and records the transfers it got, the new
 * position and the next run in ONE transaction, through the same record-and-match service as the sandbox
 * route. When the API fails nothing is recorded and the job runs again after an exponential backoff
 * (2, 4, 8 … poll intervals, at most 30 minutes).
 */

export const WATCHER_JOB = 'watcher.poll';
const MAX_BACKOFF_MS = 30 * 60_000;

export type WatcherConfig = Pick<
  Config,
  | 'UPSTREAM'
  | 'WATCHERS'
  | 'WATCHER_POLL_SECONDS'
  | 'DEPOSIT_ADDRESS_USDT_TON'
  | 'DEPOSIT_ADDRESS_USDT_TRC20'
  | 'DEPOSIT_ADDRESS_USDT_BEP20'
  | 'DEPOSIT_ADDRESS_TON'
  | 'TON_API_URL'
  | 'TON_API_KEY'
  | 'TRON_API_URL'
  | 'TRON_API_KEY'
  | 'BSC_RPC_URL'
  | 'USDT_TON_JETTON'
  | 'USDT_TRC20_CONTRACT'
  | 'USDT_BEP20_CONTRACT'
  | 'TON_CONFIRMATIONS'
  | 'TRON_CONFIRMATIONS'
  | 'BSC_CONFIRMATIONS'
  | 'BSC_LOG_RANGE'
>;

/** WATCHERS=1/0 decides; unset: on outside sandbox mode, or when a deposit address is set explicitly. */
export function watchersEnabled(c: WatcherConfig): boolean {
  if (c.WATCHERS !== undefined) return c.WATCHERS;
  return c.UPSTREAM !== 'sandbox' || explicitDepositAddresses(c).length > 0;
}

/** One watcher per network that has an explicitly configured address (sandbox demo addresses are never watched). */
export function buildWatchers(c: WatcherConfig): ChainWatcher[] {
  const addrs = explicitDepositAddresses(c);
  const out: ChainWatcher[] = [];
  const ton = addrs.filter((a) => a.network === 'ton').map((a) => a.address);
  if (ton.length)
    out.push(new TonWatcher({ apiUrl: c.TON_API_URL, apiKey: c.TON_API_KEY, jettonMaster: c.USDT_TON_JETTON, addresses: ton, confirmations: c.TON_CONFIRMATIONS }));
  const trc = addrs.find((a) => a.network === 'trc20');
  if (trc)
    out.push(new TronWatcher({ apiUrl: c.TRON_API_URL, apiKey: c.TRON_API_KEY, contract: c.USDT_TRC20_CONTRACT, address: trc.address, confirmations: c.TRON_CONFIRMATIONS }));
  const bsc = addrs.find((a) => a.network === 'bep20');
  if (bsc)
    out.push(new BscWatcher({ rpcUrl: c.BSC_RPC_URL, contract: c.USDT_BEP20_CONTRACT, address: bsc.address, confirmations: c.BSC_CONFIRMATIONS, range: c.BSC_LOG_RANGE }));
  return out;
}

/** Delay after the (attempts+1)-th failure in a row: 2, 4, 8 … poll intervals, at most 30 minutes. */
export function watcherBackoffMs(pollMs: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, pollMs * 2 ** Math.min(attempts + 1, 20));
}

/**
 * Schedules the poll job of every enabled network (keeping an existing job's time, so a restart resumes
 * where it was) and removes the jobs of networks no longer watched. Returns the job handler.
 */
export function setupWatchers(deps: Deps, watchers: ChainWatcher[] = buildWatchers(deps.config)): { handlers: Record<string, JobHandler> } {
  const enabled = watchersEnabled(deps.config);
  const byNetwork = new Map<string, ChainWatcher>(enabled ? watchers.map((w) => [w.network, w]) : []);
  const pollMs = deps.config.WATCHER_POLL_SECONDS * 1000;
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    for (const n of DEPOSIT_NETWORKS) {
      if (!byNetwork.has(n)) deleteJob(tx, WATCHER_JOB, n);
      else if (!getJob(tx, WATCHER_JOB, n)) scheduleJob(tx, WATCHER_JOB, n, now, now);
    }
  });
  if (byNetwork.size) deps.log.info({ networks: [...byNetwork.keys()] }, 'chain watchers on');

  const handler = async (job: JobRow): Promise<void> => {
    const w = byNetwork.get(job.ref);
    if (!w) {
      completeJob(deps.db, job.jobId);
      return;
    }
    const position = getWatcherPosition(deps.db, w.network);
    let result: Awaited<ReturnType<ChainWatcher['poll']>>;
    try {
      result = await w.poll(position);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const delay = watcherBackoffMs(pollMs, job.attempts);
      deps.log.warn({ network: w.network, attempts: job.attempts + 1, retry_in_s: delay / 1000, err: msg }, 'chain watcher poll failed');
      retryJob(deps.db, job.jobId, deps.clock.now() + delay, msg);
      return;
    }
    unitOfWork(deps, (tx, after) => {
      const t = deps.clock.now();
      for (const transfer of result.transfers) recordDepositInTx(tx, deps, transfer, 'watcher', after);
      setWatcherPosition(tx, w.network, result.position, t);
      scheduleJob(tx, WATCHER_JOB, w.network, t + pollMs, t);
    });
  };
  return { handlers: { [WATCHER_JOB]: handler } };
}
