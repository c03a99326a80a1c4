import type { Deps } from '../../src/app/deps.js';
import { pendingPremium } from '../../src/app/orders/pending-premium.js';
import { botOrderKey } from '../../src/domain/order-origin.js';
import { orderMenu, quoteGoodsOrder } from '../../src/app/orders/quote.js';
import { formatAmount } from '../../src/domain/money.js';
import type { CreateOrderDeps } from '../../src/app/orders/create.js';
import type { GiftCatalog } from '../../src/app/nft/gift-catalog.js';
import { premiumRows, productOf, productRows, starsRows } from '../keyboards/order.js';
import type { Quote } from '../views/model.js';
import { askRecipient, checkRecipient, confirmAndPlace, type CheckedRecipient } from './checkout.js';
import { attempt } from './common.js';
import { flowConversation, retry, type Back } from './flow.js';
import { giftFlow } from './gift.js';
import * as commonView from '../views/common.js';
import * as orderView from '../views/order.js';

/**
 * /order: product → quantity or term (or a gift: collection → gift) → recipient, checked before confirming →
 * confirmation with the exact price and the balance after → one order through `createOrder`, the very
 * code of POST /orders, with an idempotency key made once per confirmation (bot/conversations/checkout.ts).
 * Every step after the first has a Back button. The steps up to the recipient are one message; the
 * confirmation is a second, which becomes the result; the completion notice is the third.
 *
 * "Order again" under a receipt enters with `again`: the same product, amount and recipient (checked again)
 * straight to a new confirmation; for a gift, the pages of its collection.
 */
export const ORDER_CONVERSATION = 'order';

/** What "Order again" repeats (an earlier order of the partner). */
export interface OrderAgain {
  type: 'stars' | 'premium' | 'nft';
  quantity: number;
  recipient: string;
  /** A gift order's collection. */
  collection?: string;
}

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

/** A whole number of stars typed at the amount menu, within the limits (else null: the menu's hint explains). */
const typedStars = (text: string, min: number, max: number): number | null => {
  const digits = text.replace(/[\s_,.]/g, '');
  if (!/^\d{1,9}$/.test(digits)) return null;
  const n = Number(digits);
  return n >= min && n <= max ? n : null;
};

/** What placing an order takes (which covers the flow's and the quotes' needs), and the gift catalog. */
export function orderConversation(env: { deps: CreateOrderDeps; gifts: GiftCatalog }) {
  const { deps } = env;

  return flowConversation(deps, '/order', async (flow, partnerId: number, again?: OrderAgain) => {
    const { conversation, t } = flow;
    const menu = await conversation.external(() => attempt(() => orderMenu(deps, partnerId)));
    if (!menu.ok) return void (await flow.done(commonView.errorText(t, menu)));
    const { starsMin: min, starsMax: max } = menu.value;
    // A product the operator switched off is not offered at all.
    const offer = { stars: menu.value.stars, premium: menu.value.premium, gifts: menu.value.gifts };
    if (again?.type === 'nft' && offer.gifts) return giftFlow(flow, env, partnerId, null, again.collection);

    let product: 'stars' | 'premium';
    let quantity: number;
    let back: Back | undefined;
    let checked: CheckedRecipient | null = null;
    if (again && again.type !== 'nft' && offer[again.type]) {
      // Order again: the same amount to the same recipient, checked again; a recipient no longer valid is asked for.
      product = again.type;
      quantity = again.quantity;
      const r = await checkRecipient(flow, deps, product, again.recipient);
      if (r.ok) checked = r.value;
    } else {
      // 1. product (also typed: "stars", "premium", "gift")
      const atProduct = flow.checkpoint();
      const rows = productRows(flow, offer);
      if (!rows.length) return void (await flow.done(t.order.nothingOffered));
      const productMenu = await flow.menu(t.order.chooseProduct, rows);
      const choice = await flow.choose(productMenu, { words: (text) => productOf(text, offer) });
      if (choice.action === 'gifts') return giftFlow(flow, env, partnerId, atProduct);
      product = choice.action === 'premium' ? 'premium' : 'stars';

      // 2. quantity or term, in the same message (a number may be typed at the menu too)
      back = flow.checkpoint();
      if (product === 'stars') {
        const amounts = await flow.menu(orderView.chooseStars(t, min, max), starsRows(flow, min, max), { back: atProduct });
        const q = await flow.choose(amounts, {
          words: (text) => {
            const n = typedStars(text, min, max);
            return n === null ? null : `q:${n}`;
          },
          typed: async (text) => {
            const digits = text.replace(/[\s_,.]/g, '');
            const n = /^\d{1,12}$/.test(digits) ? Number(digits) : NaN;
            const why = n < min ? orderView.starsAtLeast(t, min, max) : n > max ? orderView.starsAtMost(t, min, max) : orderView.badStars(t, min, max);
            await flow.hint(amounts, t.common.notAccepted([...text].slice(0, 40).join(''), why));
          },
        });
        if (q.action === 'q:other') {
          const typing = await flow.prompt(orderView.typeStars(t, min, max), { back });
          quantity = (
            await flow.ask(typing, async (text) => {
              const digits = text.replace(/[\s_]/g, '');
              const n = /^\d{1,9}$/.test(digits) ? Number(digits) : NaN;
              if (Number.isInteger(n) && n < min) return retry(orderView.starsAtLeast(t, min, max));
              if (Number.isInteger(n) && n > max) return retry(orderView.starsAtMost(t, min, max));
              return Number.isInteger(n) ? n : retry(orderView.badStars(t, min, max));
            }, (n) => orderView.chosenStars(t, n))
          ).value;
        } else quantity = Number(q.action.slice(2));
      } else {
        const terms = await flow.menu(t.order.choosePremium, premiumRows(flow), { back: atProduct });
        const m = await flow.choose(terms, {
          words: (text) => {
            const months = /^(3|6|12)\b/.exec(text.trim());
            return months ? `m:${months[1]}` : null;
          },
        });
        quantity = Number(m.action.slice(2));
      }
    }
    const chosen = product === 'stars' ? orderView.chosenStars(t, quantity) : orderView.chosenPremium(t, quantity);

    // 3. recipient, checked before the confirmation (asked in the same message, and folded into one line)
    const atRecipient = flow.checkpoint();
    const { recipient, account, alreadyPremium } = checked ?? (await askRecipient(flow, deps, product, back, { chosen }));
    // An unfinished Premium order for the account would refuse this one: said here, with Back and Cancel only.
    if (product === 'premium') {
      const pending = await conversation.external(() => pendingPremium(deps, partnerId, account));
      if (pending) {
        const stop = await flow.menu(orderView.pendingPremium(t, recipient, pending.number), [], { back: atRecipient, fresh: true });
        await flow.choose(stop);
        return conversation.skip();
      }
    }

    // 4. confirmation: price, balance after, and the idempotency key of this confirmation (a new message,
    // below the recipient it confirms); while prices are unavailable, a "Try again" in its place
    const qty = quantity;
    let fresh = true;
    for (;;) {
      const prepared = await conversation.external(() =>
        attempt(() => ({ quote: quote(deps, partnerId, product, qty, recipient, alreadyPremium), key: botOrderKey(flow.ctx.from?.id ?? 0, deps.ids.hex(10)) })),
      );
      if (!prepared.ok) return void (await flow.done(commonView.errorText(t, prepared)));
      const { quote: q, key } = prepared.value;
      if (!q) {
        const wait = await flow.menu(t.order.pricesUnavailable, [[flow.button(t.order.btnTryAgain, 'again')]], { ...(checked ? {} : { back: atRecipient }), fresh });
        fresh = false;
        await flow.choose(wait);
        continue;
      }
      // 5. the order
      const params = product === 'stars' ? { quantity: qty, recipient } : { months: qty, recipient };
      await confirmAndPlace(flow, deps, partnerId, orderView.confirm(t, q), { type: product, idempotency_key: key, params }, { ...(checked ? {} : { back: atRecipient }), fresh, enough: q.enough, short: { by: q.shortBy, currency: q.currency } });
      return;
    }
  });
}
