import type { EventBus } from '../kernel/event-bus.js';
import type { Suppliers } from '../suppliers/types.js';

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
