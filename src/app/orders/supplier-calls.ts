/**
 * The supplier calls under way in this process, by order id: a support cancellation waits for the call of
 * its order to end (and its outcome to commit) before it decides, so an order is never both delivered and
 * refunded. In memory on purpose: after a restart no call is under way, and the outcome of an interrupted
 * call is asked again by the order's job, which the cancellation deletes in its own transaction.
 */
export class SupplierCalls {
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    /** The longest a cancellation waits for a call (real time): short, so an operator is never left hanging. */
    public waitMs = 10_000,
  ) {}

  /** Registers the run of an order's supplier call (the call and the commit of its outcome). */
  track<T>(orderId: string, run: Promise<T>): Promise<T> {
    const done = run.finally(() => {
      if (this.running.get(orderId) === done) this.running.delete(orderId);
    });
    this.running.set(orderId, done);
    return done;
  }

  busy(orderId: string): boolean {
    return this.running.has(orderId);
  }

  /**
   * Resolves true once no call for the order is under way (checked again after each one ends: a new run
   * may have started meanwhile), false when `waitMs` passed first. The caller then decides synchronously,
   * so no call can start between this answer and its transaction.
   */
  async idle(orderId: string): Promise<boolean> {
    if (!this.running.has(orderId)) return true;
    // A timer, not the service clock: the wait is for a network call in real time.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.waitMs)));
    try {
      for (let p = this.running.get(orderId); p; p = this.running.get(orderId)) {
        const r = await Promise.race([p.then(() => 'ended', () => 'ended'), timeout]);
        if (r === 'timeout') return !this.running.has(orderId);
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }
}
