import type { Deps } from '../../src/app/deps.js';
import { orderMenu, quoteGoodsOrder } from '../../src/app/orders/quote.js';
import { formatAmount } from '../../src/domain/money.js';
import type { BotEnv, Conv, ConvContext } from '../context.js';
import { cancelKeyboard, premiumKeyboard, productKeyboard, starsKeyboard } from '../keyboards/order.js';
import { textsFor, type Quote } from '../texts/index.js';
import { askRecipient, confirmAndPlace } from './checkout.js';
import { attempt, cancelled, closeMenu, MAX_ATTEMPTS, newNonce, waitButton, waitInput } from './common.js';
import { giftFlow } from './gift.js';

/**
 * /order: product → quantity or term (or a gift: collection → gift) → recipient, checked before confirming →
 * confirmation with the exact price and the balance after → one order through `createOrder`, the very
 * code of POST /orders, with an idempotency key made once per confirmation (bot/conversations/checkout.ts).
 */
export const ORDER_CONVERSATION = 'order';

/** The confirmation figures: exact price from the catalog and the balance after. Null while prices are unavailable. */
function quote(deps: Deps, partnerId: number, product: 'stars' | 'premium', quantity: number, recipient: string, alreadyPremium: boolean): Quote | null {
  const q = quoteGoodsOrder(deps, partnerId, product, quantity);
  if (!q) return null;
  const { price, balance } = q;
  return {
    product,
    quantity,
    recipient: recipient.replace(/^@/, ''),
    price: formatAmount(price, 'USD'),
    currency: 'USD',
    balance: formatAmount(balance, 'USD'),
    balanceAfter: formatAmount(balance - price, 'USD'),
    enough: balance >= price,
    alreadyPremium,
  };
}

export function orderConversation(env: BotEnv) {
  const { deps } = env;

  return async function order(conversation: Conv, ctx: ConvContext, partnerId: number): Promise<void> {
    const t = textsFor(ctx.from?.language_code);
    const nonce = await newNonce(conversation, deps.ids.hex);
    const menu = await conversation.external(() => attempt(() => orderMenu(deps, partnerId)));
    if (!menu.ok) return void (await ctx.reply(t.error(menu)));
    const setup = { min: menu.value.starsMin, max: menu.value.starsMax, gifts: menu.value.gifts };

    // 1. product
    await ctx.reply(t.order.chooseProduct, { reply_markup: productKeyboard(t, nonce, setup.gifts) });
    const choice = await waitButton(conversation, nonce, t);
    if (!choice) return void (await ctx.reply(t.common.tooManyAttempts));
    if (choice.kind === 'cancel') return cancelled(choice, t);
    if (choice.kind !== 'button') return;
    if (choice.action === 'gifts') {
      await closeMenu(choice.ctx, t.order.btnGifts);
      return giftFlow(conversation, ctx, t, nonce, env, partnerId);
    }
    const product = choice.action === 'premium' ? 'premium' : 'stars';

    // 2. quantity or term
    let quantity: number | null = null;
    if (product === 'stars') {
      await closeMenu(choice.ctx, t.order.btnStars);
      await ctx.reply(t.order.chooseStars(setup.min, setup.max), { reply_markup: starsKeyboard(t, nonce, setup.min, setup.max) });
      const q = await waitButton(conversation, nonce, t);
      if (!q) return void (await ctx.reply(t.common.tooManyAttempts));
      if (q.kind === 'cancel') return cancelled(q, t);
      if (q.kind !== 'button' || !q.action.startsWith('q:')) return;
      if (q.action === 'q:other') {
        await closeMenu(q.ctx, t.order.btnOther);
        await ctx.reply(t.order.typeStars(setup.min, setup.max), { reply_markup: cancelKeyboard(t, nonce) });
        for (let i = 0; i < MAX_ATTEMPTS && quantity === null; i++) {
          const typed = await waitInput(conversation, nonce, t);
          if (typed.kind === 'cancel') return cancelled(typed, t);
          if (typed.kind !== 'text') continue;
          const digits = typed.text.replace(/[\s_]/g, '');
          const n = /^\d{1,9}$/.test(digits) ? Number(digits) : NaN;
          if (Number.isInteger(n) && n >= setup.min && n <= setup.max) quantity = n;
          else await typed.ctx.reply(t.order.badStars(setup.min, setup.max));
        }
        if (quantity === null) return void (await ctx.reply(t.common.tooManyAttempts));
        await ctx.reply(t.order.chosenStars(quantity));
      } else {
        quantity = Number(q.action.slice(2));
        await closeMenu(q.ctx, t.order.chosenStars(quantity));
      }
    } else {
      await closeMenu(choice.ctx, t.order.btnPremium);
      await ctx.reply(t.order.choosePremium, { reply_markup: premiumKeyboard(t, nonce) });
      const m = await waitButton(conversation, nonce, t);
      if (!m) return void (await ctx.reply(t.common.tooManyAttempts));
      if (m.kind === 'cancel') return cancelled(m, t);
      if (m.kind !== 'button' || !m.action.startsWith('m:')) return;
      quantity = Number(m.action.slice(2));
      await closeMenu(m.ctx, t.order.chosenPremium(quantity));
    }

    // 3. recipient, checked before the confirmation
    const checked = await askRecipient(conversation, ctx, t, nonce, deps, product);
    if (!checked) return;

    // 4. confirmation: price, balance after, and the idempotency key of this confirmation
    const qty = quantity;
    const { recipient, alreadyPremium } = checked;
    const prepared = await conversation.external(() =>
      attempt(() => ({ quote: quote(deps, partnerId, product, qty, recipient, alreadyPremium), key: `bot-${deps.ids.hex(12)}` })),
    );
    if (!prepared.ok) return void (await ctx.reply(t.error(prepared)));
    const { quote: q, key } = prepared.value;
    if (!q) return void (await ctx.reply(t.order.pricesUnavailable));

    // 5. the order
    const params = product === 'stars' ? { quantity: qty, recipient } : { months: qty, recipient };
    await confirmAndPlace(conversation, ctx, t, nonce, deps, partnerId, t.order.confirm(q), key, { type: product, idempotency_key: key, params });
  };
}
