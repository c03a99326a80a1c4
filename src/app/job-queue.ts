import type { Db } from '../store/db.js';
import { dueJobs, earliestJob, getJob, retryJob, type JobRow } from '../store/jobs-repo.js';
import { reportWriteError } from '../store/storage-health.js';

/** A job as its scheduler and its use case see it (a row of the `jobs` table; ref = order id, webhook id …). */
export type Job = Pick<JobRow, 'jobId' | 'kind' | 'ref' | 'runAt' | 'attempts'>;

/**
 * What the job scheduler (src/workers/scheduler.ts) needs from the durable job table. The use cases
 * complete or move their own job in the transaction of the state they change; the scheduler only finds due
 * jobs, checks that a run moved its job, and backs off a run that threw.
 */
export interface JobQueue {
  /** Due jobs, oldest first, skipping the ones in `exclude` (running now). */
  due(now: number, exclude: number[], limit: number): Job[];
  /** The earliest run time of any job not in `exclude`, or null when there is none. */
  earliest(exclude: number[]): number | null;
  get(kind: string, ref: string): Job | undefined;
  retry(jobId: number, runAt: number, error: string): void;
  /** A run threw: a storage fault outside a transaction reaches the storage monitor too. */
  reportFault(e: unknown): void;
}

export function jobQueue(db: Db): JobQueue {
  return {
    due: (now, exclude, limit) => dueJobs(db, now, exclude, limit),
    earliest: (exclude) => earliestJob(db, exclude),
    get: (kind, ref) => getJob(db, kind, ref),
    retry: (jobId, runAt, error) => retryJob(db, jobId, runAt, error),
    reportFault: (e) => reportWriteError(db.$client, e),
  };
}

/**
 * What a use case run by a job may tell the scheduler: `rescheduled` when it moved its job on purpose,
 * possibly to the same instant (the next stage of an order runs at once on a frozen clock); `completed`
 * when it deleted its job in a transaction that committed. Either spares the scheduler its check (one read
 * of the job per run); without them a job left as it was is a fault: logged and retried with backoff.
 */
export type JobOutcome = 'rescheduled' | 'completed';
