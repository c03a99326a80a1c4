import { fail } from '../../domain/errors.js';
import { DuplicateEntry } from '../../domain/ledger-rules.js';
import { findTransition, isFinal, phaseOf, refundReason, type Trigger } from '../../domain/order-machine.js';
import { refundData, webhookOrderData } from '../../domain/order-view.js';
import type { Tx } from '../../store/db.js';
import { postEntry } from '../../store/ledger-repo.js';
import { updateOrder, type NewOrder, type OrderRow } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import type { AfterCommit } from '../unit-of-work.js';
import { recordEvent } from '../webhooks/outbox.js';
import { ORDER_KINDS } from './kinds/index.js';

export class TransitionRefused extends Error {}

/**
 * Applies one transition of the order machine inside the caller's transaction: the new state, the refund
 * entry when the transition refunds, and the outbox events, all in that one transaction.
 */
export function applyTransition(
  tx: Tx,
  deps: Pick<Deps, 'clock' | 'ids' | 'bus' | 'wake'>,
  after: AfterCommit,
  order: OrderRow,
  on: Trigger,
  patch: Partial<Pick<NewOrder, 'stage' | 'failureStage' | 'failureReason' | 'delivery' | 'reviewStage'>> = {},
): OrderRow {
  const phase = phaseOf(order.status, order.reviewStage !== null);
  const tr = findTransition(order.type, phase, on);
  if (!tr) throw new TransitionRefused(`${order.orderId}: ${on} is not allowed from ${phase}`);
  const now = deps.clock.now();
  const set: Partial<NewOrder> = { status: tr.to, updatedAt: now, ...patch };
  if (tr.review === 'start') {
    set.reviewStage = patch.reviewStage ?? patch.stage ?? 'review';
    set.reviewSince = now;
  } else if (tr.review === 'end') {
    set.reviewStage = null;
    set.reviewSince = null;
  }
  if (tr.to === 'completed') set.completedAt = now;
  if (tr.to !== 'processing') set.stage = patch.stage ?? 'done';
  if (tr.refund) {
    if (order.refunded) throw new TransitionRefused(`${order.orderId} is already refunded`);
    try {
      postEntry(tx, { partnerId: order.partnerId, currency: order.currency, kind: 'order_refund', amount: order.amount, orderId: order.orderId, now });
    } catch (e) {
      // the database's unique index holds one refund per order, whatever the row said: refused as above
      if (e instanceof DuplicateEntry) throw new TransitionRefused(`${order.orderId} is already refunded`);
      throw e;
    }
    set.refunded = true;
  }
  const updated = updateOrder(tx, order.orderId, set);
  // What the order held while unfinished (an NFT order's gift) is given back by its outcome.
  if (updated.status !== 'processing') ORDER_KINDS[updated.type].release(tx, updated);
  for (const event of tr.events) {
    const data = event === 'order.refunded' ? refundData(updated, refundReason(updated.type, on)) : webhookOrderData(updated);
    recordEvent(tx, deps, after, { partnerId: updated.partnerId, orderId: updated.orderId, event, data, orderWebhookUrl: updated.webhookUrl });
  }
  const reason = updated.failureReason ?? null;
  after(() => deps.bus.emit('ops', { kind: 'order_state', orderId: updated.orderId, partnerId: updated.partnerId, type: updated.type, from: order.status, to: updated.status, final: isFinal(updated.status, updated.reviewStage !== null), refunded: Boolean(tr.refund), reason, createdAt: updated.createdAt, at: now }));
  if (tr.review === 'start')
    after(() => deps.bus.emit('alert', { kind: 'review', orderId: updated.orderId, partnerId: updated.partnerId, stage: String(set.reviewStage) }));
  return updated;
}

/** For operator actions: a refused transition is a 409 with the given code. */
export function transitionOr409(fn: () => OrderRow, code: 'not_in_review' | 'not_cancelable'): OrderRow {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TransitionRefused) fail(code);
    throw e;
  }
}
