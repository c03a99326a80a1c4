import type { GiftAttributes } from '../types.js';

/**
 * The seeded sandbox gift market: a fixed seed gives the same collections, numbers, prices and
 * attributes on every machine and every start.
 */
export interface SeedGift {
  gift: string;
  name: string;
  num: number;
  collection: string;
  priceMilli: number;
  attributes: GiftAttributes;
}

export const SANDBOX_COLLECTIONS = [
  { collection: 'PlushPepe', name: 'Plush Pepe', basePrice: 900_000 },
  { collection: 'DurovsCap', name: "Durov's Cap", basePrice: 350_000 },
  { collection: 'SignetRing', name: 'Signet Ring', basePrice: 22_000 },
  { collection: 'LootBag', name: 'Loot Bag', basePrice: 48_000 },
  { collection: 'HomemadeCake', name: 'Homemade Cake', basePrice: 6_500 },
] as const;

export const GIFTS_PER_COLLECTION = 150;

const MODELS = ['Aqua', 'Amber', 'Cyberpunk', 'Gold', 'Marble', 'Neon', 'Obsidian', 'Pixel', 'Sakura', 'Velvet'];
const BACKDROPS = ['Black', 'Coral Red', 'Emerald', 'Ivory White', 'Lavender', 'Midnight Blue', 'Onyx', 'Sky Blue'];
const SYMBOLS = ['Anchor', 'Crown', 'Diamond', 'Flame', 'Heart', 'Lightning', 'Moon', 'Star', 'Wave'];

/** mulberry32: a small, well-known deterministic PRNG (no library needed for a fixed seed). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedGifts(seed = 20261121): SeedGift[] {
  const rnd = prng(seed);
  const out: SeedGift[] = [];
  for (const c of SANDBOX_COLLECTIONS) {
    const nums = new Set<number>();
    const prices = new Set<number>();
    while (nums.size < GIFTS_PER_COLLECTION) nums.add(1 + Math.floor(rnd() * 9999));
    for (const num of [...nums].sort((a, b) => a - b)) {
      let price: number;
      do price = Math.round(c.basePrice * (0.6 + rnd() * 1.8)) + Math.floor(rnd() * 1000);
      while (prices.has(price));
      prices.add(price);
      out.push({
        gift: `${c.collection}-${num}`,
        name: c.name,
        num,
        collection: c.collection,
        priceMilli: price,
        attributes: {
          model: MODELS[Math.floor(rnd() * MODELS.length)],
          backdrop: BACKDROPS[Math.floor(rnd() * BACKDROPS.length)],
          symbol: SYMBOLS[Math.floor(rnd() * SYMBOLS.length)],
        },
      });
    }
  }
  return out;
}
