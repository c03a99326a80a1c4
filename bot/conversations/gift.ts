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
import type { Back, Flow, Pressed } from './flow.js';
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

/**
 * The gift branch, in the message of the product menu: collections, then a collection's pages, then the
 * recipient; the confirmation is a new message. `atProduct` null: entered from "Order again" (no product
 * menu to go back to), with the collection to open (`preselected`) when it is still on sale.
 */
export async function giftFlow(flow: Flow, env: { deps: CreateOrderDeps; gifts: GiftCatalog }, partnerId: number, atProduct: Back | null, preselected?: string): Promise<void> {
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
  if (!cols.ok) return void (await flow.done(commonView.errorText(t, cols)));
  if (!cols.value.length) return void (await flow.done(t.gifts.none));
  // (an order names its gift's collection by name)
  const again = preselected === undefined ? undefined : cols.value.find((c) => c.collection === preselected || c.name === preselected);
  let col: GiftCollectionInfo;
  let atCollections: Back | undefined;
  if (again) col = again;
  else {
    atCollections = flow.checkpoint();
    const colMenu = await flow.menu(t.gifts.chooseCollection, collectionRows(flow, cols.value), atProduct ? { back: atProduct } : {});
    const picked = await flow.choose(colMenu);
    const found = /^gc:\d+$/.test(picked.action) ? cols.value[Number(picked.action.slice(3))] : undefined;
    if (!found) return conversation.skip();
    col = found;
  }

  // 2. the gift: pages sorted by price, cheapest first; a page number or a gift's number may be typed
  const atPage = flow.checkpoint();
  let affordOnly = false;
  const app = appAt(flow, deps.config, col.collection);
  const first = await conversation.external(() => attempt(() => giftPage(deps, gifts, partnerId, col, 0, false)));
  if (!first.ok) return void (await flow.done(commonView.errorText(t, first)));
  if (!first.value.items.length) return void (await flow.done(t.gifts.empty));
  let pages = first.value.pages;
  const pageMenu = await flow.menu(giftView.page(t, first.value), giftPageRows(flow, first.value, app), atCollections ? { back: atCollections } : {});
  // a hint or a refusal is a line under the page, not a message of its own
  const pageHint = () => (flow.inGroup ? t.gifts.pageHintGroup(pages) : t.gifts.pageHint(pages));
  const show = async (n: number): Promise<void> => {
    const shown = await conversation.external(() => attempt(() => giftPage(deps, gifts, partnerId, col, n, affordOnly)));
    if (!shown.ok) await flow.hint(pageMenu, commonView.errorText(t, shown));
    else if (!shown.value.items.length && !affordOnly) await flow.hint(pageMenu, t.gifts.empty);
    else {
      pages = shown.value.pages;
      await flow.redraw(pageMenu, giftView.page(t, shown.value), giftPageRows(flow, shown.value, app));
    }
  };
  const turn = async (p: Pressed): Promise<boolean> => {
    if (p.action === 'gj') {
      await flow.hint(pageMenu, pageHint());
      return true;
    }
    const m = /^gp:(\d{1,5})$/.exec(p.action);
    if (!m) return false;
    await show(Number(m[1]));
    return true;
  };
  // "3" jumps to page 3, "#1234" finds that gift; anything else gets the one-line hint
  const typed = async (text: string): Promise<void> => {
    const num = /^#\s*(\d{1,9})$/.exec(text);
    if (num) {
      const found = await conversation.external(() => attempt(() => giftByNumber(deps, gifts, partnerId, col, Number(num[1]))));
      if (!found.ok) return flow.hint(pageMenu, commonView.errorText(t, found));
      if (!found.value) return flow.hint(pageMenu, t.gifts.notForSale(col.name, Number(num[1])));
      return flow.redraw(pageMenu, giftView.found(t, col.name, found.value.item, found.value.balance), foundRows(flow, found.value.item, app));
    }
    const n = /^\d{1,5}$/.test(text) ? Number(text) : 0;
    // what was typed is quoted, so that another wrong try changes the line too
    if (n < 1 || n > pages) return flow.hint(pageMenu, t.common.notAccepted([...text].slice(0, 40).join(''), pageHint()));
    await show(n - 1);
  };
  let chosen: Pressed;
  for (;;) {
    chosen = await flow.choose(pageMenu, { turn, typed });
    if (chosen.action !== 'gf') break;
    // the filter is a step (not a turn): it lives in the conversation, where typed page numbers find it
    affordOnly = !affordOnly;
    await show(0);
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
    const gone = await flow.menu(t.gifts.soldMeanwhile, [[flow.button(giftView.chooseAnother(t, col.name), 'another')]]);
    const another = await flow.choose(gone);
    if (another.action !== 'another') return conversation.skip();
    return conversation.rewind(atPage.cp);
  }
  const gift = listed.value.gift;

  // 3. recipient, in the same message under the gift chosen
  const atRecipient = flow.checkpoint();
  const { recipient } = await askRecipient(flow, deps, 'nft', atPage, { chosen: giftView.chosen(t, { name: listed.value.name, num: listed.value.num }) });

  // 4. confirmation from a fresh quote: its price becomes the order's max_price; 5. the order. When the
  // price moved up before the purchase, the user may buy at the new price with a new confirmation.
  let priceNote: string | null = null;
  let fresh = true;
  for (;;) {
    const prepared = await conversation.external(() =>
      attempt(async () => ({ quote: giftQuote(deps, partnerId, await gifts.quotePriced(gift), recipient), key: botOrderKey(ctx.from?.id ?? 0, deps.ids.hex(10)) })),
    );
    if (!prepared.ok) return void (await flow.done(commonView.errorText(t, prepared)));
    const { quote: q, key } = prepared.value;
    if (!q) return void (await flow.done(t.gifts.unavailable));
    const text = priceNote ? `${priceNote}\n\n${giftView.confirm(t, q)}` : giftView.confirm(t, q);
    const placed = await confirmAndPlace(
      flow,
      deps,
      partnerId,
      text,
      { type: 'nft', idempotency_key: key, params: { gift: q.gift, recipient, max_price: q.price } },
      { back: atRecipient, fresh, enough: q.enough, short: { by: q.shortBy, currency: 'TON' }, ...(priceNote ? { confirmLabel: t.gifts.btnBuyAtNewPrice } : {}) },
    );
    fresh = false;
    if (placed.kind === 'gift_gone') {
      // No dead end: the same collection's page again, one tap away, in this message.
      const gone = await flow.menu(placed.why, [[flow.button(giftView.chooseAnother(t, col.name), 'another')]]);
      const another = await flow.choose(gone);
      if (another.action !== 'another') return conversation.skip();
      return flow.rewindInto(atPage, gone);
    }
    if (placed.kind !== 'price_changed') return;
    priceNote = giftView.priceMoved(t, q.price, placed.currentPrice);
  }
}
