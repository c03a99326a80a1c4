import { describe, expect, it } from 'vitest';
import { report, simulate, SIM_ACTIONS } from '../../sim/simulate.js';

/**
 * The seeded simulation of the money system (docs/simulation.md) on a fixed small budget: histories of
 * orders, supplier outcomes, top-ups, support actions, crashes and clock jumps against the real service,
 * every invariant checked after every step. `npm run simulate` runs longer budgets. The simulation must be
 * able to fail: with a deliberate bug (sim/mutants.ts) it reports the violation and its shortest history.
 */
describe('the simulation of the money system', () => {
  it('runs a fixed budget of seeded histories with every invariant holding after every step', async () => {
    const r = await simulate({ seed: 20261127, runs: 4, maxCommands: 40, actions: SIM_ACTIONS, shrinkMs: 20_000 });
    expect(r.failures.map(report)).toEqual([]);
    expect(r.runs).toBe(4);
    expect(r.steps).toBeGreaterThan(20);
  }, 180_000);

  it('fails when the service refunds an order in review by itself, and shrinks the history that shows it', async () => {
    const r = await simulate({ seed: 303, runs: 1, maxCommands: 40, actions: SIM_ACTIONS, mutant: 'refund_in_review', shrinkMs: 30_000 });
    expect(r.violations).toBe(1);
    const f = r.failures[0];
    expect(f.seed).toBe(303);
    expect(f.problems.join('\n')).toMatch(/refunded without an operator although the supplier (sent|took)/);
    expect(f.history.length).toBeGreaterThan(0);
    expect(f.history.length).toBeLessThanOrEqual(f.firstSteps);
    expect(report(f)).toMatch(/^VIOLATION in run 0 \(seed 303\); replay: npm run simulate -- --seed 303 --runs 1$/m);
  }, 180_000);

  it('fails when a webhook of a finished order vanishes', async () => {
    const r = await simulate({ seed: 304, runs: 1, maxCommands: 40, actions: SIM_ACTIONS, mutant: 'lose_webhook', shrinkMs: 8_000 });
    expect(r.violations).toBe(1);
    expect(r.failures[0].problems.join('\n')).toMatch(/has no webhook delivery/);
  }, 120_000);
});
