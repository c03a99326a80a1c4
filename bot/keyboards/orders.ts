import { InlineKeyboard } from 'grammy';
import type { OrderInfo, Texts } from '../texts/index.js';
import { orderStatusData, ordersPageData } from './data.js';

/** One status button per order, then newer/older paging. */
export function ordersKeyboard(t: Texts, items: OrderInfo[], page: number, hasNext: boolean): InlineKeyboard {
  const kb = new InlineKeyboard();
  // One order per row: what, for whom and when (the id is in the message it opens).
  for (const o of items) kb.text(t.orders.button(o), orderStatusData(o.order_id)).row();
  if (page > 0) kb.text(t.orders.btnPrev, ordersPageData(page - 1));
  if (hasNext) kb.text(t.orders.btnNext, ordersPageData(page + 1));
  return kb;
}
