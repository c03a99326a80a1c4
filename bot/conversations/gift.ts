import { orderingBalance } from '../../src/app/orders/quote.js';
import type { Deps } from '../../src/app/deps.js';
import type { GiftCatalog } from '../../src/app/nft/gift-catalog.js';
import { formatAmount, parseAmount } from '../../src/domain/money.js';
import type { BotEnv, Conv, ConvContext } from '../context.js';
import { collectionsKeyboard, giftsPageKeyboard } from '../keyboards/gift.js';
import type { GiftCollectionInfo, GiftItem, GiftQuote, Texts } from '../texts/index.js';
import { askRecipient, confirmAndPlace } from './checkout.js';
import { attempt, cancelled, closeMenu, waitButton } from './common.js';

/**
 * The gift branch of /order (operator-api.md section 4): collections → gifts of one collection sorted by
 * price, paged → recipient (checked, including whether it can receive gifts) → a confirmation with the
 * exact TON price from a fresh quote, which the order carries as `max_price` → `createOrder`.
 */

export const GIFT_PAGE_SIZE = 5;
export const COLLECTIONS_SHOWN = 8;
/** Page turns allowed in one conversation (it must end). */
const MAX_PAGE_TURNS = 30;

function giftQuote(deps: Deps, partnerId: number, q: Awaited<ReturnType<GiftCatalog['quote']>>, recipient: string): GiftQuote | null {
  const balance = orderingBalance(deps, partnerId, 'TON');
  if (!q.available) return null;
  const price = parseAmount(q.partner_price, 'TON')!;
  return {
    gift: q.gift,
    name: q.name,
    num: q.num,
    attributes: { model: q.attributes.model, backdrop: q.attributes.backdrop, symbol: q.attributes.symbol },
    recipient: recipient.replace(/^@/, ''),
    price: formatAmount(price, 'TON'),
    balance: formatAmount(balance, 'TON'),
    balanceAfter: formatAmount(balance - price, 'TON'),
    enough: balance >= price,
  };
}

export async function giftFlow(conversation: Conv, ctx: ConvContext, t: Texts, nonce: string, env: BotEnv, partnerId: number): Promise<void> {
  const { deps, gifts } = env;

  // 1. collection
  const cols = await conversation.external(() =>
    attempt(async () =>
      (await gifts.collections()).items
        .filter((c) => c.count > 0)
        .slice(0, COLLECTIONS_SHOWN)
        .map((c): GiftCollectionInfo => ({ collection: c.collection, name: c.name, count: c.count, floor_partner_price: c.floor_partner_price })),
    ),
  );
  if (!cols.ok) return void (await ctx.reply(t.error(cols)));
  if (!cols.value.length) return void (await ctx.reply(t.gifts.none));
  await ctx.reply(t.gifts.chooseCollection, { reply_markup: collectionsKeyboard(t, nonce, cols.value) });
  const picked = await waitButton(conversation, nonce, t);
  if (!picked) return void (await ctx.reply(t.common.tooManyAttempts));
  if (picked.kind === 'cancel') return cancelled(picked, t);
  const col = picked.kind === 'button' && /^gc:\d+$/.test(picked.action) ? cols.value[Number(picked.action.slice(3))] : undefined;
  if (!col) return;
  await closeMenu(picked.ctx, col.name);

  // 2. the gift: pages sorted by price, cheapest first; the cursors of pages seen allow going back
  const cursors: (string | null)[] = [null];
  let page = 0;
  let menu: ConvContext | null = null;
  let chosen: GiftItem | null = null;
  for (let turn = 0; turn < MAX_PAGE_TURNS && !chosen; turn++) {
    const cursor = cursors[page];
    const listed = await conversation.external(() =>
      attempt(async () => {
        const r = await gifts.list({ collection: col.collection, sort: 'price_asc', limit: String(GIFT_PAGE_SIZE), ...(cursor ? { cursor } : {}) });
        return { items: r.items.map((g): GiftItem => ({ gift: g.gift, name: g.name, num: g.num, partner_price: g.partner_price })), next: r.next_cursor };
      }),
    );
    if (!listed.ok) return void (await ctx.reply(t.error(listed)));
    if (!listed.value.items.length) return void (await ctx.reply(t.gifts.empty));
    if (listed.value.next) cursors[page + 1] = listed.value.next;
    const text = t.gifts.page(col.name, page + 1, listed.value.items);
    const reply_markup = giftsPageKeyboard(t, nonce, listed.value.items, page > 0, listed.value.next !== null);
    if (menu) await menu.editMessageText(text, { reply_markup });
    else await ctx.reply(text, { reply_markup });
    const pressed = await waitButton(conversation, nonce, t);
    if (!pressed) return void (await ctx.reply(t.common.tooManyAttempts));
    if (pressed.kind === 'cancel') return cancelled(pressed, t);
    if (pressed.kind !== 'button') return;
    menu = pressed.ctx;
    if (pressed.action === 'gp:next' && cursors[page + 1] !== undefined) page++;
    else if (pressed.action === 'gp:prev' && page > 0) page--;
    else if (/^gg:\d+$/.test(pressed.action)) chosen = listed.value.items[Number(pressed.action.slice(3))] ?? null;
  }
  if (!chosen) return void (await ctx.reply(t.common.tooManyAttempts));
  if (menu) await closeMenu(menu, t.gifts.chosen(chosen));
  const gift = chosen;

  // 3. recipient
  const checked = await askRecipient(conversation, ctx, t, nonce, deps, 'nft');
  if (!checked) return;
  const { recipient } = checked;

  // 4. confirmation from a fresh quote: its price becomes the order's max_price
  const prepared = await conversation.external(() =>
    attempt(async () => ({ quote: giftQuote(deps, partnerId, await gifts.quote(gift.gift), recipient), key: `bot-${deps.ids.hex(12)}` })),
  );
  if (!prepared.ok) return void (await ctx.reply(t.error(prepared)));
  const { quote: q, key } = prepared.value;
  if (!q) return void (await ctx.reply(t.gifts.unavailable));

  // 5. the order
  await confirmAndPlace(conversation, ctx, t, nonce, deps, partnerId, t.gifts.confirm(q), key, {
    type: 'nft',
    idempotency_key: key,
    params: { gift: q.gift, recipient, max_price: q.price },
  });
}
