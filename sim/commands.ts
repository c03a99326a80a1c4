import fc from 'fast-check';
import {
  beginAdjust,
  beginAdvance,
  beginCancel,
  beginDepositResolve,
  beginOperatorTopup,
  beginOrders,
  beginRequestCancel,
  beginRequestTopup,
  beginResolve,
  beginTransfer,
  changeGift,
  crashDuring,
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
  type TransferTarget,
} from './actions.js';
import { fundWallet, killAtReceipts, killAtSend, movePrices, NO_FRAGMENT_FAULTS, setFragmentFaults, subscriptionsEnd, surfaceHeld, type FragmentFaults, type SendThen } from './fragment-actions.js';
import { auditAgrees, checkInvariants } from './invariants.js';
import { saw, type Currency, type Model, type Network } from './model.js';
import type { World, WorldKind } from './world.js';

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
/** Fragment sells Stars and Premium (no gifts beside it). */
const fragmentSpecs = fc.array(
  orderSpec.map((s) => (s.type === 'nft' ? { ...s, type: 'stars' as const } : s)),
  { minLength: 1, maxLength: 4 },
);
const partner = fc.nat(2);
const clockJump = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 20 }), weight: 4 },
  { arbitrary: fc.integer({ min: 60, max: 3_600 }), weight: 3 },
  { arbitrary: fc.integer({ min: 3_600, max: 2 * 86_400 }), weight: 2 },
  { arbitrary: fc.integer({ min: 25 * 86_400, max: 32 * 86_400 }), weight: 1 },
);
const race: fc.Arbitrary<Race | null> = fc.option(fc.record({ seconds: fc.integer({ min: 1, max: 20 }), turns: fc.nat(12) }), { freq: 2 });

/** A step made of requests (a kill can fall in the middle of it); `kind` names it in the coverage. */
interface Op {
  label: string;
  kind: string;
  begin: Begin;
}

const ordersOp: fc.Arbitrary<Op> = fc.record({ partner, specs }).map((o) => ({ label: fmtOrders(o.partner, o.specs), kind: 'orders', begin: async (w, m) => beginOrders(w, m, o.partner, o.specs) }));
/**
 * While a fault is on, a jump goes at most 3 hours: a supplier that stays down is asked again every 30 seconds,
 * and a month of that is 86,400 runs of each waiting order's job, which tells nothing new.
 */
const FAULT_JUMP_MAX = 3 * 3_600;
const clockOp: fc.Arbitrary<Op> = clockJump.map((s) => ({
  label: `clock +${s}s`,
  kind: 'a clock jump',
  begin: async (w, m) => {
    const seconds = m.faultsOn ? Math.min(s, FAULT_JUMP_MAX) : s;
    saw(m, seconds >= 25 * 86_400 ? 'clock: a month' : seconds >= 3_600 ? 'clock: hours or days' : 'clock: seconds or minutes');
    return [beginAdvance(w, seconds)];
  },
}));
const transferOp: fc.Arbitrary<Op> = fc
  .record({
    request: fc.nat(30),
    variant: weighted<PayVariant>(['exact', 5], ['round', 1], ['fraction', 1], ['other_token', 1], ['with_code', 2], ['code_wrong_amount', 1], ['again', 1]),
    network: fc.nat(2),
    target: weighted<TransferTarget>(['any', 4], ['paid', 1], ['ended', 1], ['late', 1]),
  })
  .map((c) => ({
    label: c.variant === 'again' ? `transfer #${c.request} reported again` : `transfer for ${c.target === 'any' ? '' : `${c.target} `}request #${c.request} (${c.variant}, network ${c.network})`,
    kind: 'a transfer',
    begin: (w, m) => beginTransfer(w, m, c.request, c.variant, c.network, c.target),
  }));
const resolveOp: fc.Arbitrary<Op> = fc
  .record({ idx: fc.nat(10), outcome: fc.constantFrom<'delivered' | 'refunded'>('delivered', 'refunded') })
  .map((c) => ({ label: `support resolves review #${c.idx} ${c.outcome}`, kind: 'a review resolution', begin: (w, m) => beginResolve(w, m, c.idx, c.outcome) }));
const requestCancelOp: fc.Arbitrary<Op> = fc.nat(30).map((idx) => ({ label: `top-up request #${idx} canceled`, kind: 'a request cancel', begin: (w, m) => beginRequestCancel(w, m, idx) }));
const cancelOp: fc.Arbitrary<Op> = fc.nat(10).map((idx) => ({ label: `support cancels premium #${idx}`, kind: 'a support cancel', begin: (w, m) => beginCancel(w, m, idx) }));
const depositOp: fc.Arbitrary<Op> = fc
  .record({ idx: fc.nat(10), partner, close: weighted([false, 3], [true, 1]) })
  .map((c) => ({
    label: `support ${c.close ? 'closes' : `credits to p${c.partner}`} unmatched deposit #${c.idx}`,
    kind: 'a deposit resolution',
    begin: (w, m) => beginDepositResolve(w, m, c.idx, c.partner, c.close),
  }));

const step = (op: Op) => new Step(op.label, (w, m) => runStep(w, m, op.begin));
const stopStart = fc.constant(null).map(() => new Step('stop (SIGTERM) and start again', async (w, m) => (saw(m, 'stop and start'), await w.restart(), [])));
/** A kill a few turns into any of `ops` (or while idle), and a start on what was on disk. */
const killDuring = (ops: fc.Arbitrary<Op>) =>
  fc
    .record({ ticks: fc.nat(40), op: fc.option(ops, { freq: 4 }) })
    .map((c) => new Step(`kill after ${c.ticks} turns of ${c.op ? c.op.label : 'idle'}, restart`, (w, m) => crashDuring(w, m, c.ticks, c.op?.begin ?? null, c.op?.kind)));
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

export function commandArbitraries(actions: ActionSet, world: WorldKind = 'sandbox'): fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] {
  const spelling: fc.Arbitrary<Spelling> = actions.canonicalHashes ? fc.constantFrom<Spelling>('as_seen', 'upper', 'prefixed', 'bare', 'base64', 'other_network') : fc.constant<Spelling>('as_seen');
  const adjustOp: fc.Arbitrary<Op> = fc.record({ partner, currency: fc.constantFrom<Currency>('USD', 'TON'), amount: fc.nat(3), give: fc.boolean() }).map((c) => ({
    label: `support adjusts p${c.partner} ${c.give ? '+' : '-'}${c.currency}#${c.amount}`,
    kind: 'an adjustment',
    begin: (w, m) => beginAdjust(w, m, c.partner, c.currency, c.amount, c.give),
  }));
  const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
  const freshTx = fc.record({ fresh: hex64, currency: fc.constantFrom<Currency>('USD', 'TON'), network: fc.constantFrom<Network>('ton', 'trc20', 'bep20'), amount: fc.nat(2) });
  const creditOp: fc.Arbitrary<Op> = fc.record({ partner, tx: fc.oneof(freshTx, fc.record({ reuse: fc.nat(30) })), spelling }).map((c) => {
    const t = c.tx;
    return {
      label: `support credits p${c.partner} ${'fresh' in t ? `new tx ${t.fresh.slice(0, 8)} ${t.currency}/${t.network}/${t.amount}` : `tx#${t.reuse}`} (${c.spelling})`,
      kind: 'a support credit',
      begin: (w, m) => beginOperatorTopup(w, m, c.partner, c.tx, c.spelling, actions.canonicalHashes),
    };
  });
  const requestOp: fc.Arbitrary<Op> = fc.record({ partner, currency: fc.constantFrom<Currency>('USD', 'TON'), amount: fc.nat(1) }).map((c) => ({
    label: `top-up request p${c.partner} ${c.currency}#${c.amount}`,
    kind: 'a top-up request',
    begin: (w, m) => beginRequestTopup(w, m, c.partner, c.currency, c.amount),
  }));
  if (world === 'fragment') return fragmentCommands(actions, adjustOp, creditOp);
  const anyOp = fc.oneof(ordersOp, clockOp, transferOp, resolveOp, cancelOp, depositOp, requestCancelOp, creditOp, requestOp, ...(actions.adjustments ? [adjustOp] : []));
  return [
    ...(actions.adjustments ? [adjustOp.map(step)] : []),
    ordersOp.map(step),
    ordersOp.map(step),
    clockOp.map(step),
    clockOp.map(step),
    stopStart,
    killDuring(anyOp),
    creditOp.map(step),
    requestOp.map(step),
    requestOp.map(step),
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

/**
 * A Fragment history's clock moves by seconds, minutes or a few hours (a month passes in the drain): every second
 * an order waits for a batch is a step of its own (it asks again each second), and a supplier in trouble keeps
 * orders waiting, so then at most 10 minutes.
 */
const fragmentJump = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 20 }), weight: 6 },
  { arbitrary: fc.integer({ min: 20, max: 900 }), weight: 3 },
  { arbitrary: fc.integer({ min: 900, max: 6 * 3_600 }), weight: 1 },
);
const FRAGMENT_FAULT_JUMP_MAX = 600;

/**
 * The steps of a Fragment history (sim/fragment-stand.ts): Stars and Premium orders paid in batches from the hot
 * wallet on the fake chain, support's actions, kills anywhere and at the batch's worst instants, Fragment's and
 * toncenter's troubles, transfers kept from the chain surfacing late, prices moving, the wallet funded. No
 * sandbox routes exist in this mode: no transfers, no gifts, no simulated faults.
 */
function fragmentCommands(actions: ActionSet, adjustOp: fc.Arbitrary<Op>, creditOp: fc.Arbitrary<Op>): fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] {
  const fOrdersOp: fc.Arbitrary<Op> = fc.record({ partner, specs: fragmentSpecs }).map((o) => ({ label: fmtOrders(o.partner, o.specs), kind: 'orders', begin: async (w, m) => beginOrders(w, m, o.partner, o.specs) }));
  const fClockOp: fc.Arbitrary<Op> = fragmentJump.map((s) => ({
    label: `clock +${s}s`,
    kind: 'a clock jump',
    begin: async (w, m) => {
      const seconds = m.faultsOn ? Math.min(s, FRAGMENT_FAULT_JUMP_MAX) : s;
      saw(m, seconds >= 3_600 ? 'clock: hours or days' : 'clock: seconds or minutes');
      return [beginAdvance(w, seconds)];
    },
  }));
  const anyOp = fc.oneof(fOrdersOp, fClockOp, resolveOp, cancelOp, creditOp, ...(actions.adjustments ? [adjustOp] : []));
  const seconds = fc.integer({ min: 1, max: 20 });
  // a kill at a batch's instant places orders of its own first, most of the time (else no batch may form)
  const withOrders = fc.option(fc.record({ partner, specs: fragmentSpecs }), { freq: 5, nil: null });
  const atSend = fc
    .record({ then: weighted<SendThen>(['executed', 2], ['held', 2], ['lost', 1]), seconds, orders: withOrders })
    .map(
      (c) =>
        new Step(`${c.orders ? `${fmtOrders(c.orders.partner, c.orders.specs)}, then ` : ''}kill as the next batch reaches toncenter (${c.then}) within clock +${c.seconds}s, restart`, (w, m) =>
          killAtSend(w, m, c.then, c.seconds, c.orders ? async (w2, m2) => beginOrders(w2, m2, c.orders!.partner, c.orders!.specs) : null),
        ),
    );
  const atReceipts = fc
    .record({ seconds: fc.integer({ min: 2, max: 20 }), orders: withOrders })
    .map(
      (c) =>
        new Step(`${c.orders ? `${fmtOrders(c.orders.partner, c.orders.specs)}, then ` : ''}kill as a batch's receipts are read within clock +${c.seconds}s, restart`, (w, m) =>
          killAtReceipts(w, m, c.seconds, c.orders ? async (w2, m2) => beginOrders(w2, m2, c.orders!.partner, c.orders!.specs) : null),
        ),
    );
  const faults: fc.Arbitrary<FragmentFaults> = fc.oneof(
    { arbitrary: fc.constant(NO_FRAGMENT_FAULTS), weight: 2 },
    {
      arbitrary: fc.record({
        api: weighted<FragmentFaults['api']>(['ok', 4], ['down', 1], ['rate_limited', 1]),
        send: weighted<FragmentFaults['send']>(['ok', 3], ['drop', 2], ['fail500', 1]),
        index: weighted([false, 4], [true, 1]),
        wallet: weighted([false, 5], [true, 1]),
      }),
      weight: 1,
    },
  );
  return [
    ...(actions.adjustments ? [adjustOp.map(step)] : []),
    fOrdersOp.map(step),
    fOrdersOp.map(step),
    fOrdersOp.map(step),
    fClockOp.map(step),
    fClockOp.map(step),
    fClockOp.map(step),
    stopStart,
    killDuring(anyOp),
    atSend,
    atSend,
    atReceipts,
    creditOp.map(step),
    racing(resolveOp),
    racing(cancelOp),
    faults.map((f) => new Step(`fragment faults: api ${f.api}, send ${f.send}${f.index ? ', index down' : ''}${f.wallet ? ', wallet state down' : ''}`, async (w, m) => setFragmentFaults(w, m, f))),
    fc.constant(null).map(() => new Step('transfers kept from the chain reach it', (w, m) => surfaceHeld(w, m))),
    fc.constantFrom<number | null>(1.1, 0.95, null).map((f) => new Step(f === null ? "Fragment's prices back" : `Fragment's prices ×${f}`, async (w, m) => movePrices(w, m, f))),
    fc.constantFrom('20', '100').map((ton) => new Step(`the operator funds the hot wallet with ${ton} TON`, (w, m) => fundWallet(w, m, ton))),
    fc.constant(null).map(() => new Step('Premium subscriptions end', async (w, m) => subscriptionsEnd(w, m))),
  ];
}
