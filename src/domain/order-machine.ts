/**
 * The order state machine: every allowed transition in one table (partner-api.md "States and transitions").
 *
 * A machine state is the public status plus whether the order waits for manual review: a Stars order whose
 * transfer was sent but not confirmed reads `failed` with `refunded: false` while in review; an NFT order
 * bought but not transferred stays `processing` in review.
 */
import type { OrderStatus, OrderType } from './enums.js';

export type { OrderStatus, OrderType } from './enums.js';
export type Phase = 'processing' | 'review' | 'completed' | 'failed' | 'canceled';
export type EventKind = 'order.completed' | 'order.failed' | 'order.refunded';
export type RefundReason = 'stars_failed' | 'premium_canceled' | 'nft_failed' | 'nft_manual_refund';

export type Trigger =
  | 'delivered' // supplier confirmed delivery
  | 'delivery_failed' // goods not delivered: automatic refund
  | 'deferred' // Premium: the account has an active subscription; retry tomorrow
  | 'unconfirmed' // Stars: transfer sent, delivery not confirmed: review
  | 'stuck' // NFT: bought, transfer failed: review
  | 'review_delivered' // operator: the review ends in delivery
  | 'review_refunded' // operator: the review ends in a refund
  | 'expired' // Premium: not delivered within 365 days
  | 'support_cancel'; // operator: cancel a waiting Premium order

export interface Transition {
  from: Phase;
  on: Trigger;
  types: readonly OrderType[];
  to: OrderStatus;
  review: 'start' | 'end' | 'none';
  refund: boolean;
  events: readonly EventKind[];
}

const ALL: readonly OrderType[] = ['stars', 'premium', 'nft'];
const t = (from: Phase, on: Trigger, types: readonly OrderType[], to: OrderStatus, review: Transition['review'], refund: boolean, events: readonly EventKind[]): Transition => ({
  from, on, types, to, review, refund, events,
});

export const TRANSITIONS: readonly Transition[] = [
  t('processing', 'delivered', ALL, 'completed', 'none', false, ['order.completed']),
  t('processing', 'delivery_failed', ALL, 'failed', 'none', true, ['order.refunded', 'order.failed']),
  t('processing', 'deferred', ['premium'], 'processing', 'none', false, []),
  t('processing', 'unconfirmed', ['stars'], 'failed', 'start', false, []),
  // Premium paid from the hot wallet whose payment could not be confirmed (UPSTREAM=fragment): it stays
  // `processing`, as an unfinished Premium order does, until the review ends.
  t('processing', 'unconfirmed', ['premium'], 'processing', 'start', false, []),
  t('processing', 'stuck', ['nft'], 'processing', 'start', false, []),
  t('review', 'review_delivered', ALL, 'completed', 'end', false, ['order.completed']),
  t('review', 'review_refunded', ALL, 'failed', 'end', true, ['order.refunded', 'order.failed']),
  t('processing', 'expired', ['premium'], 'failed', 'none', true, ['order.refunded', 'order.failed']),
  t('processing', 'support_cancel', ['premium'], 'canceled', 'none', true, ['order.refunded', 'order.failed']),
];

export function phaseOf(status: OrderStatus, inReview: boolean): Phase {
  if (inReview) return 'review';
  if (status === 'partial') return 'processing';
  return status;
}

export const PHASES: readonly Phase[] = ['processing', 'review', 'completed', 'failed', 'canceled'];

/**
 * The phases no transition of the table leaves: an order in one has its outcome. Derived from TRANSITIONS,
 * so "is this order final?" has one answer everywhere (the order wait, metrics, the bot, the Mini App):
 * completed, or failed/canceled outside manual review. A Stars order that reads `failed` while in review is
 * not final yet.
 */
export const FINAL_PHASES: ReadonlySet<Phase> = new Set(PHASES.filter((p) => !TRANSITIONS.some((x) => x.from === p)));

/** Whether the order has its outcome (see FINAL_PHASES). */
export function isFinal(status: OrderStatus, inReview: boolean): boolean {
  return FINAL_PHASES.has(phaseOf(status, inReview));
}

/** The transition for a trigger, or null when the order's phase does not allow it. */
export function findTransition(type: OrderType, phase: Phase, on: Trigger): Transition | null {
  return TRANSITIONS.find((x) => x.from === phase && x.on === on && x.types.includes(type)) ?? null;
}

/** The `reason` of `order.refunded` for a refunding transition. */
export function refundReason(type: OrderType, on: Trigger): RefundReason {
  if (type === 'stars') return 'stars_failed';
  if (type === 'premium') return 'premium_canceled';
  return on === 'review_refunded' ? 'nft_manual_refund' : 'nft_failed';
}
