import { fail } from '../../domain/errors.js';
import { formatAmount } from '../../domain/money.js';
import { orderNumber } from '../../domain/order-number.js';
import { entriesOfOrder } from '../../store/ledger-repo.js';
import { getOrder } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import { committedOrderView } from './query.js';

/**
 * An order as a receipt shows it (the bot's completion and failure notices, its details): the partner's view
 * of the order, its short number, whether support is checking it now, and the balance right after its debit
 * and after its refund (the ledger's own figures, not today's balance). Another partner's order is not found.
 */
export interface OrderReceipt {
  order: Readonly<Record<string, unknown>>;
  number: string;
  inReview: boolean;
  /** The balance after the order's debit ("98.42"), in the order's currency. */
  balanceAfter: string | null;
  /** The balance after its refund, when it was refunded. */
  balanceAfterRefund: string | null;
}

export function orderReceipt(deps: Pick<Deps, 'db'>, partnerId: number, orderId: string): OrderReceipt {
  const o = getOrder(deps.db, orderId);
  if (!o || o.partnerId !== partnerId) fail('not_found', 'Order not found.');
  const entries = entriesOfOrder(deps.db, orderId);
  const debit = entries.find((e) => e.kind === 'order_debit');
  const refund = entries.find((e) => e.kind === 'order_refund');
  return {
    order: committedOrderView(o),
    number: orderNumber(o.seq),
    inReview: o.reviewStage !== null,
    balanceAfter: debit ? formatAmount(debit.balanceAfter, debit.currency) : null,
    balanceAfterRefund: refund ? formatAmount(refund.balanceAfter, refund.currency) : null,
  };
}

/** Whether support is checking the order now (manual review), for lists that show many orders. */
export function inReview(deps: Pick<Deps, 'db'>, orderId: string): boolean {
  return (getOrder(deps.db, orderId)?.reviewStage ?? null) !== null;
}
