import type { ServiceClock } from '../../kernel/clock.js';
import { fail } from '../../domain/errors.js';
import type { EventBus, OrderOutcome } from '../../kernel/event-bus.js';
import { WAIT_MAX_SECONDS } from '../requests/queries.js';

interface Waiter {
  keyId: string;
  orderId: string;
  /** Service-clock milliseconds. */
  deadline: number;
  isDone: () => boolean;
  timer?: NodeJS.Timeout;
  finish: () => void;
}

/**
 * Requests waiting for an order's outcome (GET /orders/{order_id}?wait=N), held in memory: a restart
 * drops them, which is acceptable because webhooks stay the reliable channel and a client simply asks again.
 *
 * A wait ends at the first of: an outcome event of its order on the event bus (raised after the commit),
 * its deadline on the service clock (a real timer while real time passes; the clock's move notification
 * when the sandbox advances it), the client going away, or close(). No polling of the database.
 */
export class OrderWaits {
  private readonly all = new Set<Waiter>();
  private readonly byOrder = new Map<string, Set<Waiter>>();
  private readonly byKey = new Map<string, Set<Waiter>>();
  private closed = false;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly clock: ServiceClock,
    bus: EventBus,
    /** ORDER_WAIT_MAX_PER_KEY */
    readonly maxPerKey: number,
  ) {
    const onOrder = (e: OrderOutcome) => this.orderChanged(e.orderId);
    bus.on('order', onOrder);
    this.unsubscribe = [() => bus.off('order', onOrder), clock.onMove((now) => this.clockMoved(now))];
  }

  /**
   * Waits up to `seconds` of service clock for `isDone()` to hold after an outcome event of the order.
   * Throws 429 rate_limited (scope `wait`) when the key already has `maxPerKey` waits open.
   */
  wait(keyId: string, orderId: string, seconds: number, isDone: () => boolean, signal?: AbortSignal): Promise<void> {
    if (this.closed || signal?.aborted) return Promise.resolve();
    const mine = this.byKey.get(keyId);
    if (mine && mine.size >= this.maxPerKey) this.refuse(mine);
    return new Promise<void>((resolve) => {
      let done = false;
      const onAbort = () => w.finish();
      const w: Waiter = {
        keyId,
        orderId,
        deadline: this.clock.now() + seconds * 1000,
        isDone,
        finish: () => {
          if (done) return;
          done = true;
          if (w.timer) clearTimeout(w.timer);
          signal?.removeEventListener('abort', onAbort);
          this.remove(w);
          resolve();
        },
      };
      this.add(w);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.arm(w);
    });
  }

  /** Open waits of a key (the per-key limit counts these). */
  waiting(keyId: string): number {
    return this.byKey.get(keyId)?.size ?? 0;
  }

  /** Answers every open wait now and any later one at once (shutdown: a wait must not hold the server open). */
  close(): void {
    this.closed = true;
    for (const w of [...this.all]) w.finish();
    for (const u of this.unsubscribe) u();
  }

  private refuse(mine: Set<Waiter>): never {
    const soonest = Math.min(...[...mine].map((w) => w.deadline));
    const retryAfter = Math.max(1, Math.ceil((soonest - this.clock.now()) / 1000));
    fail(
      'rate_limited',
      `At most ${this.maxPerKey} requests of a key may wait at once. Retry in ${retryAfter} s.`,
      { scope: 'wait', limit: this.maxPerKey, window_seconds: WAIT_MAX_SECONDS, retry_after: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }

  /** A real timer for the time left on the service clock; re-armed when the clock says it is not yet due (real time frozen in tests). */
  private arm(w: Waiter): void {
    const left = w.deadline - this.clock.now();
    if (left <= 0) return w.finish();
    w.timer = setTimeout(() => this.arm(w), left);
    w.timer.unref();
  }

  private clockMoved(now: number): void {
    for (const w of [...this.all]) if (now >= w.deadline) w.finish();
  }

  private orderChanged(orderId: string): void {
    const ws = this.byOrder.get(orderId);
    if (!ws) return;
    for (const w of [...ws]) {
      let done = true;
      try {
        done = w.isDone();
      } catch {
        // a failed read ends the wait: the handler reads again and answers with whatever that gives
      }
      if (done) w.finish();
    }
  }

  private add(w: Waiter): void {
    this.all.add(w);
    for (const [map, k] of [[this.byOrder, w.orderId], [this.byKey, w.keyId]] as const) {
      let set = map.get(k);
      if (!set) map.set(k, (set = new Set()));
      set.add(w);
    }
  }

  private remove(w: Waiter): void {
    this.all.delete(w);
    for (const [map, k] of [[this.byOrder, w.orderId], [this.byKey, w.keyId]] as const) {
      const set = map.get(k);
      set?.delete(w);
      if (set?.size === 0) map.delete(k);
    }
  }
}
