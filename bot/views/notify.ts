import type { Texts } from '../texts/index.js';
import { amount } from './format.js';
import type { OrderInfo } from './model.js';
import { described } from './order.js';

/** What partners' chats are told unasked: an order's outcome, a webhook given up, a top-up, a low balance. */

export function completed(t: Texts, o: OrderInfo): string {
  return [t.notify.completed(o.number, described(t, o)), ...(o.giftUrl ? [t.notify.giftPage(o.giftUrl)] : [])].join('\n');
}

/** The order went to a manual check by support (told once, when it starts). */
export const inReview = (t: Texts, o: OrderInfo) => t.notify.inReview(o.number, described(t, o));

export function failed(t: Texts, o: OrderInfo): string {
  if (!o.refunded) return inReview(t, o);
  const next = t.notify.next[o.failureReason ?? ''] ?? t.notify.nextOther;
  return t.notify.failed(o.number, described(t, o), t.shared.failureWhy(o), amount(t.lang, o.partner_price), o.currency, next);
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
