import type { InlineKeyboardButton } from 'grammy/types';
import type { Flow } from '../conversations/flow.js';
import type { GiftCollectionInfo, GiftPage } from '../views/model.js';
import { giftToken } from './data.js';
import * as giftView from '../views/gifts.js';

export function collectionRows(flow: Flow, cols: GiftCollectionInfo[]): InlineKeyboardButton[][] {
  return cols.map((c, i) => [flow.button(giftView.collection(flow.t, c), `gc:${i}`)]);
}

/**
 * One button per gift of the page (its data carries the gift's token, bot/keyboards/data.ts), then
 * cheaper/pricier paging (its data names the page to show).
 */
export function giftPageRows(flow: Flow, p: GiftPage): InlineKeyboardButton[][] {
  const { t } = flow;
  const rows = p.items.map((g, i) => [flow.button(giftView.item(t, i, g), `gg:${giftToken(g.gift)}`)]);
  const paging: InlineKeyboardButton[] = [];
  if (p.page > 0) paging.push(flow.button(t.gifts.btnPrev, `gp:${p.page - 1}`));
  if (p.hasNext) paging.push(flow.button(t.gifts.btnNext, `gp:${p.page + 1}`));
  return [...rows, paging];
}
