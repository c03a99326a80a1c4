import { isOrderStatus, isOrderType } from '../../domain/enums.js';
import { fail } from '../../domain/errors.js';
import { orderView } from '../../domain/order-view.js';
import { parseTimeFilter } from '../../domain/time-format.js';
import { getOrder, listOrderIds, type OrderRow } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import { decodeCursor, encodeCursor, parseLimit } from '../paging.js';

export const ORDERS_PAGE_DEFAULT = 50;
export const ORDERS_PAGE_MAX = 200;
const KNOWN = new Set(['status', 'type', 'from', 'to', 'cursor', 'limit']);

/** GET /orders/{id}: own orders only; another partner's order is "not found" too. */
export function getOwnOrder(deps: Deps, partnerId: number, orderId: string) {
  const o = getOrder(deps.db, orderId);
  if (!o || o.partnerId !== partnerId) fail('not_found', 'Order not found.');
  return committedOrderView(o);
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

/** GET /orders: newest first, keyset paging by an opaque cursor. */
export function listOwnOrders(deps: Deps, partnerId: number, q: Record<string, unknown>) {
  for (const k of Object.keys(q)) if (!KNOWN.has(k)) fail('bad_param', `Unknown query parameter: ${k}.`, { param: k });
  for (const [k, v] of Object.entries(q)) if (typeof v !== 'string') fail('bad_param', `${k} is given more than once.`, { param: k });
  const status = q.status as string | undefined;
  if (status !== undefined && !isOrderStatus(status)) fail('bad_status');
  const type = q.type as string | undefined;
  if (type !== undefined && !isOrderType(type)) fail('bad_type');
  const from = q.from === undefined ? undefined : parseTimeFilter(q.from as string) ?? fail('bad_time', 'from is not a valid time.');
  const to = q.to === undefined ? undefined : parseTimeFilter(q.to as string) ?? fail('bad_time', 'to is not a valid time.');
  const limit = parseLimit(q.limit, ORDERS_PAGE_DEFAULT, ORDERS_PAGE_MAX);
  const beforeSeq = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'o');
  const ids = listOrderIds(deps.db, { partnerId, status, type, from, to, beforeSeq, limit: limit + 1 });
  const page = ids.slice(0, limit);
  return {
    // partners poll their first page: the rows and their views mostly come from memory
    items: page.map((o) => committedOrderView(getOrder(deps.db, o.orderId)!)),
    count: page.length,
    next_cursor: ids.length > limit ? encodeCursor('o', page[page.length - 1].seq) : null,
  };
}
