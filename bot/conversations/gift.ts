import type { Deps } from '../../src/app/deps.js';
import { botOrderKey } from '../../src/domain/order-origin.js';
import type { GiftCatalog } from '../../src/app/nft/gift-catalog.js';
import { orderingBalance } from '../../src/app/orders/quote.js';
import { formatAmount, parseAmount } from '../../src/domain/money.js';
import type { CreateOrderDeps } from '../../src/app/orders/create.js';
import { GIFT_ACTION, giftToken } from '../keyboards/data.js';
import { collectionRows, foundRows, giftPageRows } from '../keyboards/gift.js';
import type { GiftCollectionInfo, GiftItem, GiftPage, GiftQuote } from '../views/model.js';
import { askRecipient, confirmAndPlace } from './checkout.js';
import { attempt } from './common.js';
import type { Checkpoint, Flow, Pressed } from './flow.js';
import type { ConvContext } from '../context.js';
import { giftGridUrl, webAppAllowed } from '../app-urls.js';
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

type Priced = NonNullable<Awaited<ReturnType<GiftCatalog['byPrice']>>>[number];

function toItem({ item: g, attributes: a, partnerMilli }: Priced, balanceMilli: number): GiftItem {
  return { gift: g.gift, name: g.name, num: g.num, partner_price: g.partner_price, attributes: { model: a.model, backdrop: a.backdrop, symbol: a.symbol }, affordable: partnerMilli <= balanceMilli };
}

async function onSale(gifts: GiftCatalog, col: GiftCollectionInfo): Promise<Priced[]> {
  return (await gifts.byPrice(col.collection)) ?? [];
}

/** Page `page` (from 0) of a collection, cheapest first; with `affordOnly` only what the TON balance covers. */
async function giftPage(deps: Pick<Deps, 'db' | 'settings'>, gifts: GiftCatalog, partnerId: number, col: GiftCollectionInfo, page: number, affordOnly: boolean): Promise<GiftPage> {
  const all = await onSale(gifts, col);
  const balance = orderingBalance(deps, partnerId, 'TON');
  const shown = affordOnly ? all.filter((g) => g.partnerMilli <= balance) : all;
  return {
    collection: col.name,
    page,
    pages: Math.max(1, Math.ceil(shown.length / GIFT_PAGE_SIZE)),
    items: shown.slice(page * GIFT_PAGE_SIZE, (page + 1) * GIFT_PAGE_SIZE).map((g) => toItem(g, balance)),
    hasNext: (page + 1) * GIFT_PAGE_SIZE < shown.length,
    balance: formatAmount(balance, 'TON'),
    affordOnly,
    cheapest: all[0]?.item.partner_price ?? null,
  };
}

/** The gift of the collection on sale with that number, or null. */
async function giftByNumber(deps: Pick<Deps, 'db' | 'settings'>, gifts: GiftCatalog, partnerId: number, col: GiftCollectionInfo, num: number) {
  const g = (await onSale(gifts, col)).find((x) => x.item.num === num);
  const balance = orderingBalance(deps, partnerId, 'TON');
  return g ? { item: toItem(g, balance), balance: formatAmount(balance, 'TON') } : null;
}

/** The Mini App's gift grid at this collection: a web_app button, in private chats and over https only (Telegram's rule). */
function appAt(flow: Flow, config: CreateOrderDeps['config'], collection: string): string | null {
  return !flow.inGroup && webAppAllowed(config) ? giftGridUrl(config, collection) : null;
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

  // 2. the gift: pages sorted by price, cheapest first; a page number or a gift's number may be typed
  const atPage = conversation.checkpoint();
  let affordOnly = false;
  const app = appAt(flow, deps.config, col.collection);
  const first = await conversation.external(() => attempt(() => giftPage(deps, gifts, partnerId, col, 0, false)));
  if (!first.ok) return void (await ctx.reply(commonView.errorText(t, first)));
  if (!first.value.items.length) return void (await ctx.reply(t.gifts.empty));
  let pages = first.value.pages;
  const pageMenu = await flow.menu(giftView.page(t, first.value), giftPageRows(flow, first.value, app), { back: atCollections });
  const show = async (at: ConvContext, n: number): Promise<void> => {
    const shown = await conversation.external(() => attempt(() => giftPage(deps, gifts, partnerId, col, n, affordOnly)));
    if (!shown.ok) await at.reply(commonView.errorText(t, shown));
    else if (!shown.value.items.length && !affordOnly) await at.reply(t.gifts.empty);
    else {
      pages = shown.value.pages;
      await flow.redraw(pageMenu, giftView.page(t, shown.value), giftPageRows(flow, shown.value, app));
    }
  };
  const turn = async (p: Pressed): Promise<boolean> => {
    if (p.action === 'gj') {
      await flow.note(p.ctx, t.gifts.pageHint(pages));
      return true;
    }
    const m = /^gp:(\d{1,5})$/.exec(p.action);
    if (!m) return false;
    await show(p.ctx, Number(m[1]));
    return true;
  };
  // "3" jumps to page 3, "#1234" finds that gift; anything else gets the one-line hint
  const typed = async (text: string, at: ConvContext): Promise<void> => {
    const num = /^#\s*(\d{1,9})$/.exec(text);
    if (num) {
      const found = await conversation.external(() => attempt(() => giftByNumber(deps, gifts, partnerId, col, Number(num[1]))));
      if (!found.ok) return void (await at.reply(commonView.errorText(t, found)));
      if (!found.value) return flow.note(at, t.gifts.notForSale(col.name, Number(num[1])));
      return flow.redraw(pageMenu, giftView.found(t, col.name, found.value.item, found.value.balance), foundRows(flow, found.value.item, app));
    }
    const n = /^\d{1,5}$/.test(text) ? Number(text) : 0;
    if (n < 1 || n > pages) return flow.note(at, t.gifts.pageHint(pages));
    await show(at, n - 1);
  };
  let chosen: Pressed;
  for (;;) {
    chosen = await flow.choose(pageMenu, turn, typed);
    if (chosen.action !== 'gf') break;
    // the filter is a step (not a turn): it lives in the conversation, where typed page numbers find it
    affordOnly = !affordOnly;
    await show(chosen.ctx, 0);
  }
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
