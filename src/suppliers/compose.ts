import type { GiftMarket, GoodsSupplier, RecipientResolver, Suppliers } from './types.js';

/** The Stars and Premium side of a supplier adapter (the sandbox or Fragment) and its recipient resolver. */
export interface GoodsSide {
  name: string;
  resolver: RecipientResolver;
  goods: GoodsSupplier;
}

/**
 * The suppliers the service runs with: Stars and Premium from one adapter (UPSTREAM), gifts from another
 * (GIFTS_UPSTREAM). Neither adapter knows the other.
 */
export function composeSuppliers(goods: GoodsSide, gifts: GiftMarket): Suppliers {
  return { name: goods.name, resolver: goods.resolver, goods: goods.goods, gifts };
}
