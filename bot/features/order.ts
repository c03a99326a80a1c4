import { Composer } from 'grammy';
import { ownOrderByIdempotencyKey } from '../../src/app/orders/by-key.js';
import { orderMenu } from '../../src/app/orders/quote.js';
import { ApiError } from '../../src/domain/errors.js';
import { ORDER_CONVERSATION, type OrderAgain } from '../conversations/order.js';
import type { BotContext } from '../context.js';
import { CONFIRM_ACTION, CONV_DATA, GIFT_LOCKED_DATA } from '../keyboards/data.js';
import { orderingBalance } from '../../src/app/orders/quote.js';
import { formatAmount } from '../../src/domain/money.js';
import * as giftView from '../views/gifts.js';
import { infoOf } from '../order-numbers.js';
import * as commonView from '../views/common.js';
import * as orderView from '../views/order.js';

/**
 * /order enters the order conversation. A button of a conversation that is over lands here: a
 * confirmation that was already used names its order (a double tap makes no second order), any other
 * old menu says it is no longer active.
 */
/**
 * Starts an order for the person (with `again`: an order like an earlier one, from a receipt's "Order again");
 * a refusal of the order menu (the program unavailable, say) is said instead.
 */
export async function enterOrder(ctx: BotContext, again?: OrderAgain): Promise<void> {
  const partnerId = ctx.link!.partnerId;
  try {
    orderMenu(ctx.env.deps, partnerId);
  } catch (e) {
    if (e instanceof ApiError) return void (await ctx.reply(commonView.errorText(ctx.t, e)));
    throw e;
  }
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(ORDER_CONVERSATION, partnerId, ...(again ? [again] : []));
}

export function orderFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();

  c.command('order', (ctx) => enterOrder(ctx));

  // A 🔒 gift: a toast with the TON balance and the price, nothing else.
  c.callbackQuery(GIFT_LOCKED_DATA, async (ctx) => {
    const balance = formatAmount(orderingBalance(ctx.env.deps, ctx.link!.partnerId, 'TON'), 'TON');
    await ctx.answerCallbackQuery({ text: giftView.lockedToast(ctx.t, balance, formatAmount(Number(ctx.match[1]), 'TON')), show_alert: true });
  });

  c.callbackQuery(CONV_DATA, async (ctx) => {
    const confirm = CONFIRM_ACTION.exec(ctx.match[2]);
    const order = confirm ? ownOrderByIdempotencyKey(ctx.env.deps, ctx.link!.partnerId, confirm[1]) : null;
    if (!order) return void (await ctx.answerCallbackQuery({ text: ctx.t.common.menuExpired }));
    // the toast only: the chat already shows the order
    const text = orderView.already(ctx.t, infoOf(ctx.env.deps, order));
    await ctx.answerCallbackQuery({ text: text.slice(0, 200) });
  });
  return c;
}
