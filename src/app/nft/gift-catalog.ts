import { fail } from '../../domain/errors.js';
import { formatAmount } from '../../domain/money.js';
import { offsetIso } from '../../domain/time-format.js';
import type { GiftListing } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import { encodeCursor } from '../paging.js';
import { GIFT_FILTERS, type GiftFilter, type GiftListInput } from '../requests/queries.js';
import { giftItem, giftPartnerMilli, market, pricedGift } from './gift-prices.js';

/** The gift catalog: its cache and views (partner-api.md "Gift list item", "Gift price"). */

export const CATALOG_TTL_MS = 60_000;

/** The catalog cache: one copy of a collection's listings, at most a minute old (service clock). */
export class GiftCatalog {
  private readonly cache = new Map<string, { at: number; items: GiftListing[] }>();

  constructor(private readonly deps: Pick<Deps, 'clock' | 'suppliers' | 'settings'>) {}

  invalidate(): void {
    this.cache.clear();
  }

  async listings(collection: string): Promise<GiftListing[] | null> {
    const now = this.deps.clock.now();
    const hit = this.cache.get(collection);
    if (hit && now - hit.at < CATALOG_TTL_MS) return hit.items;
    const items = await market(() => this.deps.suppliers.gifts.listings(collection));
    if (items) this.cache.set(collection, { at: now, items });
    return items;
  }

  async collections() {
    const deps = this.deps;
    const cols = await market(() => deps.suppliers.gifts.collections());
    const items = [];
    for (const c of cols) {
      const listed = ((await this.listings(c.collection)) ?? []).filter((g) => g.available);
      const floor = listed.reduce((m, g) => Math.min(m, g.priceMilli), Infinity);
      items.push({
        collection: c.collection,
        name: c.name,
        count: listed.length,
        floor_price_ton: listed.length ? formatAmount(floor, 'TON') : null,
        floor_partner_price: listed.length ? formatAmount(giftPartnerMilli(deps, floor), 'TON') : null,
        currency: 'TON' as const,
      });
    }
    return { currency: 'TON' as const, items, count: items.length };
  }

  /**
   * GET /nft/gifts. Keyset paging over (price, gift id) in the chosen order: a cursor names the last item
   * seen, so paging never repeats or skips an item.
   */
  async list(q: GiftListInput) {
    const { rows, ...page } = await this.page(q);
    return { currency: 'TON' as const, items: rows.map((g) => giftItem(this.deps, g)), ...page };
  }

  /**
   * Every gift of a collection on sale, cheapest first (the order of list() by price_asc), each with its
   * attributes and partner price in milli-TON: the bot's gift browser pages, filters by balance and finds a
   * number in it. null for an unknown collection.
   */
  async byPrice(collection: string) {
    const all = await this.listings(collection);
    if (!all) return null;
    return all
      .filter((g) => g.available)
      .sort((a, b) => a.priceMilli - b.priceMilli || (a.gift < b.gift ? -1 : a.gift > b.gift ? 1 : 0))
      .map((g) => ({ item: giftItem(this.deps, g), attributes: g.attributes, partnerMilli: giftPartnerMilli(this.deps, g.priceMilli) }));
  }

  private async page(q: GiftListInput) {
    const { collection, sort, cursor, limit, ignored, ...filters } = q;
    const applied: Partial<Record<GiftFilter, string>> = {};
    for (const f of GIFT_FILTERS) if (typeof filters[f] === 'string') applied[f] = filters[f];
    const after = cursor === undefined ? null : decodeGiftCursor(cursor, collection, sort);

    const all = await this.listings(collection);
    if (!all) fail('not_found', `No such collection: ${collection}.`);
    const dir = sort === 'price_asc' ? 1 : -1;
    const cmp = (a: { price: number; gift: string }, b: { price: number; gift: string }) =>
      dir * (a.price - b.price) || (a.gift < b.gift ? -1 : a.gift > b.gift ? 1 : 0);
    const rows = all
      .filter((g) => g.available && GIFT_FILTERS.every((f) => applied[f] === undefined || g.attributes[f].toLowerCase() === applied[f]!.toLowerCase()))
      .map((g) => ({ g, key: { price: g.priceMilli, gift: g.gift } }))
      .sort((a, b) => cmp(a.key, b.key))
      .filter((r) => after === null || cmp(r.key, after) > 0);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      rows: page.map((r) => r.g),
      count: page.length,
      next_cursor: rows.length > limit && last ? encodeCursor('g', `${collection}|${sort}|${last.key.price}|${last.key.gift}`) : null,
      source_status: 'live' as const,
      applied_filters: { collection, sort, ...applied },
      ignored_params: ignored,
    };
  }

  /** GET /nft/gifts/{gift}: a fresh quote from the market (not the cache). */
  async quote(gift: string) {
    return (await this.quotePriced(gift)).quote;
  }

  /** quote() with the partner price in milli-TON, the amount createOrder would debit now (the bot's confirmation). */
  async quotePriced(gift: string) {
    const deps = this.deps;
    const priced = await pricedGift(deps, gift);
    if (!priced) fail('not_found', 'Gift not found.');
    const g = priced.listing;
    const quote = {
      ...giftItem(deps, g),
      attributes: g.attributes,
      available: g.available,
      quoted_at: offsetIso(deps.clock.now()),
      max_order_price: null,
    };
    return { quote, partnerMilli: priced.partnerMilli };
  }
}

function decodeGiftCursor(cursor: unknown, collection: string, sort: string): { price: number; gift: string } {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 300) fail('bad_cursor');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^g:([^|]+)\|(price_asc|price_desc)\|(\d{1,15})\|([A-Za-z]+-\d+)$/.exec(text);
  if (!m) fail('bad_cursor');
  if (m[1] !== collection || m[2] !== sort) fail('bad_cursor', 'The cursor belongs to another collection or sort order.');
  return { price: Number(m[3]), gift: m[4] };
}
