import { inTx, type Db, type Tx } from './db.js';

interface Unit {
  fn: (tx: Tx) => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: the units of work queued during one turn of the event loop run in one SQLite transaction,
 * each in its own savepoint, and every caller hears back only after the shared COMMIT.
 *
 * Why: the profile of the order path showed the COMMIT (writing each dirty page of every b-tree an order
 * touches to the WAL) as the largest single cost; orders committed together share those pages. Each unit
 * stays atomic on its own: a unit that throws is rolled back to its savepoint and only its caller gets the
 * error; the others commit. A caller is answered after the COMMIT, so an answer never announces what a
 * crash could still undo. Hand-written because it is a few lines around better-sqlite3's savepoints and no
 * library offers it for a synchronous driver.
 *
 * Requests go first: background units (work nobody waits on: delivery outcomes, webhook attempt results)
 * take at most max(16, requests in the batch) places in a transaction (32 when no request waits), so a request never waits behind a
 * burst of them, while under a steady load of new orders the deliveries still keep pace (one each).
 */
export class GroupCommit {
  private queue: Unit[] = [];
  /** Work nobody waits on (delivery outcomes, webhook attempts): a few per transaction, behind requests. */
  private background: Unit[] = [];
  private scheduled = false;
  /** Transactions run so far: a caller can tell whether anything was committed since it last looked. */
  commits = 0;

  constructor(
    private readonly db: Db,
    /** The most units one transaction takes; the rest go in the next one. */
    private readonly maxUnits = 256,
    /** The most background units one transaction takes, so that a request never waits behind many. */
    private readonly maxBackground = 16,
  ) {}

  run<T>(fn: (tx: Tx) => T, opts: { background?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (opts.background ? this.background : this.queue).push({ fn, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.maxUnits);
    // at least as many background units as requests, so that deliveries keep pace with new orders; with no
    // request waiting, twice maxBackground (a fan-out of outcomes and webhooks shares fewer commits, and a
    // request arriving meanwhile waits behind no more than a batch of requests would)
    const requests = batch.length;
    batch.push(...this.background.splice(0, requests === 0 ? 2 * this.maxBackground : Math.max(this.maxBackground, requests)));
    if (this.queue.length || this.background.length) this.schedule();
    this.commits++;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    const client = this.db.$client;
    try {
      inTx(this.db, (tx) => {
        for (const unit of batch) {
          try {
            outcomes.push({ ok: true, value: inTx(this.db, () => unit.fn(tx)) });
          } catch (e) {
            // Some SQLite errors (disk full, I/O) roll back the whole transaction: then nothing of the
            // batch is written, and every caller must hear so.
            if (!client.inTransaction) throw e;
            outcomes.push({ ok: false, value: e });
          }
        }
      });
    } catch (e) {
      for (const unit of batch) unit.reject(e);
      return;
    }
    batch.forEach((unit, i) => (outcomes[i].ok ? unit.resolve(outcomes[i].value) : unit.reject(outcomes[i].value)));
  }
}
