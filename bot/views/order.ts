import type { Texts } from '../texts/index.js';
import { amount, count, zonedTime } from './format.js';
import type { OrderInfo, Quote } from './model.js';

/** An order as people read it: its state, what it is, the confirmation, the answers after Confirm, /orders and /status. */

/** An order's state in words; an order support is checking reads so (a gift in review is `processing` by its status). */
export function status(t: Texts, o: OrderInfo): string {
  if (o.inReview || (o.status === 'failed' && !o.refunded)) return t.statusInReview;
  return t.status[o.status] ?? o.status;
}

const to = (o: OrderInfo) => `@${o.recipient.replace(/^@/, '')}`;

/**
 * "100 stars for @alice" in the reader's language, numbers written as the language writes them. (The
 * order's `label` is the API's Russian text: a chat shows the order in its own words instead.)
 */
export function described(t: Texts, o: OrderInfo): string {
  return o.type === 'stars' ? t.what.stars(o.quantity, to(o), count(t.lang, o.quantity)) : o.type === 'premium' ? t.what.premium(o.quantity, to(o)) : t.what.gift(o.gift ?? '', to(o));
}

/** An order in a few words (buttons, lists). */
export function what(t: Texts, o: OrderInfo): string {
  if (o.type === 'stars') return t.what.shortStars(count(t.lang, o.quantity));
  if (o.type === 'premium') return t.what.shortPremium(o.quantity);
  return t.what.shortGift(o.gift ?? t.what.aGift);
}

export const chooseStars = (t: Texts, min: number, max: number) => t.order.chooseStars(count(t.lang, min), count(t.lang, max));
export const typeStars = (t: Texts, min: number, max: number) => t.order.typeStars(count(t.lang, min), count(t.lang, max));

/** A typed number of stars out of range, or not a whole number. */
export const starsAtLeast = (t: Texts, min: number, max: number) => t.order.starsAtLeast(count(t.lang, min), count(t.lang, max));
export const starsAtMost = (t: Texts, min: number, max: number) => t.order.starsAtMost(count(t.lang, min), count(t.lang, max));
export const badStars = (t: Texts, min: number, max: number) => t.order.badStars(count(t.lang, min), count(t.lang, max));

/** The confirmation of a Stars or Premium order: what, price, balance before and after. */
export function confirm(t: Texts, q: Quote): string {
  const w = t.order;
  const a = (v: string) => amount(t.lang, v);
  const item = q.product === 'stars' ? w.quoteStars(q.quantity, count(t.lang, q.quantity)) : w.quotePremium(w.months(q.quantity));
  const lines = [q.enough ? w.checkTitle : w.shortTitle, w.quoteFor(item, q.recipient), w.price(a(q.price), q.currency), q.enough ? w.balanceAfter(a(q.balance), a(q.balanceAfter), q.currency) : w.balanceNow(a(q.balance), q.currency)];
  if (q.alreadyPremium) lines.push('', w.alreadyPremium(q.recipient));
  if (!q.enough) lines.push('', w.shortBy(a(q.shortBy), q.currency));
  return lines.join('\n');
}

/** The recipient has an unfinished Premium order: its number when it is this partner's. */
export const pendingPremium = (t: Texts, recipient: string, number: string | null) =>
  number ? t.order.pendingPremium(recipient.replace(/^@/, ''), number) : t.order.pendingPremiumOther(recipient.replace(/^@/, ''));

/** To the owners: a team member needs a top-up for an order. */
export const askedForTopup = (t: Texts, who: string, shortBy: string, currency: string) => t.order.askedForTopup(who, amount(t.lang, shortBy), currency);

export const chosenPremium = (t: Texts, months: number) => t.order.chosenPremium(t.order.months(months));
export const chosenStars = (t: Texts, n: number) => t.order.chosenStars(count(t.lang, n));

/** The question for the recipient under what was chosen, and the one line it folds into once answered. */
export const askRecipient = (t: Texts, chosen?: string) => (chosen ? `${chosen}\n\n${t.order.askRecipient}` : t.order.askRecipient);
export const recipientChosen = (t: Texts, recipient: string, chosen?: string) => (chosen ? `${chosen} → @${recipient.replace(/^@/, '')}` : t.order.recipientChosen(recipient.replace(/^@/, '')));

export const accepted = (t: Texts, o: OrderInfo) => t.order.accepted(o.number, described(t, o), amount(t.lang, o.partner_price), o.currency, status(t, o));

export const already = (t: Texts, o: OrderInfo) => t.order.already(o.number, status(t, o));


/** /status: the whole order. */
export function details(t: Texts, o: OrderInfo): string {
  const w = t.orders;
  return [
    w.heading(o.number),
    described(t, o),
    w.status(status(t, o)),
    w.price(amount(t.lang, o.partner_price), o.currency),
    w.created(zonedTime(o.created_at)),
    ...(o.completed_at ? [w.completed(zonedTime(o.completed_at))] : []),
    ...(o.giftUrl ? [w.giftPage(o.giftUrl)] : []),
    ...(o.status === 'failed' || o.status === 'canceled' ? [w.why(t.shared.failureWhy(o))] : []),
    ...(o.refunded ? [w.moneyBack] : []),
  ].join('\n');
}

/** An order in the /orders list, by its place on the page (its button bears that place). */
export const line = (t: Texts, o: OrderInfo, place: number) => `${place}. ${t.orders.line(what(t, o), to(o), status(t, o), amount(t.lang, o.partner_price), o.currency, zonedTime(o.created_at), o.number)}`;

/** A page of /orders: each order once, numbered; the buttons under it open them by number. */
export const list = (t: Texts, items: OrderInfo[], page: number, pages: number) => [t.orders.title(page, pages), ...items.map((o, i) => line(t, o, i + 1))].join('\n\n');
