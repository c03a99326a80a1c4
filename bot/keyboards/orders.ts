import { InlineKeyboard } from 'grammy';
import type { Texts } from '../texts/index.js';
import type { OrderInfo } from '../views/model.js';
import { orderStatusData, ordersPageData } from './data.js';
import * as orderView from '../views/order.js';

/** One status button per order, then newer/older paging. */
export function ordersKeyboard(t: Texts, items: OrderInfo[], page: number, hasNext: boolean): InlineKeyboard {
  const kb = new InlineKeyboard();
  // One order per row: what, for whom and when (the id is in the message it opens).
  // (rows are started between buttons, never after the last: no empty row)
  items.forEach((o, i) => (i > 0 ? kb.row() : kb).text(orderView.button(t, o), orderStatusData(o.order_id)));
  if (items.length && (page > 0 || hasNext)) kb.row();
  if (page > 0) kb.text(t.orders.btnPrev, ordersPageData(page - 1));
  if (hasNext) kb.text(t.orders.btnNext, ordersPageData(page + 1));
  return kb;
}
