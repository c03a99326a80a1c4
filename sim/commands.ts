import fc from 'fast-check';
import {
  advance,
  cancelPremium,
  changeGift,
  crashDuring,
  createOrders,
  operatorTopup,
  payRequest,
  requestTopup,
  resolveReview,
  setFaults,
  type CrashDuring,
  type Faults,
  type GiftChange,
  type OrderSpec,
  type PayVariant,
  type Recipient,
  type Spelling,
} from './actions.js';
import { checkInvariants } from './invariants.js';
import type { Currency, Model, Network } from './model.js';
import type { World } from './world.js';

/**
 * The steps of a history as fast-check commands (model-based testing): each is drawn with all its inputs
 * (which supplier outcome, which crash point, which spelling), runs against the real service, and is
 * followed by the check of every invariant. fast-check shrinks a failing history to its shortest form by
 * dropping and simplifying steps; a step refers to earlier things by index (modulo what exists), so it
 * still means something once steps before it are gone.
 */

/** The real side of a history. `mutant`: a deliberate bug, to show the simulation catches it (mutants.ts). */
export interface Real {
  w: World;
  mutant: ((w: World, m: Model) => Promise<void>) | null;
  /** Told of every step and a summary of the service after it (`--trace`). */
  trace: ((line: string) => void) | null;
}

/** A step whose invariants failed: the step, and what broke. */
export class Violation extends Error {
  constructor(
    readonly step: string,
    readonly problems: string[],
  ) {
    super(`after ${step}:\n  - ${problems.join('\n  - ')}`);
  }
}

/** One step: what it does, and how a history prints it. */
class Step implements fc.AsyncCommand<Model, Real> {
  constructor(
    private readonly label: string,
    private readonly act: (w: World, m: Model) => Promise<string[]>,
  ) {}

  check(): boolean {
    return true;
  }

  async run(m: Model, r: Real): Promise<void> {
    m.steps++;
    const problems = await this.act(r.w, m);
    if (r.mutant) await r.mutant(r.w, m);
    problems.push(...checkInvariants(r.w, m));
    if (r.trace) r.trace(`${m.steps}. ${this.label}${m.notes.length ? ` [${m.notes.join('; ')}]` : ''} → ${summary(r.w)}${problems.length ? ` ✗ ${problems.length}` : ''}`);
    m.notes.length = 0;
    if (problems.length) throw new Violation(this.label, problems);
  }

  toString(): string {
    return this.label;
  }
}

/** The orders by status, the reviews waiting, the top-ups and deposits (for a trace). */
function summary(w: World): string {
  const by = w.sql<{ k: string; n: number }>("select type || ':' || status || case when refunded then '/r' else '' end || case when review_stage is not null then '/rev' else '' end as k, count(*) as n from orders group by k order by k");
  const topups = w.sql<{ n: number }>('select count(*) as n from topups')[0].n;
  const deps = w.sql<{ k: string; n: number }>('select status as k, count(*) as n from deposits group by status');
  return `${by.map((r) => `${r.k}=${r.n}`).join(' ')} | topups ${topups} | deposits ${deps.map((r) => `${r.k}=${r.n}`).join(' ')} | restarts ${w.restarts}`;
}

const fmtSpec = (s: OrderSpec) =>
  `${s.type}/${s.recipient}${s.account}/${s.size}${s.reuse === null ? '' : ` key#${s.reuse}${s.same ? '=' : '≠'}`}${s.tight ? '/tight' : ''}`;
const fmtOrders = (partner: number, specs: OrderSpec[]) => `orders(p${partner}: ${specs.map(fmtSpec).join(', ')})`;
const fmtRace = (race: number | null) => (race === null ? '' : ` while the clock moves ${race}s`);

function fmtCrash(ticks: number, d: CrashDuring): string {
  const what = d.kind === 'idle' ? 'idle' : d.kind === 'advance' ? `clock +${d.seconds}s` : fmtOrders(d.partner, d.specs);
  return `kill after ${ticks} turns of ${what}, restart`;
}

function fmtGift(gift: number, c: GiftChange): string {
  return `gift #${gift} ${c.kind === 'price' ? `price ×${c.factor}` : c.kind === 'outcome' ? `next purchase: ${c.outcome}` : 'listed again'}`;
}

function fmtFaults(f: Faults): string {
  const on = Object.entries(f)
    .filter(([, v]) => v)
    .map(([k]) => k);
  return `faults ${on.length ? on.join('+') : 'off'}`;
}

// --- arbitraries ------------------------------------------------------------------------------------

const weighted = <T>(...pairs: [T, number][]) => fc.oneof(...pairs.map(([v, weight]) => ({ arbitrary: fc.constant(v), weight })));

const recipient: fc.Arbitrary<Recipient> = weighted<Recipient>(['ok', 5], ['fails', 2], ['unsure', 2], ['slow', 1], ['ghost', 1]);

const orderSpec: fc.Arbitrary<OrderSpec> = fc.record({
  type: weighted<OrderSpec['type']>(['stars', 3], ['premium', 2], ['nft', 3]),
  recipient,
  account: fc.nat(2),
  size: fc.nat(5),
  reuse: fc.option(fc.nat(20), { freq: 3 }),
  same: fc.boolean(),
  tight: weighted([false, 9], [true, 1]),
});

const specs = fc.array(orderSpec, { minLength: 1, maxLength: 4 });
const partner = fc.nat(2);
const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const clockJump = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 20 }), weight: 4 }, { arbitrary: fc.integer({ min: 60, max: 3_600 }), weight: 3 }, { arbitrary: fc.integer({ min: 3_600, max: 2 * 86_400 }), weight: 2 }, { arbitrary: fc.integer({ min: 25 * 86_400, max: 32 * 86_400 }), weight: 1 });
const race = fc.option(fc.integer({ min: 1, max: 20 }), { freq: 2 });

const GIFT_OUTCOMES = ['ok', 'stuck_transfer', 'purchase_unconfirmed', 'purchase_answer_lost', 'purchase_not_sent', 'purchase_timeout', 'gift_not_for_sale', 'price_above_cap', 'insufficient_funds', 'delivery_failed'];

/** Which actions a history draws from (a branch of the service may not offer some yet). */
export interface ActionSet {
  /**
   * One canonical form of a transaction hash on every path: support credits transactions a watcher recorded,
   * and writes hashes in other spellings (0x, upper case, bare).
   */
  canonicalHashes: boolean;
}

export function commandArbitraries(actions: ActionSet): fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] {
  const spelling: fc.Arbitrary<Spelling> = actions.canonicalHashes ? fc.constantFrom<Spelling>('as_seen', 'upper', 'prefixed', 'bare') : fc.constant<Spelling>('as_seen');
  const during: fc.Arbitrary<CrashDuring> = fc.oneof(
    fc.constant<CrashDuring>({ kind: 'idle' }),
    clockJump.map((seconds): CrashDuring => ({ kind: 'advance', seconds })),
    fc.record({ partner, specs }).map((o): CrashDuring => ({ kind: 'orders', ...o })),
  );
  const orders = fc.record({ partner, specs }).map((o) => new Step(fmtOrders(o.partner, o.specs), (w, m) => createOrders(w, m, o.partner, o.specs)));
  const clock = clockJump.map((s) => new Step(`clock +${s}s`, (w) => advance(w, s)));
  const freshTx = fc.record({ fresh: hex64, currency: fc.constantFrom<Currency>('USD', 'TON'), network: fc.constantFrom<Network>('ton', 'trc20', 'bep20'), amount: fc.nat(2) });
  return [
    orders,
    orders,
    clock,
    clock,
    fc.record({ ticks: fc.nat(40), during }).map((c) => new Step(fmtCrash(c.ticks, c.during), (w, m) => crashDuring(w, m, c.ticks, c.during))),
    fc.record({ partner, tx: fc.oneof(freshTx, fc.record({ reuse: fc.nat(30) })), spelling }).map((c) => {
      const t = c.tx;
      const label = `support credits p${c.partner} ${'fresh' in t ? `new tx ${t.fresh.slice(0, 8)} ${t.currency}/${t.network}/${t.amount}` : `tx#${t.reuse}`} (${c.spelling})`;
      return new Step(label, (w, m) => operatorTopup(w, m, c.partner, c.tx, c.spelling, actions.canonicalHashes));
    }),
    fc
      .record({ partner, currency: fc.constantFrom<Currency>('USD', 'TON'), amount: fc.nat(1) })
      .map((c) => new Step(`top-up request p${c.partner} ${c.currency}#${c.amount}`, (w, m) => requestTopup(w, m, c.partner, c.currency, c.amount))),
    fc
      .record({ request: fc.nat(30), variant: weighted<PayVariant>(['exact', 5], ['round', 1], ['fraction', 1], ['other_token', 1], ['with_code', 2], ['code_wrong_amount', 1], ['again', 1]), network: fc.nat(2), hash: hex64 })
      .map((c) => {
        const label = c.variant === 'again' ? `transfer #${c.request} reported again` : `transfer for request #${c.request} (${c.variant}, network ${c.network}, tx ${c.hash.slice(0, 8)})`;
        return new Step(label, (w, m) => payRequest(w, m, c.request, c.variant, c.network, c.hash));
      }),
    fc
      .record({ idx: fc.nat(10), outcome: fc.constantFrom<'delivered' | 'refunded'>('delivered', 'refunded'), race })
      .map((c) => new Step(`support resolves review #${c.idx} ${c.outcome}${fmtRace(c.race)}`, (w, m) => resolveReview(w, m, c.idx, c.outcome, c.race))),
    fc.record({ idx: fc.nat(10), race }).map((c) => new Step(`support cancels premium #${c.idx}${fmtRace(c.race)}`, (w, m) => cancelPremium(w, m, c.idx, c.race))),
    fc
      .oneof(
        fc.constant<Faults>({ stars: false, premium: false, nft: false, resolver: false }),
        fc.record({ stars: weighted([false, 3], [true, 1]), premium: weighted([false, 3], [true, 1]), nft: weighted([false, 3], [true, 1]), resolver: weighted([false, 5], [true, 1]) }),
      )
      .map((f) => new Step(fmtFaults(f), (w, m) => setFaults(w, m, f))),
    fc
      .record({
        gift: fc.nat(5),
        change: fc.oneof(
          fc.constantFrom(1.5, 0.8).map((factor): GiftChange => ({ kind: 'price', factor })),
          fc.constantFrom(...GIFT_OUTCOMES).map((outcome): GiftChange => ({ kind: 'outcome', outcome })),
          fc.constant<GiftChange>({ kind: 'relist' }),
        ),
      })
      .map((c) => new Step(fmtGift(c.gift, c.change), (w, m) => changeGift(w, m, c.gift, c.change))),
  ];
}
