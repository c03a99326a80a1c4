import type { InlineKeyboardButton } from 'grammy/types';
import type { Flow } from '../conversations/flow.js';
import type { GiftCollectionInfo, GiftPage } from '../views/model.js';
import { parseAmount } from '../../src/domain/money.js';
import { giftLockedData, giftToken } from './data.js';
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
  // A gift the balance cannot pay answers with a toast naming both amounts (bot/features/order.ts), and walks on to nothing.
  const rows = p.items.map((g, i) => [g.affordable ? flow.button(giftView.item(t, i, g), `gg:${giftToken(g.gift)}`) : { text: giftView.item(t, i, g), callback_data: giftLockedData(parseAmount(g.partner_price, 'TON') ?? 0) }]);
  const paging: InlineKeyboardButton[] = [];
  if (p.page > 0) paging.push(flow.button(t.gifts.btnPrev, `gp:${p.page - 1}`));
  if (p.hasNext) paging.push(flow.button(t.gifts.btnNext, `gp:${p.page + 1}`));
  return [...rows, paging];
}
