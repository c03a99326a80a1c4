import { Composer } from 'grammy';
import { ApiError } from '../../src/domain/errors.js';
import type { BotContext } from '../context.js';
import type { OrderAgain } from '../conversations/order.js';
import { RECEIPT_DATA } from '../keyboards/data.js';
import { receiptRows } from '../keyboards/receipt.js';
import { receiptOf } from '../order-numbers.js';
import type { OrderInfo } from '../views/model.js';
import * as orderView from '../views/order.js';
import { editMessage } from './edit-message.js';
import { enterOrder } from './order.js';
import { receiptText, wasChecked } from './notifications.js';

/**
 * The buttons of a receipt (bot/features/notifications.ts) and of an order's details: "Order again" starts an
 * order of the same (for the person who pressed it), "Details" shows the whole order in the receipt's
 * message, and "◀ Back" returns it to the receipt. Any linked person of the partner may press them (a
 * receipt in a team group is everyone's); another partner's order is not found.
 */

/** What "Order again" repeats of an order. */
export function againOf(o: OrderInfo): OrderAgain {
  const type = o.type === 'premium' ? 'premium' : o.type === 'nft' ? 'nft' : 'stars';
  return { type, quantity: o.quantity, recipient: o.recipient, ...(type === 'nft' && o.gift ? { collection: o.gift.replace(/ #\d+$/, '') } : {}) };
}


export function receiptsFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.callbackQuery(RECEIPT_DATA, async (ctx) => {
    const { env, t } = ctx;
    const partnerId = ctx.link!.partnerId;
    const orderId = ctx.match[2];
    let info;
    try {
      info = receiptOf(env.deps, partnerId, orderId, wasChecked(env, orderId));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'not_found') return void (await ctx.answerCallbackQuery({ text: t.orders.notFound }));
      throw e;
    }
    await ctx.answerCallbackQuery();
    if (ctx.match[1] === 'a') return enterOrder(ctx, againOf(info));
    if (ctx.match[1] === 'd') return editMessage(ctx, orderView.details(t, info), { reply_markup: { inline_keyboard: receiptRows(t, orderId, true) } });
    await editMessage(ctx, receiptText(env, t, partnerId, orderId, ctx.chat?.id ?? 0), { reply_markup: { inline_keyboard: receiptRows(t, orderId) } });
  });
  return c;
}
