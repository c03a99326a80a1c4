import type { Deps } from '../../src/app/deps.js';
import { botOrderKey } from '../../src/domain/order-origin.js';
import type { GiftCatalog } from '../../src/app/nft/gift-catalog.js';
import { orderingBalance } from '../../src/app/orders/quote.js';
import { formatAmount, parseAmount } from '../../src/domain/money.js';
import type { CreateOrderDeps } from '../../src/app/orders/create.js';
import { GIFT_ACTION, giftToken } from '../keyboards/data.js';
import { collectionRows, giftPageRows } from '../keyboards/gift.js';
import type { GiftCollectionInfo, GiftItem, GiftPage, GiftQuote } from '../views/model.js';
import { askRecipient, confirmAndPlace } from './checkout.js';
import { attempt } from './common.js';
import type { Checkpoint, Flow, Pressed } from './flow.js';
import * as commonView from '../views/common.js';
import * as giftView from '../views/gifts.js';

/**
 * The gift branch of /order (operator-api.md section 4): collections → gifts of one collection sorted by
 * price, paged → recipient (checked, including whether it can receive gifts) → a confirmation with the
 * exact TON price from a fresh quote, which the order carries as `max_price` → `createOrder`.
 *
 * A page turn is not a step: the page is drawn from the page number in its button and the update is then
 * dropped (Flow.choose with a `turn`), so any number of turns leaves the stored conversation as it was and
 * every gift of a collection can be reached.
 */

export const GIFT_PAGE_SIZE = 5;
export const COLLECTIONS_SHOWN = 8;
/** The catalog's largest page (GIFTS_PAGE_MAX): used to walk to a far page in few reads. */
const WALK = 100;

function toItem({ item: g, partnerMilli }: { item: { gift: string; name: string; num: number; partner_price: string }; partnerMilli: number }, balanceMilli: number): GiftItem {
  return { gift: g.gift, name: g.name, num: g.num, partner_price: g.partner_price, affordable: partnerMilli <= balanceMilli };
}

/** Page `page` (from 0) of a collection, cheapest first, walked by keyset cursors from the start. */
async function giftPage(deps: Pick<Deps, 'db' | 'settings'>, gifts: GiftCatalog, partnerId: number, col: GiftCollectionInfo, page: number): Promise<GiftPage> {
  const sort = 'price_asc';
  let cursor: string | null = null;
  for (let skip = page * GIFT_PAGE_SIZE; skip > 0; ) {
    const r = await gifts.list({ collection: col.collection, sort, limit: String(Math.min(skip, WALK)), ...(cursor ? { cursor } : {}) });
    skip -= r.items.length;
    cursor = r.next_cursor;
    if (!cursor) return { collection: col.name, page, pages: Math.max(1, Math.ceil(col.count / GIFT_PAGE_SIZE)), items: [], hasNext: false, balance: '' };
  }
  const r = await gifts.listPriced({ collection: col.collection, sort, limit: String(GIFT_PAGE_SIZE), ...(cursor ? { cursor } : {}) });
  const balance = orderingBalance(deps, partnerId, 'TON');
  return {
    collection: col.name,
    page,
    pages: Math.max(page + 1, Math.ceil(col.count / GIFT_PAGE_SIZE)),
    items: r.items.map((g) => toItem(g, balance)),
    hasNext: r.next_cursor !== null,
    balance: formatAmount(balance, 'TON'),
  };
}

function giftQuote(deps: Pick<Deps, 'db' | 'settings'>, partnerId: number, { quote: q, partnerMilli: price }: Awaited<ReturnType<GiftCatalog['quotePriced']>>, recipient: string): GiftQuote | null {
  const balance = orderingBalance(deps, partnerId, 'TON');
  if (!q.available) return null;
  return {
    gift: q.gift,
    name: q.name,
    num: q.num,
    attributes: { model: q.attributes.model, backdrop: q.attributes.backdrop, symbol: q.attributes.symbol },
    recipient: recipient.replace(/^@/, ''),
    price: formatAmount(price, 'TON'),
    balance: formatAmount(balance, 'TON'),
    balanceAfter: formatAmount(balance - price, 'TON'),
    shortBy: formatAmount(Math.max(0, price - balance), 'TON'),
    enough: balance >= price,
  };
}

export async function giftFlow(flow: Flow, env: { deps: CreateOrderDeps; gifts: GiftCatalog }, partnerId: number, atProduct: Checkpoint): Promise<void> {
  const { deps, gifts } = env;
  const { conversation, t, ctx } = flow;

  // 1. collection
  const cols = await conversation.external(() =>
    attempt(async () => {
      const balance = orderingBalance(deps, partnerId, 'TON');
      const floor = (c: { floor_partner_price: string | null }) => (c.floor_partner_price === null ? null : parseAmount(c.floor_partner_price, 'TON'));
      return (await gifts.collections()).items
        .filter((c) => c.count > 0)
        .slice(0, COLLECTIONS_SHOWN)
        .map((c): GiftCollectionInfo => ({ collection: c.collection, name: c.name, count: c.count, floor_partner_price: c.floor_partner_price, affordable: (floor(c) ?? 0) <= balance }));
    }),
  );
  if (!cols.ok) return void (await ctx.reply(commonView.errorText(t, cols)));
  if (!cols.value.length) return void (await ctx.reply(t.gifts.none));
  const atCollections = conversation.checkpoint();
  const colMenu = await flow.menu(t.gifts.chooseCollection, collectionRows(flow, cols.value), { back: atProduct });
  const picked = await flow.choose(colMenu);
  const col = /^gc:\d+$/.test(picked.action) ? cols.value[Number(picked.action.slice(3))] : undefined;
  if (!col) return conversation.skip();
  await flow.settle(colMenu, col.name);

  // 2. the gift: pages sorted by price, cheapest first
  const atPage = conversation.checkpoint();
  const first = await conversation.external(() => attempt(() => giftPage(deps, gifts, partnerId, col, 0)));
  if (!first.ok) return void (await ctx.reply(commonView.errorText(t, first)));
  if (!first.value.items.length) return void (await ctx.reply(t.gifts.empty));
  const pageMenu = await flow.menu(giftView.page(t, first.value), giftPageRows(flow, first.value), { back: atCollections });
  const turn = async (p: Pressed): Promise<boolean> => {
    const m = /^gp:(\d{1,5})$/.exec(p.action);
    if (!m) return false;
    const shown = await conversation.external(() => attempt(() => giftPage(deps, gifts, partnerId, col, Number(m[1]))));
    if (!shown.ok) await p.ctx.reply(commonView.errorText(t, shown));
    else if (!shown.value.items.length) await p.ctx.reply(t.gifts.empty);
    else await flow.redraw(pageMenu, giftView.page(t, shown.value), giftPageRows(flow, shown.value));
    return true;
  };
  const chosen = await flow.choose(pageMenu, turn);
  const g = GIFT_ACTION.exec(chosen.action);
  if (!g) return conversation.skip();
  // The button names the gift by its token: the gift of the collection on screen with that token.
  const token = g[1];
  const listed = await conversation.external(() =>
    attempt(async () => {
      const found = ((await gifts.listings(col.collection)) ?? []).find((x) => giftToken(x.gift) === token);
      return found ? gifts.quote(found.gift) : null;
    }),
  );
  if (!listed.ok || !listed.value?.available) {
    // No dead end: the page says so in place and offers the collection's page again, fresh.
    const gone = await flow.menu(t.gifts.soldMeanwhile, [[flow.button(giftView.chooseAnother(t, col.name), 'another')]], { replacing: pageMenu });
    const again = await flow.choose(gone);
    if (again.action !== 'another') return conversation.skip();
    await flow.settle(gone);
    return conversation.rewind(atPage);
  }
  const gift = listed.value.gift;
  await flow.settle(pageMenu, giftView.chosen(t, { name: listed.value.name, num: listed.value.num }));

  // 3. recipient
  const atRecipient = conversation.checkpoint();
  const { recipient } = await askRecipient(flow, deps, 'nft', atPage);

  // 4. confirmation from a fresh quote: its price becomes the order's max_price; 5. the order. When the
  // price moved up before the purchase, the user may buy at the new price with a new confirmation.
  let priceNote: string | null = null;
  for (;;) {
    const prepared = await conversation.external(() =>
      attempt(async () => ({ quote: giftQuote(deps, partnerId, await gifts.quotePriced(gift), recipient), key: botOrderKey(ctx.from?.id ?? 0, deps.ids.hex(10)) })),
    );
    if (!prepared.ok) return void (await ctx.reply(commonView.errorText(t, prepared)));
    const { quote: q, key } = prepared.value;
    if (!q) return void (await ctx.reply(t.gifts.unavailable));
    const text = priceNote ? `${priceNote}\n\n${giftView.confirm(t, q)}` : giftView.confirm(t, q);
    const placed = await confirmAndPlace(
      flow,
      deps,
      partnerId,
      text,
      { type: 'nft', idempotency_key: key, params: { gift: q.gift, recipient, max_price: q.price } },
      { back: atRecipient, enough: q.enough, short: { by: q.shortBy, currency: 'TON' }, ...(priceNote ? { confirmLabel: t.gifts.btnBuyAtNewPrice } : {}) },
    );
    if (placed.kind === 'gift_gone') {
      // No dead end: the same collection's page again, one tap away.
      const gone = await flow.menu(placed.why, [[flow.button(giftView.chooseAnother(t, col.name), 'another')]]);
      const again = await flow.choose(gone);
      if (again.action !== 'another') return conversation.skip();
      await flow.settle(gone, placed.why);
      return conversation.rewind(atPage);
    }
    if (placed.kind !== 'price_changed') return;
    priceNote = t.gifts.priceMoved(q.price, placed.currentPrice);
  }
}
