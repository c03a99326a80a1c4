import type { Texts } from '../texts/index.js';
import type { TeamDigest } from '../../src/app/order-digest.js';
import { amount, count, handledAt, zonedTime } from './format.js';
import type { OrderInfo, ReceiptInfo } from './model.js';
import { described } from './order.js';

/** What partners' chats are told unasked: an order's outcome, a webhook given up, a top-up, a low balance. */

/** The receipt of a delivered order: what, for whom, the price and the balance after, when (and who ordered, outside the orderer's own chat). */
export function completed(t: Texts, r: ReceiptInfo, by?: string): string {
  const w = t.notify;
  return [
    r.checked ? w.completedChecked(r.number) : w.completed(r.number),
    described(t, r),
    w.paid(amount(t.lang, r.partner_price), r.currency, r.balanceAfter === null ? null : amount(t.lang, r.balanceAfter)),
    w.at(zonedTime(r.completed_at ?? r.created_at)),
    ...(r.giftUrl ? [w.giftPage(r.giftUrl)] : []),
    ...(by ? [by] : []),
  ].join('\n');
}

/** The order went to a manual check by support (told once, when it starts). */
export const inReview = (t: Texts, o: OrderInfo) => t.notify.inReview(o.number, described(t, o));

/** The receipt of a failed order: why, that it was refunded (support's check said so), the balance after, what next. */
export function failed(t: Texts, r: ReceiptInfo, by?: string): string {
  if (!r.refunded) return inReview(t, r);
  const w = t.notify;
  const next = w.next[r.failureReason ?? ''] ?? w.nextOther;
  return [
    r.checked ? w.failedChecked(r.number) : w.failed(r.number),
    described(t, r),
    w.why(t.shared.failureWhy(r)),
    w.refunded(amount(t.lang, r.partner_price), r.currency, r.balanceAfterRefund === null ? null : amount(t.lang, r.balanceAfterRefund)),
    next,
    ...(by ? [by] : []),
  ].join('\n');
}

/** The daily digest of the team's completed orders (a window of service clock, in ms). */
export function digest(t: Texts, d: TeamDigest, from: number, to: number): string {
  const w = t.notify;
  const spent = (Object.entries(d.spent) as [string, string][]).map(([c, v]) => `${amount(t.lang, v)} ${c}`).join(' · ');
  return [
    w.digestTitle(d.count, handledAt(from), handledAt(to)),
    ...(d.stars.orders ? [w.digestStars(d.stars.orders, count(t.lang, d.stars.quantity))] : []),
    ...(d.premium.orders ? [w.digestPremium(d.premium.orders)] : []),
    ...(d.gifts.orders ? [w.digestGifts(d.gifts.orders)] : []),
    ...(spent ? [w.digestSpent(spent)] : []),
    w.digestFoot,
  ].join('\n');
}

/** A webhook event in words: the “order completed” event. */
export const eventName = (t: Texts, event: string) => t.event[event] ?? t.eventOther(event);

/** Why a webhook delivery was given up, in words (the dispatcher's `HTTP 500`, `timeout`, a refusal reason, a network error). */
export function webhookWhy(t: Texts, reason: string): string {
  const w = t.webhookWhy;
  const http = /^HTTP (\d{3})$/.exec(reason);
  if (http) return w.http(http[1]);
  if (reason === 'timeout' || reason === 'dns_failure' || reason === 'private_address' || reason === 'no_secret') return w[reason];
  const refused = t.shared.webhookReasons[reason];
  if (refused) return w.refused(refused);
  return w.other(reason);
}

/** A balance fell below the owner's threshold. */
export const balanceLow = (t: Texts, currency: string, balance: string, threshold: string) => t.notify.balanceLow(currency, amount(t.lang, balance), amount(t.lang, threshold));

export const webhookGaveUp = (t: Texts, event: string, orderId: string, reason: string) => t.notify.webhookGaveUp(eventName(t, event), orderId, webhookWhy(t, reason));
