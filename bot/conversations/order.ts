import type { Deps } from '../../src/app/deps.js';
import { pendingPremium } from '../../src/app/orders/pending-premium.js';
import { botOrderKey } from '../../src/domain/order-origin.js';
import { orderMenu, quoteGoodsOrder } from '../../src/app/orders/quote.js';
import { formatAmount } from '../../src/domain/money.js';
import type { CreateOrderDeps } from '../../src/app/orders/create.js';
import type { GiftCatalog } from '../../src/app/nft/gift-catalog.js';
import { premiumRows, productRows, starsRows } from '../keyboards/order.js';
import type { Quote } from '../views/model.js';
import { askRecipient, confirmAndPlace } from './checkout.js';
import { attempt } from './common.js';
import { flowConversation, retry, type Menu } from './flow.js';
import { giftFlow } from './gift.js';
import * as commonView from '../views/common.js';
import * as orderView from '../views/order.js';

/**
 * /order: product → quantity or term (or a gift: collection → gift) → recipient, checked before confirming →
 * confirmation with the exact price and the balance after → one order through `createOrder`, the very
 * code of POST /orders, with an idempotency key made once per confirmation (bot/conversations/checkout.ts).
 * Every step after the first has a Back button.
 */
export const ORDER_CONVERSATION = 'order';

/** The confirmation figures: exact price from the catalog and the balance after. Null while prices are unavailable. */
function quote(deps: Pick<Deps, 'db' | 'suppliers' | 'settings'>, partnerId: number, product: 'stars' | 'premium', quantity: number, recipient: string, alreadyPremium: boolean): Quote | null {
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
    shortBy: formatAmount(Math.max(0, price - balance), 'USD'),
    enough: balance >= price,
    alreadyPremium,
  };
}

/** What /order uses: what placing an order takes (which covers the flow's and the quotes' needs), and the gift catalog. */
export function orderConversation(env: { deps: CreateOrderDeps; gifts: GiftCatalog }) {
  const { deps } = env;

  return flowConversation(deps, '/order', async (flow, partnerId: number) => {
    const { conversation, t, ctx } = flow;
    const menu = await conversation.external(() => attempt(() => orderMenu(deps, partnerId)));
    if (!menu.ok) return void (await ctx.reply(commonView.errorText(t, menu)));
    const { starsMin: min, starsMax: max } = menu.value;
    // A product the operator switched off is not offered at all.
    const setup = { offer: { stars: menu.value.stars, premium: menu.value.premium, gifts: menu.value.gifts } };

    // 1. product
    const atProduct = conversation.checkpoint();
    const rows = productRows(flow, setup.offer);
    if (!rows.length) return void (await ctx.reply(t.order.nothingOffered));
    const productMenu = await flow.menu(t.order.chooseProduct, rows);
    const choice = await flow.choose(productMenu);
    if (choice.action === 'gifts') {
      await flow.settle(productMenu, t.order.btnGifts);
      return giftFlow(flow, env, partnerId, atProduct);
    }
    const product = choice.action === 'premium' ? 'premium' : 'stars';

    // 2. quantity or term: each step is shown in the message of the step before, so one order leaves few messages
    const atQuantity = conversation.checkpoint();
    let quantity: number;
    let asked: Menu;
    if (product === 'stars') {
      const menu = await flow.menu(orderView.chooseStars(t, min, max), starsRows(flow, min, max), { back: atProduct, replacing: productMenu });
      const q = await flow.choose(menu);
      if (q.action === 'q:other') {
        const typing = await flow.prompt(orderView.typeStars(t, min, max), { back: atQuantity, replacing: menu });
        asked = typing;
        quantity = (
          await flow.ask(typing, async (text) => {
            const digits = text.replace(/[\s_]/g, '');
            const n = /^\d{1,9}$/.test(digits) ? Number(digits) : NaN;
            if (Number.isInteger(n) && n < min) return retry(orderView.starsAtLeast(t, min, max));
            if (Number.isInteger(n) && n > max) return retry(orderView.starsAtMost(t, min, max));
            return Number.isInteger(n) ? n : retry(orderView.badStars(t, min, max));
          }, (n) => orderView.chosenStars(t, n))
        ).value;
      } else {
        quantity = Number(q.action.slice(2));
        asked = menu;
      }
    } else {
      const menu = await flow.menu(t.order.choosePremium, premiumRows(flow), { back: atProduct, replacing: productMenu });
      const m = await flow.choose(menu);
      quantity = Number(m.action.slice(2));
      asked = menu;
    }
    const chosen = product === 'stars' ? orderView.chosenStars(t, quantity) : orderView.chosenPremium(t, quantity);

    // 3. recipient, checked before the confirmation (asked in the message of the amount, and folded into one line)
    const atRecipient = conversation.checkpoint();
    const { recipient, account, alreadyPremium } = await askRecipient(flow, deps, product, atQuantity, { chosen, replacing: asked });
    // An unfinished Premium order for the account would refuse this one: said here, with Back and Cancel only.
    if (product === 'premium') {
      const pending = await conversation.external(() => pendingPremium(deps, partnerId, account));
      if (pending) {
        const stop = await flow.menu(orderView.pendingPremium(t, recipient, pending.number), [], { back: atRecipient });
        await flow.choose(stop);
        return conversation.skip();
      }
    }

    // 4. confirmation: price, balance after, and the idempotency key of this confirmation
    const qty = quantity;
    const prepared = await conversation.external(() =>
      attempt(() => ({ quote: quote(deps, partnerId, product, qty, recipient, alreadyPremium), key: botOrderKey(ctx.from?.id ?? 0, deps.ids.hex(10)) })),
    );
    if (!prepared.ok) return void (await ctx.reply(commonView.errorText(t, prepared)));
    const { quote: q, key } = prepared.value;
    if (!q) return void (await ctx.reply(t.order.pricesUnavailable));

    // 5. the order
    const params = product === 'stars' ? { quantity: qty, recipient } : { months: qty, recipient };
    await confirmAndPlace(flow, deps, partnerId, orderView.confirm(t, q), { type: product, idempotency_key: key, params }, { back: atRecipient, enough: q.enough, short: { by: q.shortBy, currency: q.currency } });
  });
}
