import { fail } from '../../domain/errors.js';
import { isFinal } from '../../domain/order-machine.js';
import { orderView } from '../../domain/order-view.js';
import { countPartnerOrders, getOrder, listOrderIds, type OrderRow } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import { encodeCursor } from '../paging.js';
import type { OrderExportInput, OrderListInput } from '../requests/queries.js';

/** GET /orders/{id}: own orders only; another partner's order is "not found" too. */
export function getOwnOrder(deps: Pick<Deps, 'db'>, partnerId: number, orderId: string) {
  const o = getOrder(deps.db, orderId);
  if (!o || o.partnerId !== partnerId) fail('not_found', 'Order not found.');
  return committedOrderView(o);
}

/**
 * GET /orders/{id}?wait=N: the order as soon as it is final, or after N seconds of service clock as it is
 * then (an order already final answers at once). Without `wait` it is getOwnOrder. `clientGone` gives a signal that ends the wait early.
 */
export async function readOwnOrder(deps: Pick<Deps, 'db' | 'orderWaits'>, caller: { partnerId: number; keyId: string }, orderId: string, seconds: number, clientGone: () => AbortSignal) {
  getOwnOrder(deps, caller.partnerId, orderId);
  const done = () => {
    const o = getOrder(deps.db, orderId);
    return !o || isFinal(o.status, o.reviewStage !== null);
  };
  if (!done()) await deps.orderWaits.wait(caller.keyId, orderId, seconds, done, clientGone());
  return getOwnOrder(deps, caller.partnerId, orderId);
}

/**
 * The view of a committed order row from getOrder: made once per row object (a changed order is a
 * new row object), since partners poll the same orders. Frozen: the same object answers every poll.
 */
const views = new WeakMap<object, Readonly<Record<string, unknown>>>();
export function committedOrderView(o: Readonly<OrderRow>): Readonly<Record<string, unknown>> {
  let v = views.get(o);
  if (!v) {
    v = Object.freeze(orderView(o));
    views.set(o, v);
  }
  return v;
}

export type OrderFilters = Omit<OrderExportInput, 'client_reference'> & { clientReference?: string };

/** The filters of GET /orders' CSV export (partner and operator API). */
export function orderExportFilters(q: OrderExportInput): OrderFilters {
  const { client_reference: clientReference, ...f } = q;
  return { ...f, clientReference };
}

/** How many orders the partner has in all (the bot's page count). */
export function countOwnOrders(deps: Pick<Deps, 'db'>, partnerId: number): number {
  return countPartnerOrders(deps.db, partnerId);
}

/** GET /orders: newest first, keyset paging by an opaque cursor. */
export function listOwnOrders(deps: Pick<Deps, 'db'>, partnerId: number, q: OrderListInput) {
  const { status, type, client_reference: clientReference, from, to, cursor: beforeSeq, limit } = q;
  const ids = listOrderIds(deps.db, { partnerId, status, type, clientReference, from, to, beforeSeq, limit: limit + 1 });
  const page = ids.slice(0, limit);
  return {
    // partners poll their first page: the rows and their views mostly come from memory
    items: page.map((o) => committedOrderView(getOrder(deps.db, o.orderId)!)),
    count: page.length,
    next_cursor: ids.length > limit ? encodeCursor('o', page[page.length - 1].seq) : null,
  };
}
