import { InlineKeyboard } from 'grammy';
import type { Texts } from '../texts/index.js';
import type { OrderInfo } from '../views/model.js';
import { orderStatusData, ordersPageData } from './data.js';

/** A row of buttons opening the orders by their place on the page (the message lists them once), then paging. */
export function ordersKeyboard(t: Texts, items: OrderInfo[], page: number, hasNext: boolean): InlineKeyboard {
  const kb = new InlineKeyboard();
  // (rows are started between rows of buttons, never after the last: no empty row)
  items.forEach((o, i) => kb.text(String(i + 1), orderStatusData(o.order_id, page)));
  if (items.length && (page > 0 || hasNext)) kb.row();
  if (page > 0) kb.text(t.orders.btnPrev, ordersPageData(page - 1));
  if (hasNext) kb.text(t.orders.btnNext, ordersPageData(page + 1));
  return kb;
}
