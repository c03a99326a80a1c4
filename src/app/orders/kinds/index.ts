import type { OrderType } from '../../../domain/order-machine.js';
import { goodsKind } from './goods.js';
import type { OrderKind } from './kind.js';
import { nftKind } from './nft.js';

/** Every kind of order by its `type`. */
export const ORDER_KINDS: Readonly<Record<OrderType, OrderKind>> = {
  stars: goodsKind('stars'),
  premium: goodsKind('premium'),
  nft: nftKind,
};
