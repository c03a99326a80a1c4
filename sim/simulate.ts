import fc from 'fast-check';
import { setUp, type PartnerSetup } from './actions.js';
import { commandArbitraries, Violation, type ActionSet, type Real } from './commands.js';
import { checkInvariants } from './invariants.js';
import { emptyModel, isFinal, type Model } from './model.js';
import { MUTANTS, type MutantName } from './mutants.js';
import { NO_FRAGMENT_FAULTS, setFragmentFaults } from './fragment-actions.js';
import { World, type Answer, type WorldKind } from './world.js';

/**
 * The seeded simulation of the money system (docs/simulation.md). Run `i` of seed `S` is the history of
 * seed `S + i`: fast-check draws its steps from that seed, runs them against a fresh service, checks the
 * invariants after every step and, after the last, lets the service finish everything it has under way
 * (the drain: faults off, the clock on by a month, every review resolved) and checks that nothing was left
 * unfinished. A failing history is shrunk to its shortest form and printed with the seed that replays it.
 */

export interface SimOptions {
  seed: number;
  runs: number;
  /** The most steps a history has (fast-check draws 0 to this many; about half on average). */
  maxCommands: number;
  actions: ActionSet;
  /**
   * Which suppliers the histories run against: `mixed` (the default) gives every fourth seed (seed ≡ 3 mod 4)
   * a Fragment history and the others the sandbox's, so that a seed alone says which.
   */
  world?: WorldKind | 'mixed';
  /** A deliberate bug (sim/mutants.ts): the simulation must then fail. */
  mutant?: MutantName;
  /**
   * Replays exactly one history of the first run: fast-check's path of it and the replay path of its steps,
   * as a failure prints them (`<path>@<replayPath>`), without searching or shrinking.
   */
  replay?: string;
  /** Stop after this many failing runs (default: run them all). */
  stopAfter?: number;
  /** Real time allowed to shrink one failing history (it replays the history many times). */
  shrinkMs?: number;
  log?: (line: string) => void;
  /** Told of every step of each run's first history (not of the shrinking). */
  trace?: (line: string) => void;
  /** Called after each run with the steps so far (progress). */
  onRun?: (run: number, steps: number) => void;
}

export interface RunFailure {
  run: number;
  seed: number;
  world: WorldKind;
  /** `<path>@<replayPath>`: fast-check's path of the shortest failing history and of its steps (`--replay`) */
  replay: string | undefined;
  /** the steps of the shortest failing history */
  history: string[];
  /** the most steps of a history in that run (`--steps`: a replay must draw alike) */
  maxCommands: number;
  /** the steps the history had run when it first failed, before it was shrunk */
  firstSteps: number;
  /** the step after which the invariants broke, and what broke */
  step: string;
  problems: string[];
}

export interface SimResult {
  runs: number;
  steps: number;
  violations: number;
  failures: RunFailure[];
  ms: number;
  /** How often each kind of happening happened over the runs' histories (Model.seen), summed. */
  coverage: Map<string, number>;
}

/** The actions this version of the service offers (every one, once the branches that add them have landed). */
export const SIM_ACTIONS: ActionSet = { canonicalHashes: true, adjustments: true };

/** Three partners: two with a webhook to the receiver, one without; modest balances, so that 402s happen. */
const PARTNERS: PartnerSetup[] = [
  { usd: '150.00', ton: '60.000', webhook: true },
  { usd: '80.00', ton: '30.000', webhook: true },
  { usd: '40.00', ton: '20.000', webhook: false },
];

export async function simulate(opts: SimOptions): Promise<SimResult> {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const arbs = { sandbox: commandArbitraries(opts.actions, 'sandbox'), fragment: commandArbitraries(opts.actions, 'fragment') };
  const mutant = opts.mutant ? MUTANTS[opts.mutant] : null;
  let steps = 0;
  const coverage = new Map<string, number>();
  const failures: RunFailure[] = [];
  for (let run = 0; run < opts.runs; run++) {
    const seed = (opts.seed + run) | 0;
    const world = worldOf(seed, opts.world ?? 'mixed');
    let first = true;
    let firstSteps = 0;
    // shrinking replays the history many times: past the budget, every further candidate counts as passing,
    // which ends the search with the shortest failing history found so far
    let failedAt: number | null = null;
    const [path, replayPath] = opts.replay?.split('@') ?? [];
    const prop = fc.asyncProperty(fc.commands(arbs[world], { maxCommands: opts.maxCommands, size: 'max', replayPath }), async (cmds) => {
      if (failedAt !== null && performance.now() - failedAt > (opts.shrinkMs ?? 120_000)) return;
      const w = await World.open(seed, world);
      const m = emptyModel(world);
      try {
        await setUp(w, m, seed, PARTNERS);
        await fc.asyncModelRun(() => ({ model: m, real: { w, mutant, trace: first ? (opts.trace ?? null) : null } satisfies Real }), cmds);
        await drain(w, m);
      } catch (e) {
        failedAt ??= performance.now();
        throw e;
      } finally {
        if (first) {
          steps += m.steps;
          firstSteps = m.steps;
          for (const [k, n] of m.seen) coverage.set(k, (coverage.get(k) ?? 0) + n);
        }
        first = false;
        await w.close();
      }
    });
    const out = await fc.check(prop, path === undefined ? { seed, numRuns: 1 } : { seed, numRuns: 1, path, endOnFailure: true });
    opts.onRun?.(run, steps);
    if (!out.failed) continue;
    const history = out.counterexample ? [...(out.counterexample[0] as Iterable<unknown>)].map(String) : [];
    const stepsPath = out.counterexample ? /replayPath="([^"]*)"/.exec(String(out.counterexample[0]))?.[1] : undefined;
    const e = out.errorInstance;
    const failure: RunFailure = {
      run,
      seed,
      world,
      replay: out.counterexamplePath && stepsPath !== undefined ? `${out.counterexamplePath}@${stepsPath}` : undefined,
      history,
      maxCommands: opts.maxCommands,
      firstSteps,
      step: e instanceof Violation ? e.step : 'a step',
      problems: e instanceof Violation ? e.problems : [e instanceof Error ? (e.stack ?? e.message) : String(e)],
    };
    failures.push(failure);
    log(report(failure));
    if (opts.stopAfter !== undefined && failures.length >= opts.stopAfter) return { runs: run + 1, steps, violations: failures.length, failures, ms: performance.now() - started, coverage };
  }
  return { runs: opts.runs, steps, violations: failures.length, failures, ms: performance.now() - started, coverage };
}

/** The world of seed `seed`: every fourth seed a Fragment history when mixed. */
export function worldOf(seed: number, world: WorldKind | 'mixed'): WorldKind {
  if (world !== 'mixed') return world;
  return ((seed % 4) + 4) % 4 === 3 ? 'fragment' : 'sandbox';
}

export function report(f: RunFailure): string {
  const w = f.world === worldOf(f.seed, 'mixed') ? '' : ` --world ${f.world}`;
  return [
    `VIOLATION in run ${f.run} (seed ${f.seed}, ${f.world}); replay: npm run simulate -- --seed ${f.seed} --runs 1 --steps ${f.maxCommands}${w}`,
    `shortest history (${f.history.length} steps${f.replay ? `; it alone: npm run simulate -- --seed ${f.seed} --steps ${f.maxCommands}${w} --replay '${f.replay}' --trace` : ''}):`,
    ...f.history.map((s, i) => `  ${i + 1}. ${s}`),
    `after ${f.step}:`,
    ...f.problems.map((p) => `  - ${p}`),
  ].join('\n');
}

/**
 * The end of a history: faults off, the clock on past every retry and deferral (a month), then every order
 * must have its outcome or wait for an operator; the operators resolve every review, and then every order
 * is final and every webhook delivered or given up.
 */
async function drain(w: World, m: Model): Promise<void> {
  const fail = (step: string, problems: string[]) => {
    if (problems.length) throw new Violation(step, problems);
  };
  let r: Answer;
  if (w.fragment) {
    // Fragment and toncenter answer again, what toncenter kept reaches the chain (refused if expired), the
    // wallet is funded for every order waiting, and the Premium subscriptions end
    setFragmentFaults(w, m, NO_FRAGMENT_FAULTS);
    await w.fragment.surfaceHeld();
    await w.fragment.ton.fund(w.service.fragment!.wallet.address, '2000');
    w.fragment.subscriptionsEnd();
  } else {
    r = await w.admin('PUT', '/sandbox/faults', { resolver_error: false, upstream_unavailable: { stars: false, premium: false, nft: false } });
    fail('drain: faults off', r.status === 200 ? [] : [`PUT /sandbox/faults answered ${r.status}`]);
  }
  for (const seconds of [86_400, 32 * 86_400]) {
    r = await w.advance(seconds);
    fail(`drain: clock +${seconds}s`, [...(r.status === 200 ? [] : [`clock advance answered ${r.status}`]), ...checkInvariants(w, m)]);
  }
  const reviews = await w.admin('GET', '/reviews');
  const inReview = new Set((reviews.body.items as { order_id: string }[]).map((i) => i.order_id));
  const stuck = w
    .sql<{ order_id: string; type: string; status: string; refunded: number; recipient: string }>('select order_id, type, status, refunded, recipient from orders')
    .filter((o) => !isFinal(o.status, Boolean(o.refunded)) && !inReview.has(o.order_id));
  fail('drain: a month later', stuck.map((o) => `order ${o.order_id} (${o.type} to ${o.recipient}) is still ${o.status} a month later, not in review`));
  let i = 0;
  for (const id of inReview) {
    const outcome = i++ % 2 === 0 ? 'refunded' : 'delivered';
    let a = await w.admin('POST', `/orders/${id}/resolve`, { outcome });
    // a gift whose transfer the market has no record of: the operator gives the transfer's hash
    if (a.status === 409 && a.body?.code === 'transfer_hash_required')
      a = await w.admin('POST', `/orders/${id}/resolve`, { outcome, transfer_hash: `simtransfer${id.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 64) });
    if (a.status !== 200) fail('drain: resolve', [`resolving ${id} ${outcome} answered ${a.status} ${a.raw.slice(0, 200)}`]);
    const o = m.orders.get(id);
    if (o && outcome === 'refunded') o.operatorRefund = 'done';
    if (o && outcome === 'delivered') o.operatorDelivered = true;
  }
  r = await w.advance(86_400);
  const open = w
    .sql<{ order_id: string; status: string; refunded: number }>('select order_id, status, refunded from orders')
    .filter((o) => !isFinal(o.status, Boolean(o.refunded)))
    .map((o) => `order ${o.order_id} is still ${o.status} after every review was resolved`);
  const pending = w.sql<{ webhook_id: string; event: string; order_id: string }>("select webhook_id, event, order_id from webhook_deliveries where status = 'pending'").map((d) => `webhook ${d.webhook_id} (${d.event} of ${d.order_id}) still pending a day after the last event`);
  fail('drain: the end', [...open, ...pending, ...checkInvariants(w, m)]);
}
