import { amountAsNumber, formatAmount, type Currency } from './money.js';
import { giftLabel, premiumLabel, starsLabel } from './labels.js';
import type { OrderStatus, OrderType, RefundReason } from './order-machine.js';
import { localIso, offsetIso } from './time-format.js';

/** The fields of a stored order that the views need (structurally the `orders` row). */
export interface OrderRecord {
  orderId: string;
  partnerId: number;
  type: OrderType;
  status: OrderStatus;
  amount: number;
  currency: Currency;
  priceUsdRef: number | null;
  quantity: number;
  recipient: string;
  account: string;
  refunded: boolean;
  failureStage: string | null;
  failureReason: string | null;
  gift: Record<string, unknown> | null;
  delivery: Record<string, unknown> | null;
  clientReference: string | null;
  createdAt: number;
  completedAt: number | null;
}

export function orderLabel(o: OrderRecord): string {
  if (o.type === 'stars') return starsLabel(o.quantity, o.account);
  if (o.type === 'premium') return premiumLabel(o.quantity, o.account);
  return giftLabel(String(o.gift?.name ?? 'NFT'), Number(o.gift?.num ?? 0), o.account);
}

/** The order object of partner-api.md "Order", field for field. */
export function orderView(o: OrderRecord, opts: { withRetail: boolean } = { withRetail: true }): Record<string, unknown> {
  const v: Record<string, unknown> = {
    order_id: o.orderId,
    type: o.type,
    status: o.status,
    partner_price: formatAmount(o.amount, o.currency),
    currency: o.currency,
  };
  if (o.type === 'nft') v.price_usd_ref = o.priceUsdRef === null ? null : formatAmount(o.priceUsdRef, 'USD');
  if (opts.withRetail) v.retail = null;
  v.quantity = o.quantity;
  v.recipient = o.recipient;
  v.label = orderLabel(o);
  v.created_at = localIso(o.createdAt);
  v.completed_at = o.completedAt === null ? null : offsetIso(o.completedAt);
  v.refunded = o.refunded;
  v.client_reference = o.clientReference;
  if (o.type === 'nft') {
    v.gift = o.gift;
    v.delivery = o.delivery ?? null;
    v.failure = o.failureReason ? { stage: o.failureStage, reason: o.failureReason } : null;
  }
  return v;
}

/** `data` of order.completed / order.failed: the order without `retail`. */
export function webhookOrderData(o: OrderRecord): Record<string, unknown> {
  return orderView(o, { withRetail: false });
}

/** `data` of order.refunded. */
export function refundData(o: OrderRecord, reason: RefundReason): Record<string, unknown> {
  const d: Record<string, unknown> = {
    order_id: o.orderId,
    refund_amount: amountAsNumber(o.amount, o.currency),
    reason,
    currency: o.currency,
  };
  if (o.type === 'nft') d.refund_amount_ton = formatAmount(o.amount, 'TON');
  d.client_reference = o.clientReference;
  return d;
}
