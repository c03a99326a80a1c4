import { describe, expect, it } from 'vitest';
import { report, simulate, SIM_ACTIONS, worldOf, type SimResult } from '../../sim/simulate.js';

/** The kinds of happening (prefixes of the coverage's names) that a result's histories never reached. */
const unreached = (r: SimResult, kinds: string[]) => kinds.filter((k) => ![...r.coverage].some(([name, n]) => name.startsWith(k) && n > 0));

/**
 * The seeded simulation of the money system (docs/simulation.md) on a fixed small budget: histories of
 * orders, supplier outcomes, top-ups, support actions, crashes and clock jumps against the real service,
 * every invariant checked after every step. `npm run simulate` runs longer budgets. The simulation must be
 * able to fail: with a deliberate bug (sim/mutants.ts) it reports the violation and its shortest history.
 */
describe('the simulation of the money system', () => {
  it('runs a fixed budget of seeded histories with every invariant holding after every step', async () => {
    const r = await simulate({ seed: 20261127, runs: 12, maxCommands: 80, actions: SIM_ACTIONS, world: 'sandbox', shrinkMs: 20_000 });
    expect(r.failures.map(report)).toEqual([]);
    expect(r.runs).toBe(12);
    expect(r.steps).toBeGreaterThan(300);
    // the budget reaches every kind of step the simulation is there for (an action that silently stopped
    // happening would leave its rules unchecked)
    const kinds = [
      'orders: several at once on one balance',
      'orders: one key sent twice at once',
      'order: a key replayed',
      'order: another body under a used key',
      'order final: stars completed',
      'order final: nft refunded',
      'order in review',
      'support racing the workers',
      'review resolved',
      'premium cancel',
      'deposit: credited',
      'transfer for a request expired',
      'transfer for a request paid',
      'transfer for a request canceled',
      'transfer: fraction',
      'transfer: code_wrong_amount',
      'support credit: again to another partner',
      'support credit: first (base64)',
      'adjustment given',
      'adjustment refused below zero',
      'kill: during',
      'stop and start',
      'clock: a month',
    ];
    expect(unreached(r, kinds)).toEqual([]);
  }, 180_000);

  it('runs a fixed budget of Fragment histories: batches paid from the hot wallet on the fake chain, bounces, kills between signing and settling', async () => {
    const r = await simulate({ seed: 20261127, runs: 2, maxCommands: 80, actions: SIM_ACTIONS, world: 'fragment', shrinkMs: 20_000 });
    expect(r.failures.map(report)).toEqual([]);
    expect(r.steps).toBeGreaterThan(50);
    const kinds = [
      'orders: several at once on one balance',
      'fragment: a batch of several orders',
      'fragment: one message of a batch bounced, the others taken',
      'fragment: killed as its batch reached toncenter (executed)',
      'fragment: killed as its batch reached toncenter (held)',
      'fragment: killed while a batch',
      'fragment: a batch proven void',
      'fragment: an order of a void batch paid in a new one',
      'order in review',
      'support racing the workers',
    ];
    expect(unreached(r, kinds)).toEqual([]);
  }, 180_000);

  it('fails when the service refunds an order in review by itself, and shrinks the history that shows it', async () => {
    // the first of a few seeds whose history reaches a review
    const r = await simulate({ seed: 300, runs: 10, maxCommands: 40, actions: SIM_ACTIONS, world: 'sandbox', mutant: 'refund_in_review', shrinkMs: 10_000, stopAfter: 1 });
    expect(r.violations).toBe(1);
    const f = r.failures[0];
    expect(f.problems.join('\n')).toMatch(/refunded without an operator although the supplier (sent|took)/);
    expect(f.history.length).toBeGreaterThan(0);
    expect(f.history.length).toBeLessThanOrEqual(f.firstSteps);
    const flag = f.world === worldOf(f.seed, 'mixed') ? '' : ` --world ${f.world}`;
    expect(report(f)).toContain(`VIOLATION in run ${f.run} (seed ${f.seed}, ${f.world}); replay: npm run simulate -- --seed ${f.seed} --runs 1 --steps 40${flag}\n`);
    // the shortest history alone, replayed exactly by its path: the same steps, the same violation
    const again = await simulate({ seed: f.seed, runs: 1, maxCommands: 40, actions: SIM_ACTIONS, world: 'sandbox', mutant: 'refund_in_review', replay: f.replay });
    expect(again.failures.map((x) => [x.history, x.problems])).toEqual([[f.history, f.problems]]);
  }, 180_000);

  it('fails when a webhook of a finished order vanishes, a transfer that paid no request is credited, or a webhook is logged delivered that the receiver never took', async () => {
    const lost = await simulate({ seed: 300, runs: 10, maxCommands: 40, actions: SIM_ACTIONS, world: 'sandbox', mutant: 'lose_webhook', shrinkMs: 5_000, stopAfter: 1 });
    expect(lost.violations).toBe(1);
    expect(lost.failures[0].problems.join('\n')).toMatch(/has no webhook delivery/);
    const credited = await simulate({ seed: 1000, runs: 10, maxCommands: 40, actions: SIM_ACTIONS, world: 'sandbox', mutant: 'credit_unmatched', shrinkMs: 5_000, stopAfter: 1 });
    expect(credited.violations).toBe(1);
    expect(credited.failures[0].problems.join('\n')).toMatch(/credited to partner \d+; allowed: nobody/);
    const unanswered = await simulate({ seed: 300, runs: 10, maxCommands: 40, actions: SIM_ACTIONS, world: 'sandbox', mutant: 'deliver_unanswered', shrinkMs: 5_000, stopAfter: 1 });
    expect(unanswered.violations).toBe(1);
    expect(unanswered.failures[0].problems.join('\n')).toMatch(/is delivered but the receiver never answered it 2xx/);
  }, 240_000);

  it('fails when a Fragment batch in flight is judged void before its transfer expired (its orders would be paid again)', async () => {
    const r = await simulate({ seed: 3, runs: 2, maxCommands: 40, actions: SIM_ACTIONS, world: 'fragment', mutant: 'void_in_flight', shrinkMs: 3_000, stopAfter: 1 });
    expect(r.violations).toBe(1);
    expect(r.failures[0].world).toBe('fragment');
    expect(r.failures[0].problems.join('\n')).toMatch(/proven void, but it was executed on chain|paid 2 times on chain/);
  }, 180_000);
});
