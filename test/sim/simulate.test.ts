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
    const r = await simulate({ seed: 20261127, runs: 12, maxCommands: 80, actions: SIM_ACTIONS, shrinkMs: 20_000 });
    expect(r.failures.map(report)).toEqual([]);
    expect(r.runs).toBe(12);
    expect(r.steps).toBeGreaterThan(300);
  }, 180_000);

  it('fails when the service refunds an order in review by itself, and shrinks the history that shows it', async () => {
    // the first of a few seeds whose history reaches a review
    const r = await simulate({ seed: 300, runs: 10, maxCommands: 40, actions: SIM_ACTIONS, mutant: 'refund_in_review', shrinkMs: 10_000, stopAfter: 1 });
    expect(r.violations).toBe(1);
    const f = r.failures[0];
    expect(f.problems.join('\n')).toMatch(/refunded without an operator although the supplier (sent|took)/);
    expect(f.history.length).toBeGreaterThan(0);
    expect(f.history.length).toBeLessThanOrEqual(f.firstSteps);
    expect(report(f)).toContain(`VIOLATION in run ${f.run} (seed ${f.seed}); replay: npm run simulate -- --seed ${f.seed} --runs 1 --steps 40\n`);
    // the shortest history alone, replayed exactly by its path: the same steps, the same violation
    const again = await simulate({ seed: f.seed, runs: 1, maxCommands: 40, actions: SIM_ACTIONS, mutant: 'refund_in_review', replay: f.replay });
    expect(again.failures.map((x) => [x.history, x.problems])).toEqual([[f.history, f.problems]]);
  }, 180_000);

  it('fails when a webhook of a finished order vanishes, or a transfer that paid no request is credited', async () => {
    const lost = await simulate({ seed: 300, runs: 10, maxCommands: 40, actions: SIM_ACTIONS, mutant: 'lose_webhook', shrinkMs: 5_000, stopAfter: 1 });
    expect(lost.violations).toBe(1);
    expect(lost.failures[0].problems.join('\n')).toMatch(/has no webhook delivery/);
    const credited = await simulate({ seed: 1000, runs: 10, maxCommands: 40, actions: SIM_ACTIONS, mutant: 'credit_unmatched', shrinkMs: 5_000, stopAfter: 1 });
    expect(credited.violations).toBe(1);
    expect(credited.failures[0].problems.join('\n')).toMatch(/credited to partner \d+; allowed: nobody/);
  }, 180_000);
});
