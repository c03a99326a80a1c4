import type { InlineKeyboardButton } from 'grammy/types';
import type { Flow } from '../conversations/flow.js';

/** Button rows of the order conversation (the Flow adds Back and Cancel). */

export const STARS_PRESETS = [50, 100, 500, 1000, 5000];

export function productRows(flow: Flow, offer: { stars: boolean; premium: boolean; gifts: boolean }): InlineKeyboardButton[][] {
  const { t } = flow;
  const row: InlineKeyboardButton[] = [];
  if (offer.stars) row.push(flow.button(t.order.btnStars, 'stars'));
  if (offer.premium) row.push(flow.button(t.order.btnPremium, 'premium'));
  if (offer.gifts) row.push(flow.button(t.order.btnGifts, 'gifts'));
  return row.length ? [row] : [];
}

export function starsRows(flow: Flow, min: number, max: number): InlineKeyboardButton[][] {
  return [
    STARS_PRESETS.filter((n) => n >= min && n <= max).map((n) => flow.button(String(n), `q:${n}`)),
    [flow.button(flow.t.order.btnOther, 'q:other')],
  ];
}

export function premiumRows(flow: Flow): InlineKeyboardButton[][] {
  return [[3, 6, 12].map((m) => flow.button(flow.t.order.months(m), `m:${m}`))];
}

/** A product typed at the product menu instead of pressed ("stars", "Звёзды", "premium", "gift"…), if offered. */
export function productOf(text: string, offer: { stars: boolean; premium: boolean; gifts: boolean }): string | null {
  const word = text.trim().toLowerCase().replace(/^[^\p{L}]+/u, '');
  if (offer.stars && /^(stars?|зв[её]зд[аы]?)/.test(word)) return 'stars';
  if (offer.premium && /^(premium|премиум)/.test(word)) return 'premium';
  if (offer.gifts && /^(gifts?|nft|подар)/.test(word)) return 'gifts';
  return null;
}
