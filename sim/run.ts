import { parseArgs } from 'node:util';
import { SIM_ACTIONS, simulate } from './simulate.js';
import { MUTANTS, type MutantName } from './mutants.js';

/**
 * `npm run simulate -- --seed S --runs N [--steps M] [--shrink-seconds T] [--trace] [--coverage]`, or `--seed S --replay P`
 * for exactly the shortest history a violation printed (docs/simulation.md). Prints each
 * violation (its seed, the shortest history, what broke) and, as its last line,
 * `simulate: N runs, S steps, V violations (seed S)`. Exits 1 when a violation was found.
 */
const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    runs: { type: 'string', default: '20' },
    steps: { type: 'string', default: '80' },
    'shrink-seconds': { type: 'string', default: '300' },
    mutant: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    coverage: { type: 'boolean', default: false },
    world: { type: 'string', default: 'mixed' },
    replay: { type: 'string' },
  },
});

function int(name: string, text: string | undefined, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    console.error(`simulate: --${name} must be an integer of at least ${min}`);
    process.exit(2);
  }
  return n;
}

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : int('seed', values.seed, -(2 ** 31));
const runs = values.replay === undefined ? int('runs', values.runs, 1) : 1;
if (values.replay !== undefined && (values.seed === undefined || !/^[0-9:]+@[A-Za-z0-9+/:]*$/.test(values.replay))) {
  console.error("simulate: --replay takes the '<path>@<steps>' a violation printed, with its --seed");
  process.exit(2);
}
const maxCommands = int('steps', values.steps, 1);
const world = values.world as 'sandbox' | 'fragment' | 'mixed';
if (!['sandbox', 'fragment', 'mixed'].includes(world)) {
  console.error('simulate: --world must be sandbox, fragment or mixed');
  process.exit(2);
}
const mutant = values.mutant as MutantName | undefined;
if (mutant !== undefined && !(mutant in MUTANTS)) {
  console.error(`simulate: --mutant must be one of ${Object.keys(MUTANTS).join(', ')}`);
  process.exit(2);
}

const started = performance.now();
let done = 0;
const r = await simulate({
  seed,
  runs,
  maxCommands,
  actions: SIM_ACTIONS,
  world,
  mutant,
  replay: values.replay,
  shrinkMs: int('shrink-seconds', values['shrink-seconds'], 1) * 1000,
  log: (line) => console.log(line),
  trace: values.trace ? (line) => console.error(line) : undefined,
  onRun: values.quiet
    ? undefined
    : (run, steps) => {
        done++;
        if (done % 10 === 0 || done === runs) console.error(`  ${done}/${runs} runs, ${steps} steps, ${((performance.now() - started) / 1000).toFixed(1)} s`);
      },
});
if (values.coverage) {
  console.log('coverage (how often each kind of happening happened):');
  for (const [k, n] of [...r.coverage].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${String(n).padStart(6)}  ${k}`);
}
const secs = r.ms / 1000;
console.log(`time: ${secs.toFixed(1)} s, ${(r.steps / secs).toFixed(1)} steps/s`);
console.log(`simulate: ${r.runs} runs, ${r.steps} steps, ${r.violations} violations (seed ${seed})`);
process.exit(r.violations ? 1 : 0);
