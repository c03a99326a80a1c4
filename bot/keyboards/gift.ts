import type { InlineKeyboardButton } from 'grammy/types';
import type { Flow } from '../conversations/flow.js';
import type { GiftCollectionInfo, GiftPage } from '../texts/index.js';
import { giftToken } from './data.js';

export function collectionRows(flow: Flow, cols: GiftCollectionInfo[]): InlineKeyboardButton[][] {
  return cols.map((c, i) => [flow.button(flow.t.gifts.collection(c), `gc:${i}`)]);
}

/**
 * One button per gift of the page (its data carries the gift's token, bot/keyboards/data.ts), then
 * cheaper/pricier paging (its data names the page to show).
 */
export function giftPageRows(flow: Flow, p: GiftPage): InlineKeyboardButton[][] {
  const { t } = flow;
  const rows = p.items.map((g, i) => [flow.button(t.gifts.item(i, g), `gg:${giftToken(g.gift)}`)]);
  const paging: InlineKeyboardButton[] = [];
  if (p.page > 0) paging.push(flow.button(t.gifts.btnPrev, `gp:${p.page - 1}`));
  if (p.hasNext) paging.push(flow.button(t.gifts.btnNext, `gp:${p.page + 1}`));
  return [...rows, paging];
}
