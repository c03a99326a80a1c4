import { InlineKeyboard } from 'grammy';
import type { GiftCollectionInfo, GiftItem, Texts } from '../texts/index.js';
import { convData } from './data.js';

export function collectionsKeyboard(t: Texts, nonce: string, cols: GiftCollectionInfo[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  cols.forEach((c, i) => kb.text(t.gifts.collection(c), convData(nonce, `gc:${i}`)).row());
  return kb.text(t.common.btnCancel, convData(nonce, 'cancel'));
}

/** One button per gift of the page, then cheaper/pricier paging. */
export function giftsPageKeyboard(t: Texts, nonce: string, items: GiftItem[], hasPrev: boolean, hasNext: boolean): InlineKeyboard {
  const kb = new InlineKeyboard();
  items.forEach((g, i) => kb.text(t.gifts.item(i, g), convData(nonce, `gg:${i}`)).row());
  if (hasPrev) kb.text(t.gifts.btnPrev, convData(nonce, 'gp:prev'));
  if (hasNext) kb.text(t.gifts.btnNext, convData(nonce, 'gp:next'));
  return kb.row().text(t.common.btnCancel, convData(nonce, 'cancel'));
}
