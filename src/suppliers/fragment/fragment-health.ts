import type { Clock } from '../../kernel/clock.js';
import type { EventBus } from '../../kernel/event-bus.js';
import type { Logger } from '../../kernel/log.js';
import { SupplierDown } from '../types.js';
import { FragmentBusy, FragmentDown, type FragmentProblem } from './fragment-api.js';

/** How long new orders are told to wait while Fragment or the wallet is down. */
export const DOWN_RETRY_SEC = 60;

export type AlertExtra = { balance_ton?: string; need_ton?: string };

/**
 * Fragment's health as the adapter last saw it (session expired, KYC, unreachable) and the operators'
 * alerts: one alert per episode, cleared by the next call that works.
 */
export class FragmentHealth {
  problem: { kind: FragmentProblem; detail: string; since: number } | null = null;

  constructor(private readonly deps: { clock: Clock; log: Logger; bus: EventBus }) {}

  alert(problem: string, detail: string, extra: AlertExtra = {}): void {
    this.deps.log.warn({ problem, detail, ...extra }, 'fragment supplier alert');
    this.deps.bus.emit('alert', { kind: 'supplier', supplier: 'fragment', problem, detail, ...extra });
  }

  markProblem(e: FragmentDown): void {
    if (this.problem?.kind !== e.problem) this.alert(e.problem, e.message);
    this.problem = { kind: e.problem, detail: e.message, since: this.problem?.since ?? this.deps.clock.now() };
  }

  /**
   * A Fragment call succeeded. Any success shows the session works and Fragment answers; only a transaction
   * link handed out shows that KYC no longer blocks payments (Fragment asks for it at that step alone).
   */
  cleared(by: 'call' | 'link'): void {
    if (!this.problem || (this.problem.kind === 'need_verify' && by !== 'link')) return;
    this.deps.log.info({ problem: this.problem.kind }, 'fragment back up');
    this.problem = null;
  }

  /**
   * Runs a Fragment call; a FragmentDown marks the problem and becomes SupplierDown (wait, retry). Fragment
   * asking to slow down (429) is no outage: no alert, only the wait it asked for.
   */
  async call<T>(fn: () => Promise<T>, by: 'call' | 'link' = 'call'): Promise<T> {
    try {
      const r = await fn();
      this.cleared(by);
      return r;
    } catch (e) {
      if (e instanceof FragmentBusy) throw new SupplierDown(e.retryAfterSec, e.message);
      if (e instanceof FragmentDown) {
        this.markProblem(e);
        throw new SupplierDown(DOWN_RETRY_SEC, e.message);
      }
      throw e;
    }
  }
}
