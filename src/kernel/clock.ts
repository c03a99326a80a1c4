/**
 * The one time source of the service. `now()` is real time plus an offset that the sandbox can move
 * forward (POST /sandbox/clock/advance); the offset is persisted so the service clock survives a restart.
 * Nothing else in the service reads Date.now().
 */
export interface Clock {
  now(): number;
}

export class ServiceClock implements Clock {
  private offsetMs: number;
  private lastNow = 0;
  private readonly moveListeners = new Set<(now: number) => void>();

  constructor(
    private readonly realNow: () => number = Date.now,
    offsetMs = 0,
    private readonly persist: (offsetMs: number) => void = () => {},
  ) {
    this.offsetMs = offsetMs;
  }

  /** Monotonic: never returns less than it returned before. */
  now(): number {
    const t = this.realNow() + this.offsetMs;
    if (t > this.lastNow) this.lastNow = t;
    return this.lastNow;
  }

  /** Moves the clock forward to `t` (never backwards). */
  moveTo(t: number): void {
    const current = this.now();
    if (t <= current) return;
    this.offsetMs += t - current;
    this.persist(this.offsetMs);
    const now = this.now();
    for (const fn of this.moveListeners) fn(now);
  }

  /**
   * Calls `fn` after every move forward. For what waits in memory on the service clock (GET /orders/{id}?wait):
   * real timers cover the passing of real time, this covers the sandbox's jumps. Returns the unsubscribe.
   */
  onMove(fn: (now: number) => void): () => void {
    this.moveListeners.add(fn);
    return () => this.moveListeners.delete(fn);
  }

  get offset(): number {
    return this.offsetMs;
  }
}

