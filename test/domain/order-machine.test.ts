import { describe, expect, it } from 'vitest';
import {
  FINAL_PHASES,
  TRANSITIONS,
  findTransition,
  isFinal,
  phaseOf,
  refundReason,
  type EventKind,
  type OrderStatus,
  type OrderType,
  type Phase,
  type Trigger,
} from '../../src/domain/order-machine.js';

/**
 * The transition table against partner-api.md "States and transitions" (and operator-api.md for the
 * review outcomes and support's cancel). Every (phase, trigger, order type) triple is listed: the ones
 * below are allowed with the written outcome, every other one is refused (findTransition → null).
 */
const TYPES: OrderType[] = ['stars', 'premium', 'nft'];
const PHASES: Phase[] = ['processing', 'review', 'completed', 'failed', 'canceled'];
const TRIGGERS: Trigger[] = [
  'delivered',
  'delivery_failed',
  'deferred',
  'unconfirmed',
  'stuck',
  'review_delivered',
  'review_refunded',
  'expired',
  'support_cancel',
];

interface Outcome {
  to: OrderStatus;
  review: 'start' | 'end' | 'none';
  refund: boolean;
  events: EventKind[];
}

// Emission rule 1: a failed order whose money is returned emits both order.refunded and order.failed.
const REFUND_EVENTS: EventKind[] = ['order.refunded', 'order.failed'];
const completed = (review: Outcome['review']): Outcome => ({ to: 'completed', review, refund: false, events: ['order.completed'] });
const refunded = (to: OrderStatus, review: Outcome['review']): Outcome => ({ to, review, refund: true, events: REFUND_EVENTS });
const allTypes = (o: Outcome) => ({ stars: o, premium: o, nft: o });

const ALLOWED: Partial<Record<`${Phase} ${Trigger}`, Partial<Record<OrderType, Outcome>>>> = {
  // "processing → delivery confirmed → completed, order.completed event"
  'processing delivered': allTypes(completed('none')),
  // "processing → delivery failed → failed; automatic refund; order.refunded and order.failed"
  'processing delivery_failed': allTypes(refunded('failed', 'none')),
  // "processing (premium) → recipient already has an active Premium subscription → processing", no money moves
  'processing deferred': { premium: { to: 'processing', review: 'none', refund: false, events: [] } },
  // "processing (stars) → transfer sent but delivery not confirmed → reads as failed with refunded: false;
  // not final; no webhooks until review ends"
  // Premium paid but unconfirmed (README: UPSTREAM=fragment) stays processing, as an unfinished Premium order does.
  'processing unconfirmed': {
    stars: { to: 'failed', review: 'start', refund: false, events: [] },
    premium: { to: 'processing', review: 'start', refund: false, events: [] },
  },
  // "processing (nft) → purchase made, transfer not made → processing; no automatic refund; manual review"
  'processing stuck': { nft: { to: 'processing', review: 'start', refund: false, events: [] } },
  // "processing (premium) → not delivered within 365 days → refunded automatically" (README: failed)
  'processing expired': { premium: refunded('failed', 'none') },
  // operator-api.md POST /orders/{id}/cancel: an unfinished Premium order → canceled, refunded,
  // order.refunded (premium_canceled) and order.failed
  'processing support_cancel': { premium: refunded('canceled', 'none') },
  // operator-api.md POST /orders/{id}/resolve: delivered → order.completed; refunded → refund events;
  // partner-api.md: "manual review ends with a refund → failed"
  'review review_delivered': allTypes(completed('end')),
  'review review_refunded': allTypes(refunded('failed', 'end')),
};

const expectedOf = (phase: Phase, on: Trigger, type: OrderType): Outcome | null => ALLOWED[`${phase} ${on}`]?.[type] ?? null;

const ALL_TRIPLES = PHASES.flatMap((phase) => TRIGGERS.flatMap((on) => TYPES.map((type) => [phase, on, type] as const)));

describe('findTransition: every (phase, trigger, type)', () => {
  it('covers 5 phases × 9 triggers × 3 types', () => {
    expect(ALL_TRIPLES).toHaveLength(135);
  });

  it.each(ALL_TRIPLES.map(([phase, on, type]) => [phase, on, type, expectedOf(phase, on, type)] as const))(
    '%s + %s (%s) → %j',
    (phase, on, type, expected) => {
      const t = findTransition(type, phase, on);
      if (expected === null) {
        expect(t).toBeNull();
        return;
      }
      expect(t).not.toBeNull();
      expect({ to: t!.to, review: t!.review, refund: t!.refund }).toEqual({ to: expected.to, review: expected.review, refund: expected.refund });
      // the contract does not guarantee the arrival order of the two refund events: compare as sets
      expect([...t!.events].sort()).toEqual([...expected.events].sort());
    },
  );
});

describe('the table itself', () => {
  it('uses only the phases and triggers listed here, and allows exactly the triples above', () => {
    for (const t of TRANSITIONS) {
      expect(PHASES).toContain(t.from);
      expect(TRIGGERS).toContain(t.on);
    }
    const allowed = ALL_TRIPLES.filter(([p, on, type]) => expectedOf(p, on, type) !== null).length;
    const inTable = TRANSITIONS.reduce((n, t) => n + t.types.length, 0);
    // 3 delivered + 3 delivery_failed + deferred + 2 unconfirmed + stuck + expired + support_cancel + 3 + 3
    expect(allowed).toBe(18);
    expect(inTable).toBe(allowed);
  });

  it('is deterministic: no two rows for one (phase, trigger, type)', () => {
    const seen = new Set<string>();
    for (const t of TRANSITIONS) {
      for (const type of t.types) {
        const k = `${t.from}/${t.on}/${type}`;
        expect(seen.has(k), k).toBe(false);
        seen.add(k);
      }
    }
  });

  it.each(TRANSITIONS.map((t) => [t.from, t.on, t] as const))('%s + %s: target is a contract status, refund ⇔ both refund events', (_f, _o, t) => {
    expect(['processing', 'completed', 'partial', 'canceled', 'failed']).toContain(t.to);
    expect(t.to).not.toBe('partial'); // partial transitions: "not shown" in the contract
    expect(t.refund).toBe(t.events.includes('order.refunded') && t.events.includes('order.failed'));
    // a review starts only from processing and ends only from review
    if (t.review === 'start') expect(t.from).toBe('processing');
    if (t.review === 'end') expect(t.from).toBe('review');
    if (t.from === 'review') expect(t.review).toBe('end');
    // emission rule 2: no webhooks while a review starts
    if (t.review === 'start') expect(t.events).toEqual([]);
  });
});

describe('refundReason (order.refunded reason values of partner-api.md Events)', () => {
  it.each([
    ['stars', 'delivery_failed', 'stars_failed'],
    ['stars', 'review_refunded', 'stars_failed'],
    ['premium', 'delivery_failed', 'premium_canceled'],
    ['premium', 'expired', 'premium_canceled'],
    ['premium', 'support_cancel', 'premium_canceled'],
    ['premium', 'review_refunded', 'premium_canceled'],
    ['nft', 'delivery_failed', 'nft_failed'],
    ['nft', 'review_refunded', 'nft_manual_refund'],
  ] as const)('%s refunded on %s → %s', (type, on, reason) => {
    expect(refundReason(type, on)).toBe(reason);
  });

  it('has a reason for every refunding transition', () => {
    for (const t of TRANSITIONS.filter((x) => x.refund)) {
      for (const type of t.types) expect(['stars_failed', 'premium_canceled', 'nft_failed', 'nft_manual_refund']).toContain(refundReason(type, t.on));
    }
  });
});

describe('phaseOf and isFinal for every status × review flag', () => {
  it.each([
    // status, in review, phase, final
    ['processing', false, 'processing', false],
    ['processing', true, 'review', false], // nft stuck transfer, Premium unconfirmed
    ['partial', false, 'processing', false], // partial has no shown transitions: treated as unfinished
    ['partial', true, 'review', false],
    ['completed', false, 'completed', true],
    ['completed', true, 'review', false],
    ['failed', false, 'failed', true],
    ['failed', true, 'review', false], // stars: "reads as failed with refunded: false; not final"
    ['canceled', false, 'canceled', true],
    ['canceled', true, 'review', false],
  ] as const)('%s (review %s) → phase %s, final %s', (status, inReview, phase, final) => {
    expect(phaseOf(status, inReview)).toBe(phase);
    expect(isFinal(status, inReview)).toBe(final);
  });

  it('the final phases are exactly those no transition of the table leaves', () => {
    expect([...FINAL_PHASES].sort()).toEqual(['canceled', 'completed', 'failed']);
    for (const phase of PHASES) expect(FINAL_PHASES.has(phase)).toBe(!TRANSITIONS.some((x) => x.from === phase));
  });

  it.each(['completed', 'failed', 'canceled'] as const)('no transition leaves the final phase %s', (phase) => {
    for (const on of TRIGGERS) for (const type of TYPES) expect(findTransition(type, phase, on)).toBeNull();
  });
});
