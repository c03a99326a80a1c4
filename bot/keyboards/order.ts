import { InlineKeyboard } from 'grammy';
import type { Texts } from '../texts/index.js';
import { convData } from './data.js';

export const STARS_PRESETS = [50, 100, 500, 1000, 5000];

export function productKeyboard(t: Texts, nonce: string, gifts: boolean): InlineKeyboard {
  const kb = new InlineKeyboard().text(t.order.btnStars, convData(nonce, 'stars')).text(t.order.btnPremium, convData(nonce, 'premium'));
  if (gifts) kb.text(t.order.btnGifts, convData(nonce, 'gifts'));
  return kb.row().text(t.common.btnCancel, convData(nonce, 'cancel'));
}

export function starsKeyboard(t: Texts, nonce: string, min: number, max: number): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const n of STARS_PRESETS.filter((n) => n >= min && n <= max)) kb.text(String(n), convData(nonce, `q:${n}`));
  return kb.row().text(t.order.btnOther, convData(nonce, 'q:other')).row().text(t.common.btnCancel, convData(nonce, 'cancel'));
}

export function premiumKeyboard(t: Texts, nonce: string): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const m of [3, 6, 12]) kb.text(t.order.months(m), convData(nonce, `m:${m}`));
  return kb.row().text(t.common.btnCancel, convData(nonce, 'cancel'));
}

/** The confirmation button carries the order's idempotency key. */
export function confirmKeyboard(t: Texts, nonce: string, key: string, retry = false): InlineKeyboard {
  return new InlineKeyboard().text(retry ? t.order.btnRetry : t.order.btnConfirm, convData(nonce, `ok:${key}`)).text(t.common.btnCancel, convData(nonce, 'cancel'));
}

export function cancelKeyboard(t: Texts, nonce: string): InlineKeyboard {
  return new InlineKeyboard().text(t.common.btnCancel, convData(nonce, 'cancel'));
}
