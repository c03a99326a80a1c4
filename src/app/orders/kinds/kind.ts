import type { Currency } from '../../../domain/money.js';
import type { OrderType } from '../../../domain/order-machine.js';
import type { Tx } from '../../../store/db.js';
import type { OrderRow } from '../../../store/orders-repo.js';
import type { Recipient } from '../../../suppliers/types.js';
import type { Deps } from '../../deps.js';

/** The kind-specific fields of a new order, fixed before its transaction. */
export interface PricedOrder {
  currency: Currency;
  /** the debit, in the currency's minor units */
  amount: number;
  /** what the supplier charges for it, same currency and units: the cost the price was made from */
  supplierCost: number | null;
  quantity: number;
  priceUsdRef: number | null;
  gift: Record<string, unknown> | null;
  /** NFT: the gift as fixed at order time (stored in typed columns; the market is never paid more than `priceMilli`) */
  fixedGift: { id: string; collection: string; priceMilli: number } | null;
  /** the order id when the kind names it itself (NFT: `pa_<uuid>`); otherwise `PA-<seq>` */
  orderId: string | null;
}

/** The first run of the `order.process` job: its stage and how long after creation it is worth running. */
export interface FirstRun {
  stage: string;
  afterMs: number;
}

/** What a kind of order may use: the price table, the product switches, the market, ids and the clock. */
export type KindDeps = Pick<Deps, 'clock' | 'config' | 'ids' | 'suppliers' | 'settings'>;

/**
 * One kind of order (Stars and Premium goods, NFT gifts), in the phases of createOrder
 * (partner-api.md "Rules of order creation"). `P` is what the kind reads from `params`.
 */
export interface OrderKind<P extends { recipient: string } = { recipient: string }> {
  readonly type: OrderType;
  /** Step 3: the params' syntax (src/app/requests/), the product's availability, the price table; nothing claimed yet. */
  parseParams(deps: KindDeps, params: Record<string, unknown>): P;
  /** Step 4: the price for the resolved recipient (the key is claimed; may ask the market). */
  priceFor(deps: KindDeps, params: P, recipient: Recipient): Promise<PricedOrder> | PricedOrder;
  /** Step 5, in the creating transaction before the debit: take what an unfinished order holds, or refuse. */
  reserve(tx: Tx, deps: KindDeps, priced: PricedOrder, orderId: string, recipient: Recipient): void;
  /** In the transaction that ends the order: give back what `reserve` took. */
  release(tx: Tx, order: OrderRow): void;
  firstRun(deps: KindDeps): FirstRun;
  /**
   * How long after its creation an unfinished order of this kind gives up. Its processor checks it on every
   * run of the order's job, whatever the supplier answered (a supplier that keeps asking to wait included),
   * and never schedules a run past it; what giving up does is the processor's (money that may have gone
   * goes to manual review, never refunded automatically).
   */
  readonly giveUpMs: number;
}
