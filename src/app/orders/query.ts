import { isOrderStatus, isOrderType } from '../../domain/enums.js';
import { CLIENT_REFERENCE_MAX, isClientReference } from '../../domain/client-reference.js';
import { fail } from '../../domain/errors.js';
import { isFinal } from '../../domain/order-machine.js';
import { orderView } from '../../domain/order-view.js';
import { parseTimeFilter } from '../../domain/time-format.js';
import { getOrder, listOrderIds, type OrderRow } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';
import { decodeCursor, encodeCursor, parseLimit } from '../paging.js';
import { WAIT_MAX_SECONDS } from './waits.js';

export const ORDERS_PAGE_DEFAULT = 50;
export const ORDERS_PAGE_MAX = 200;
const KNOWN = new Set(['status', 'type', 'client_reference', 'from', 'to', 'cursor', 'limit']);

/** GET /orders/{id}: own orders only; another partner's order is "not found" too. */
export function getOwnOrder(deps: Pick<Deps, 'db'>, partnerId: number, orderId: string) {
  const o = getOrder(deps.db, orderId);
  if (!o || o.partnerId !== partnerId) fail('not_found', 'Order not found.');
  return committedOrderView(o);
}

/**
 * GET /orders/{id}?wait=N: the order as soon as it is final, or after N seconds of service clock as it is
 * then (an order already final answers at once). Without `wait` it is getOwnOrder. Other query parameters
 * are ignored, as they always were on this endpoint. `clientGone` gives a signal that ends the wait early.
 */
export async function readOwnOrder(deps: Pick<Deps, 'db' | 'orderWaits'>, caller: { partnerId: number; keyId: string }, orderId: string, q: Record<string, unknown>, clientGone: () => AbortSignal) {
  const seconds = parseWait(q.wait);
  const first = getOwnOrder(deps, caller.partnerId, orderId);
  if (seconds === undefined) return first;
  const done = () => {
    const o = getOrder(deps.db, orderId);
    return !o || isFinal(o.status, o.reviewStage !== null);
  };
  if (!done()) await deps.orderWaits.wait(caller.keyId, orderId, seconds, done, clientGone());
  return getOwnOrder(deps, caller.partnerId, orderId);
}

/** `wait`: whole seconds from 1 to 30, else 400 bad_param naming it. */
export function parseWait(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') fail('bad_param', 'wait is given more than once.', { param: 'wait' });
  const n = /^\d{1,2}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= WAIT_MAX_SECONDS)) fail('bad_param', `wait must be a whole number of seconds from 1 to ${WAIT_MAX_SECONDS}.`, { param: 'wait' });
  return n;
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

export interface OrderFilters {
  status?: string;
  type?: string;
  clientReference?: string;
  from?: number;
  to?: number;
}

/** The filters of GET /orders, shared with its CSV export (which knows no `cursor` or `limit`). */
export function parseOrderFilters(q: Record<string, unknown>, known: Set<string> = KNOWN): OrderFilters {
  for (const k of Object.keys(q)) if (!known.has(k)) fail('bad_param', `Unknown query parameter: ${k}.`, { param: k });
  for (const [k, v] of Object.entries(q)) if (typeof v !== 'string') fail('bad_param', `${k} is given more than once.`, { param: k });
  const status = q.status as string | undefined;
  if (status !== undefined && !isOrderStatus(status)) fail('bad_status');
  const type = q.type as string | undefined;
  if (type !== undefined && !isOrderType(type)) fail('bad_type');
  const clientReference = q.client_reference as string | undefined;
  if (clientReference !== undefined && !isClientReference(clientReference))
    fail('bad_param', `client_reference must be 1 to ${CLIENT_REFERENCE_MAX} printable characters.`, { param: 'client_reference' });
  const from = q.from === undefined ? undefined : parseTimeFilter(q.from as string) ?? fail('bad_time', 'from is not a valid time.');
  const to = q.to === undefined ? undefined : parseTimeFilter(q.to as string) ?? fail('bad_time', 'to is not a valid time.');
  return { status, type, clientReference, from, to };
}

/** GET /orders: newest first, keyset paging by an opaque cursor. */
export function listOwnOrders(deps: Pick<Deps, 'db'>, partnerId: number, q: Record<string, unknown>) {
  const { status, type, clientReference, from, to } = parseOrderFilters(q);
  const limit = parseLimit(q.limit, ORDERS_PAGE_DEFAULT, ORDERS_PAGE_MAX);
  const beforeSeq = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'o');
  const ids = listOrderIds(deps.db, { partnerId, status, type, clientReference, from, to, beforeSeq, limit: limit + 1 });
  const page = ids.slice(0, limit);
  return {
    // partners poll their first page: the rows and their views mostly come from memory
    items: page.map((o) => committedOrderView(getOrder(deps.db, o.orderId)!)),
    count: page.length,
    next_cursor: ids.length > limit ? encodeCursor('o', page[page.length - 1].seq) : null,
  };
}
