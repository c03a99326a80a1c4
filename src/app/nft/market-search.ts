import { fail } from '../../domain/errors.js';
import type { GiftListing } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import { encodeCursor } from '../paging.js';
import type { GiftCatalog } from './gift-catalog.js';
import { giftItem, market } from './gift-prices.js';

/**
 * Gift search over the whole market for the Mini App's picture grid: every collection's listings from the
 * catalog cache (one copy of the market, shared with the partner API and the bot), filtered by collection,
 * model, backdrop and symbol, a number prefix, sorted by price with the gift id as tie-break, keyset paged.
 * Only available gifts are listed. The whole market is a few thousand listings in memory: a search is a
 * filter and a sort over them (well under a millisecond per hundred gifts), no database query.
 */

export const SEARCH_PAGE_DEFAULT = 24;
export const SEARCH_PAGE_MAX = 100;
const ATTRS = ['model', 'backdrop', 'symbol'] as const;
const KNOWN = new Set(['collection', ...ATTRS, 'sort', 'number', 'cursor', 'limit']);

/**
 * The whole market sorted by price ascending, remade only when the catalog cache hands out new listing
 * arrays (at most once a minute, or when a listing changes): a search then only filters and slices it.
 */
let snapshot: { parts: GiftListing[][]; sorted: GiftListing[] } | null = null;

async function allListings(deps: Pick<Deps, 'suppliers'>, catalog: GiftCatalog): Promise<GiftListing[]> {
  const cols = await market(() => deps.suppliers.gifts.collections());
  const parts: GiftListing[][] = [];
  for (const c of cols) parts.push((await catalog.listings(c.collection)) ?? []);
  if (snapshot && snapshot.parts.length === parts.length && snapshot.parts.every((p, i) => p === parts[i])) return snapshot.sorted;
  const sorted = parts.flat().sort((a, b) => a.priceMilli - b.priceMilli || (a.gift < b.gift ? -1 : a.gift > b.gift ? 1 : 0));
  snapshot = { parts, sorted };
  return sorted;
}

/** A listing's view, made once per listing object and margin (listing objects are replaced when they change). */
const views = new WeakMap<GiftListing, { margin: number; view: ReturnType<typeof giftItem> }>();
function viewOf(deps: Pick<Deps, 'suppliers' | 'settings'>, g: GiftListing) {
  const margin = deps.settings.get().margin_bps;
  let v = views.get(g);
  if (!v || v.margin !== margin) {
    v = { margin, view: giftItem(deps, g) };
    views.set(g, v);
  }
  return v.view;
}

function one(q: Record<string, unknown>, k: string): string | undefined {
  const v = q[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > 100) fail('bad_param', `${k} must be given once.`, { param: k });
  return v === '' ? undefined : v;
}

export async function searchGifts(deps: Pick<Deps, 'suppliers' | 'settings'>, catalog: GiftCatalog, q: Record<string, unknown>) {
  for (const k of Object.keys(q)) if (!KNOWN.has(k)) fail('bad_param', `Unknown query parameter: ${k}.`, { param: k });
  const collection = one(q, 'collection');
  const attrs = Object.fromEntries(ATTRS.map((a) => [a, one(q, a)?.toLowerCase()])) as Record<(typeof ATTRS)[number], string | undefined>;
  const sort = one(q, 'sort') ?? 'price_asc';
  if (sort !== 'price_asc' && sort !== 'price_desc') fail('bad_sort');
  const number = one(q, 'number')?.replace(/^#/, '');
  if (number !== undefined && !/^\d{1,9}$/.test(number)) fail('bad_param', 'number must be digits.', { param: 'number' });
  const limitText = one(q, 'limit');
  let limit = SEARCH_PAGE_DEFAULT;
  if (limitText !== undefined) {
    if (!/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > SEARCH_PAGE_MAX)
      fail('bad_limit', `limit must be a whole number from 1 to ${SEARCH_PAGE_MAX}.`);
    limit = Number(limitText);
  }
  const cursorText = one(q, 'cursor');
  let after: { price: number; gift: string } | null = null;
  if (cursorText !== undefined) {
    const m = /^s:(price_asc|price_desc)\|(\d{1,15})\|([A-Za-z]+-\d+)$/.exec(Buffer.from(cursorText, 'base64url').toString('utf8'));
    if (!m || m[1] !== sort) fail('bad_cursor');
    after = { price: Number(m[2]), gift: m[3] };
  }

  const all = await allListings(deps, catalog);
  if (collection !== undefined && !all.some((g) => g.collection === collection)) fail('not_found', `No such collection: ${collection}.`);
  const dir = sort === 'price_asc' ? 1 : -1;
  // price, then gift id, both in the chosen direction (so that descending is exactly ascending reversed)
  const cmp = (a: { price: number; gift: string }, b: { price: number; gift: string }) => dir * (a.price - b.price || (a.gift < b.gift ? -1 : a.gift > b.gift ? 1 : 0));
  const matching = all.filter(
    (g) =>
      g.available &&
      !g.reserved &&
      (collection === undefined || g.collection === collection) &&
      ATTRS.every((a) => attrs[a] === undefined || g.attributes[a].toLowerCase() === attrs[a]) &&
      (number === undefined || String(g.num).startsWith(number)),
  );
  // `all` is sorted ascending already: descending is its reverse
  const rows = (dir === 1 ? matching : matching.reverse()).map((g) => ({ g, key: { price: g.priceMilli, gift: g.gift } }));
  const rest = after ? rows.filter((r) => cmp(r.key, after) > 0) : rows;
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  return {
    currency: 'TON' as const,
    items: page.map((r) => viewOf(deps, r.g)),
    count: page.length,
    total: matching.length,
    next_cursor: rest.length > limit && last ? encodeCursor('s', `${sort}|${last.key.price}|${last.key.gift}`) : null,
  };
}

/** The values each filter can take (over the collection when given, else the whole market), for the filter menus. */
export async function giftFacets(deps: Pick<Deps, 'suppliers'>, catalog: GiftCatalog, q: Record<string, unknown>) {
  const collection = one(q, 'collection');
  const cols = await market(() => deps.suppliers.gifts.collections());
  if (collection !== undefined && !cols.some((c) => c.collection === collection)) fail('not_found', `No such collection: ${collection}.`);
  const all = (await allListings(deps, catalog)).filter((g) => g.available && (collection === undefined || g.collection === collection));
  const values = (a: (typeof ATTRS)[number]) => [...new Set(all.map((g) => g.attributes[a]))].sort();
  return {
    collections: cols.map((c) => ({ collection: c.collection, name: c.name })),
    models: values('model'),
    backdrops: values('backdrop'),
    symbols: values('symbol'),
  };
}
