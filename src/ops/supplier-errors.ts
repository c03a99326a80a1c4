import type { EventBus } from '../kernel/event-bus.js';
import type { Suppliers } from '../suppliers/types.js';
import { inSpan } from '../kernel/trace.js';

/**
 * The suppliers as the services see them, with every call that throws (or rejects) counted by product
 * for the metrics (`supplier_error` on the bus). The calls and their results are unchanged. A Proxy
 * rather than a wrapper per method: the supplier interfaces grow, and every method is counted the same.
 */
export function countSupplierErrors(s: Suppliers, bus: EventBus): Suppliers {
  const wrap = <T extends object>(target: T, productOf: (args: unknown[]) => string): T =>
    new Proxy(target, {
      get(t, prop, recv) {
        const v = Reflect.get(t, prop, recv);
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          const fail = (e: unknown) => {
            bus.emit('ops', { kind: 'supplier_error', product: productOf(args) });
            throw e;
          };
          try {
            const r = v.apply(t, args);
            return r instanceof Promise ? r.catch(fail) : r;
          } catch (e) {
            return fail(e);
          }
        };
      },
    });
  const goodsProduct = (args: unknown[]) => {
    const p = (args[0] as { product?: unknown } | string | undefined);
    const product = typeof p === 'string' ? p : p?.product;
    return product === 'stars' || product === 'premium' || product === 'nft' ? product : 'goods';
  };
  return {
    name: s.name,
    resolver: wrap(s.resolver, () => 'resolver'),
    goods: wrap(s.goods, goodsProduct),
    gifts: wrap(s.gifts, () => 'nft'),
  };
}

/**
 * Every supplier call in a span of its own (`supplier <part>.<method>`, with the supplier's name and the
 * order's id when the call carries one), when traces are exported: Telegram's MTProto calls have no HTTP span
 * of their own, and the HTTP spans of Fragment and toncenter become its children.
 */
export function traceSupplierCalls(s: Suppliers): Suppliers {
  const wrap = <T extends object>(target: T, part: string): T =>
    new Proxy(target, {
      get(t, prop, recv) {
        const v = Reflect.get(t, prop, recv);
        if (typeof v !== 'function' || typeof prop !== 'string') return v;
        return (...args: unknown[]) => {
          const first = args[0] as { orderId?: unknown; order_id?: unknown; product?: unknown } | undefined;
          const orderId = typeof first === 'object' && first ? (first.orderId ?? first.order_id) : undefined;
          const product = typeof first === 'object' && first && typeof first.product === 'string' ? first.product : undefined;
          return inSpan(`supplier ${part}.${prop}`, { 'supplier.name': s.name, 'order.id': typeof orderId === 'string' ? orderId : undefined, 'supplier.product': product }, () => v.apply(t, args));
        };
      },
    });
  return { name: s.name, resolver: wrap(s.resolver, 'resolver'), goods: wrap(s.goods, 'goods'), gifts: wrap(s.gifts, 'gifts') };
}
