import type { ServiceClock } from '../kernel/clock.js';
import type { Job, JobOutcome, JobQueue } from '../app/job-queue.js';
import type { Logger } from '../kernel/log.js';
import { inSpan } from '../kernel/trace.js';
import { ORDER_JOB } from '../app/orders/jobs.js';

/**
 * A durable job scheduler on the service clock. Jobs live in the `jobs` table (one per kind and ref);
 * a handler does its work and, in the same transaction as the state it changes, completes or reschedules
 * its job (src/store/jobs-repo.ts; the scheduler reaches the table through src/app/job-queue.ts). A crash before that commit leaves the job due, so it runs again:
 * handlers are idempotent.
 *
 * `advance()` moves the sandbox clock forward in time order: it steps the clock to each due time in
 * turn and runs what falls due there, so retries scheduled by those runs land at the right moments.
 */
export type JobHandler = (job: Job) => Promise<void | JobOutcome>;
export type { JobOutcome };

export interface SchedulerOptions {
  concurrency: number;
  pollMs: number;
}

/** Backoff for a handler that threw: 5 s, 10 s, 20 s … capped at one hour. */
export function failureBackoffMs(attempts: number): number {
  return Math.min(3_600_000, 5_000 * 2 ** Math.min(attempts, 20));
}

export class Scheduler {
  private readonly running = new Map<number, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private advancing = false;
  private nudged = false;
  private stopped = false;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly opts: SchedulerOptions;

  constructor(
    private readonly queue: JobQueue,
    private readonly clock: ServiceClock,
    private readonly handlers: Record<string, JobHandler>,
    private readonly log: Logger,
    opts: Partial<SchedulerOptions> = {},
  ) {
    this.opts = { concurrency: 64, pollMs: 100, ...opts };
  }

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.tick(), this.opts.pollMs);
    this.timer.unref?.();
  }

  /** Run due jobs now rather than at the next poll (called after a commit that scheduled one). */
  nudge(): void {
    // One look per turn of the event loop however many commits asked for it (a burst of orders nudges once each).
    if (this.nudged || !this.timer || this.advancing || this.stopped) return;
    this.nudged = true;
    setImmediate(() => {
      this.nudged = false;
      this.tick();
    });
  }

  private tick(): void {
    if (this.advancing || this.stopped) return;
    try {
      this.launchDue();
    } catch (e) {
      this.log.error({ err: e }, 'scheduler tick failed');
    }
  }

  private launchDue(): number {
    const free = this.opts.concurrency - this.running.size;
    if (free <= 0) return 0;
    const due = this.queue.due(this.clock.now(), [...this.running.keys()], free);
    for (const job of due) {
      const p = this.runOne(job).finally(() => this.running.delete(job.jobId));
      this.running.set(job.jobId, p);
    }
    return due.length;
  }

  private async runOne(job: Job): Promise<void> {
    const handler = this.handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      // one span per run (src/kernel/trace.ts): an order's stages are its job's runs
      const said = await inSpan(`job ${job.kind}`, { 'job.kind': job.kind, 'job.attempt': job.attempts + 1, [job.kind === ORDER_JOB ? 'order.id' : 'job.ref']: job.ref }, () => handler(job));
      // Safety net: a handler must complete or move its job; one that did neither would spin. A handler that
      // says it did (its transaction committed) is taken at its word: one read less per run.
      const after = said === 'rescheduled' || said === 'completed' ? undefined : this.queue.get(job.kind, job.ref);
      if (after && after.jobId === job.jobId && after.runAt === job.runAt && after.attempts === job.attempts) {
        throw new Error(`handler for ${job.kind} left its job unchanged`);
      }
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.queue.reportFault(e); // a storage fault outside a transaction reaches the monitor too
      this.log.warn({ job: { kind: job.kind, ref: job.ref, attempts: job.attempts }, err: msg }, 'job failed; will retry');
      try {
        this.queue.retry(job.jobId, this.clock.now() + failureBackoffMs(job.attempts), msg);
      } catch (e2) {
        this.log.error({ err: e2 }, 'could not reschedule job');
      }
    }
  }

  /** Runs everything due now until nothing due is left and nothing runs. */
  async settle(): Promise<void> {
    for (let round = 0; round < 100_000; round++) {
      const launched = this.launchDue();
      if (this.running.size === 0 && launched === 0) return;
      await Promise.race(this.running.values());
      // Jobs whose writes share one group commit (src/store/group-commit.ts) finish together: let them all
      // finish before looking for due jobs again, one query per batch rather than one per job.
      await new Promise((r) => setImmediate(r));
    }
  }

  /** Moves the clock forward by `ms`, running what falls due in time order. Serialised. */
  advance(ms: number): Promise<number> {
    const run = async () => {
      this.advancing = true;
      try {
        const target = this.clock.now() + ms;
        await this.settle();
        for (;;) {
          const next = this.queue.earliest([]);
          if (next === null || next > target) break;
          this.clock.moveTo(next);
          await this.settle();
        }
        this.clock.moveTo(target);
        await this.settle();
        return this.clock.now();
      } finally {
        this.advancing = false;
      }
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => undefined);
    return p;
  }

  /** Stops polling and waits for the jobs under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running.values()]);
  }
}
