import fc from 'fast-check';
import {
  beginAdjust,
  beginAdvance,
  beginCancel,
  beginDepositResolve,
  beginOrders,
  beginRequestCancel,
  beginResolve,
  beginTransfer,
  changeGift,
  crashDuring,
  operatorTopup,
  requestTopup,
  runStep,
  setFaults,
  type Begin,
  type Faults,
  type GiftChange,
  type OrderSpec,
  type PayVariant,
  type Race,
  type Recipient,
  type Spelling,
} from './actions.js';
import { auditAgrees, checkInvariants } from './invariants.js';
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
    const started = performance.now();
    const problems = await this.act(r.w, m);
    if (r.mutant) await r.mutant(r.w, m);
    problems.push(...checkInvariants(r.w, m));
    if (!problems.length) problems.push(...(await auditAgrees(r.w)));
    if (r.trace) r.trace(`${m.steps}. (${Math.round(performance.now() - started)} ms) ${this.label}${m.notes.length ? ` [${m.notes.join('; ')}]` : ''} → ${summary(r.w)}${problems.length ? ` ✗ ${problems.length}` : ''}`);
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
  `${s.type}/${s.recipient}${s.account}/${s.size}${s.reuse === null ? '' : ` key#${s.reuse}${s.same ? '=' : '≠'}`}${s.tight ? '/tight' : ''}${s.twice ? ' ×2' : ''}`;
const fmtOrders = (partner: number, specs: OrderSpec[]) => `orders(p${partner}: ${specs.map(fmtSpec).join(', ')})`;
const fmtRace = (race: Race | null) => (race === null ? '' : ` while the clock moves ${race.seconds}s (${race.turns} turns ahead)`);

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
  twice: weighted([false, 9], [true, 1]),
});

const specs = fc.array(orderSpec, { minLength: 1, maxLength: 4 });
const partner = fc.nat(2);
const clockJump = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 20 }), weight: 4 },
  { arbitrary: fc.integer({ min: 60, max: 3_600 }), weight: 3 },
  { arbitrary: fc.integer({ min: 3_600, max: 2 * 86_400 }), weight: 2 },
  { arbitrary: fc.integer({ min: 25 * 86_400, max: 32 * 86_400 }), weight: 1 },
);
const race: fc.Arbitrary<Race | null> = fc.option(fc.record({ seconds: fc.integer({ min: 1, max: 20 }), turns: fc.nat(12) }), { freq: 2 });

/** A step made of requests (a kill can fall in the middle of it). */
interface Op {
  label: string;
  begin: Begin;
}

const ordersOp: fc.Arbitrary<Op> = fc.record({ partner, specs }).map((o) => ({ label: fmtOrders(o.partner, o.specs), begin: async (w, m) => beginOrders(w, m, o.partner, o.specs) }));
/**
 * While a fault is on, a jump goes at most 3 hours: a supplier that stays down is asked again every 30 seconds,
 * and a month of that is 86,400 runs of each waiting order's job, which tells nothing new.
 */
const FAULT_JUMP_MAX = 3 * 3_600;
const clockOp: fc.Arbitrary<Op> = clockJump.map((s) => ({ label: `clock +${s}s`, begin: async (w, m) => [beginAdvance(w, m.faultsOn ? Math.min(s, FAULT_JUMP_MAX) : s)] }));
const transferOp: fc.Arbitrary<Op> = fc
  .record({ request: fc.nat(30), variant: weighted<PayVariant>(['exact', 5], ['round', 1], ['fraction', 1], ['other_token', 1], ['with_code', 2], ['code_wrong_amount', 1], ['again', 1]), network: fc.nat(2) })
  .map((c) => ({
    label: c.variant === 'again' ? `transfer #${c.request} reported again` : `transfer for request #${c.request} (${c.variant}, network ${c.network})`,
    begin: (w, m) => beginTransfer(w, m, c.request, c.variant, c.network),
  }));
const resolveOp: fc.Arbitrary<Op> = fc
  .record({ idx: fc.nat(10), outcome: fc.constantFrom<'delivered' | 'refunded'>('delivered', 'refunded') })
  .map((c) => ({ label: `support resolves review #${c.idx} ${c.outcome}`, begin: (w, m) => beginResolve(w, m, c.idx, c.outcome) }));
const requestCancelOp: fc.Arbitrary<Op> = fc.nat(30).map((idx) => ({ label: `top-up request #${idx} canceled`, begin: (w, m) => beginRequestCancel(w, m, idx) }));
const cancelOp: fc.Arbitrary<Op> = fc.nat(10).map((idx) => ({ label: `support cancels premium #${idx}`, begin: (w, m) => beginCancel(w, m, idx) }));
const depositOp: fc.Arbitrary<Op> = fc
  .record({ idx: fc.nat(10), partner, close: weighted([false, 3], [true, 1]) })
  .map((c) => ({
    label: `support ${c.close ? 'closes' : `credits to p${c.partner}`} unmatched deposit #${c.idx}`,
    begin: (w, m) => beginDepositResolve(w, m, c.idx, c.partner, c.close),
  }));

const step = (op: Op) => new Step(op.label, (w, m) => runStep(w, m, op.begin));
const racing = (ops: fc.Arbitrary<Op>) => fc.record({ op: ops, race }).map(({ op, race: r }) => new Step(`${op.label}${fmtRace(r)}`, (w, m) => runStep(w, m, op.begin, r)));

const GIFT_OUTCOMES = ['ok', 'stuck_transfer', 'purchase_unconfirmed', 'purchase_answer_lost', 'purchase_not_sent', 'purchase_timeout', 'gift_not_for_sale', 'price_above_cap', 'insufficient_funds', 'delivery_failed'];

/** Which actions a history draws from (a branch of the service may not offer some yet). */
export interface ActionSet {
  /** support corrects balances with adjustments (POST /partners/{id}/adjustments) */
  adjustments: boolean;
  /**
   * One canonical form of a transaction hash on every path: support credits transactions a watcher recorded,
   * and writes hashes in other spellings (0x, upper case, bare).
   */
  canonicalHashes: boolean;
}

export function commandArbitraries(actions: ActionSet): fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] {
  const spelling: fc.Arbitrary<Spelling> = actions.canonicalHashes ? fc.constantFrom<Spelling>('as_seen', 'upper', 'prefixed', 'bare', 'base64', 'other_network') : fc.constant<Spelling>('as_seen');
  const adjustOp: fc.Arbitrary<Op> = fc
    .record({ partner, currency: fc.constantFrom<Currency>('USD', 'TON'), amount: fc.nat(3), give: fc.boolean() })
    .map((c) => ({ label: `support adjusts p${c.partner} ${c.give ? '+' : '-'}${c.currency}#${c.amount}`, begin: (w, m) => beginAdjust(w, m, c.partner, c.currency, c.amount, c.give) }));
  const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
  const freshTx = fc.record({ fresh: hex64, currency: fc.constantFrom<Currency>('USD', 'TON'), network: fc.constantFrom<Network>('ton', 'trc20', 'bep20'), amount: fc.nat(2) });
  const topupRequest = fc
    .record({ partner, currency: fc.constantFrom<Currency>('USD', 'TON'), amount: fc.nat(1) })
    .map((c) => new Step(`top-up request p${c.partner} ${c.currency}#${c.amount}`, (w, m) => requestTopup(w, m, c.partner, c.currency, c.amount)));
  const anyOp = actions.adjustments ? fc.oneof(ordersOp, clockOp, transferOp, resolveOp, cancelOp, depositOp, requestCancelOp, adjustOp) : fc.oneof(ordersOp, clockOp, transferOp, resolveOp, cancelOp, depositOp, requestCancelOp);
  return [
    ...(actions.adjustments ? [adjustOp.map(step)] : []),
    ordersOp.map(step),
    ordersOp.map(step),
    clockOp.map(step),
    clockOp.map(step),
    fc.constant(null).map(() => new Step('stop (SIGTERM) and start again', async (w) => (await w.restart(), []))),
    fc.record({ ticks: fc.nat(40), op: fc.option(anyOp, { freq: 4 }) }).map((c) => new Step(`kill after ${c.ticks} turns of ${c.op ? c.op.label : 'idle'}, restart`, (w, m) => crashDuring(w, m, c.ticks, c.op?.begin ?? null))),
    fc.record({ partner, tx: fc.oneof(freshTx, fc.record({ reuse: fc.nat(30) })), spelling }).map((c) => {
      const t = c.tx;
      const label = `support credits p${c.partner} ${'fresh' in t ? `new tx ${t.fresh.slice(0, 8)} ${t.currency}/${t.network}/${t.amount}` : `tx#${t.reuse}`} (${c.spelling})`;
      return new Step(label, (w, m) => operatorTopup(w, m, c.partner, c.tx, c.spelling, actions.canonicalHashes));
    }),
    topupRequest,
    topupRequest,
    transferOp.map(step),
    transferOp.map(step),
    requestCancelOp.map(step),
    racing(resolveOp),
    racing(cancelOp),
    racing(depositOp),
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
