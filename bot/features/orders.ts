import { Composer } from 'grammy';
import { countOwnOrders, listOwnOrders } from '../../src/app/orders/query.js';
import { ORDER_LIST_QUERY } from '../../src/app/requests/queries.js';
import { ApiError } from '../../src/domain/errors.js';
import type { BotContext } from '../context.js';
import { ORDER_STATUS_DATA, ORDERS_PAGE_DATA, ordersPageData, receiptData } from '../keyboards/data.js';
import { editMessage } from './edit-message.js';
import { wasChecked } from './notifications.js';
import { ordersKeyboard } from '../keyboards/orders.js';
import { orderIdOfTyped } from '../../src/app/orders/numbers.js';
import { infoOf, receiptOf } from '../order-numbers.js';
import * as orderView from '../views/order.js';

export const ORDERS_PAGE_SIZE = 5;

/** /orders: recent orders, newest first, paged with buttons; a button or /status <id> shows one order. */
export function ordersFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();

  const page = async (ctx: BotContext, index: number, edit: boolean) => {
    const partnerId = ctx.link!.partnerId;
    // The cursor of every page shown so far lives in the session, so "newer" can go back.
    let pages = index === 0 ? [''] : [...(ctx.session.orderPages ?? [''])];
    if (pages[index] === undefined) {
      index = 0;
      pages = [''];
    }
    const cursor = pages[index];
    let r: ReturnType<typeof listOwnOrders>;
    try {
      r = listOwnOrders(ctx.env.deps, partnerId, ORDER_LIST_QUERY.read(cursor ? { limit: String(ORDERS_PAGE_SIZE), cursor } : { limit: String(ORDERS_PAGE_SIZE) }));
    } catch (e) {
      if (!(e instanceof ApiError) || index === 0) throw e;
      return page(ctx, 0, edit);
    }
    pages = pages.slice(0, index + 1);
    if (r.next_cursor) pages.push(r.next_cursor);
    ctx.session.orderPages = pages;
    const items = r.items.map((o) => infoOf(ctx.env.deps, o));
    const pageCount = Math.max(index + 1, Math.ceil(countOwnOrders(ctx.env.deps, partnerId) / ORDERS_PAGE_SIZE));
    const text = items.length ? orderView.list(ctx.t, items, index + 1, pageCount) : ctx.t.orders.none;
    const reply_markup = ordersKeyboard(ctx.t, items, index, r.next_cursor !== null);
    if (edit) {
      try {
        await ctx.editMessageText(text, { reply_markup });
      } catch {
        await ctx.reply(text, { reply_markup });
      }
    } else await ctx.reply(text, { reply_markup });
  };

  /** One order: in place of the /orders page it was opened from (with ◀ Back to it), or as an answer to /status. */
  const status = async (ctx: BotContext, orderId: string, page?: number) => {
    const { env, t } = ctx;
    let info;
    try {
      info = receiptOf(env.deps, ctx.link!.partnerId, orderId, wasChecked(env, orderId));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'not_found') return void (await ctx.reply(t.orders.notFound));
      throw e;
    }
    const again = { text: t.notify.btnOrderAgain, callback_data: receiptData('again', orderId) };
    if (page === undefined) return void (await ctx.reply(orderView.details(t, info), { reply_markup: { inline_keyboard: [[again]] } }));
    await editMessage(ctx, orderView.details(t, info), { reply_markup: { inline_keyboard: [[again, { text: t.orders.btnBack, callback_data: ordersPageData(page) }]] } });
  };

  c.command('orders', (ctx) => page(ctx, 0, false));
  c.callbackQuery(ORDERS_PAGE_DATA, async (ctx) => {
    await ctx.answerCallbackQuery();
    await page(ctx, Number(ctx.match[1]), true);
  });
  c.command('status', async (ctx) => {
    const id = ctx.match.trim();
    if (!id) return void (await ctx.reply(ctx.t.orders.statusUsage));
    // The short number people see in chat (a gift order's too), or the order id the API gives.
    await status(ctx, orderIdOfTyped(ctx.env.deps, id));
  });
  c.callbackQuery(ORDER_STATUS_DATA, async (ctx) => {
    await ctx.answerCallbackQuery();
    await status(ctx, ctx.match[1], ctx.match[2] === undefined ? undefined : Number(ctx.match[2]));
  });
  return c;
}
