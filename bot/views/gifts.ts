import type { Texts } from '../texts/index.js';
import { amount } from './format.js';
import type { GiftCollectionInfo, GiftItem, GiftPage, GiftQuote } from './model.js';

/** The gift browser: collections, a page of gifts, the confirmation. */

/** A collection's button; one whose cheapest gift the TON balance cannot pay says so. */
export const collection = (t: Texts, c: GiftCollectionInfo) =>
  t.gifts.collection(c.name, c.count, c.floor_partner_price === null ? null : amount(t.lang, c.floor_partner_price)) + (c.affordable === false ? t.gifts.collectionLocked : '');

const lock = (t: Texts, g: GiftItem) => (g.affordable ? '' : t.gifts.locked);

/** A gift's model, backdrop and symbol, under its line. */
const traits = (g: GiftItem) => `    ${g.attributes.model} · ${g.attributes.backdrop} · ${g.attributes.symbol}`;

const lines = (t: Texts, items: GiftItem[]) => items.flatMap((g, i) => [t.gifts.pageLine(i + 1, g.name, g.num, amount(t.lang, g.partner_price)) + lock(t, g), traits(g)]);

export function page(t: Texts, p: GiftPage): string {
  const w = t.gifts;
  const balance = amount(t.lang, p.balance);
  if (p.affordOnly && !p.items.length) return w.noneAffordable(p.collection, balance, amount(t.lang, p.cheapest ?? '0'));
  return [
    p.affordOnly ? w.affordTitle(p.collection, balance, p.page + 1, p.pages) : w.pageTitle(p.collection, p.page + 1, p.pages),
    '',
    ...lines(t, p.items),
    ...(p.items.some((g) => !g.affordable) ? ['', w.lockedNote(balance)] : []),
  ].join('\n');
}

/** One gift found by its number (`#1234`), with its buttons like a page's. */
export function found(t: Texts, collection: string, g: GiftItem, balance: string): string {
  return [t.gifts.found(collection), '', ...lines(t, [g]), ...(g.affordable ? [] : ['', t.gifts.lockedNote(amount(t.lang, balance))])].join('\n');
}

/** A gift's button on its page (i from 0). */
export const item = (t: Texts, i: number, g: GiftItem) => t.gifts.item(i + 1, g.num, amount(t.lang, g.partner_price)) + lock(t, g);

/** A 🔒 gift pressed: how much TON there is of how much it costs. */
export const lockedToast = (t: Texts, balance: string, price: string) => t.gifts.lockedToast(amount(t.lang, balance), amount(t.lang, price));

/** The gift's price went up before the order: from how much to how much, as the language writes numbers. */
export const priceMoved = (t: Texts, was: string, now: string) => t.gifts.priceMoved(amount(t.lang, was), amount(t.lang, now));

export const chooseAnother = (t: Texts, collection: string) => t.gifts.btnChooseAnother(collection);

export const chosen = (t: Texts, g: { name: string; num: number }) => t.gifts.chosen(g.name, g.num);

export function confirm(t: Texts, q: GiftQuote): string {
  const w = t.gifts;
  const a = (v: string) => amount(t.lang, v);
  return [
    q.enough ? t.order.checkTitle : t.order.shortTitle,
    w.quoteGift(q.name, q.num, q.attributes.model, q.attributes.backdrop, q.attributes.symbol, q.recipient),
    w.price(a(q.price)),
    w.maxPrice(a(q.price)),
    q.enough ? t.order.balanceAfter(a(q.balance), a(q.balanceAfter), 'TON') : t.order.balanceNow(a(q.balance), 'TON'),
    ...(q.enough ? [] : ['', w.shortBy(a(q.shortBy))]),
  ].join('\n');
}
