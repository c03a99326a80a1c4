import type { GiftAttributes } from '../types.js';

/**
 * The sandbox's picture of a gift: a deterministic SVG drawn from its collection, model, backdrop and
 * symbol, so the Mini App's grid means something offline. Same gift, same bytes, on every machine.
 */

const BACKDROPS: Record<string, [string, string]> = {
  Black: ['#3a3a3a', '#0d0d0d'],
  'Coral Red': ['#ff8a7a', '#d9443a'],
  Emerald: ['#5fd39a', '#1b7a4e'],
  'Ivory White': ['#fffaf0', '#d8cfbd'],
  Lavender: ['#cdb8ff', '#7f62c9'],
  'Midnight Blue': ['#3f5fb0', '#111a40'],
  Onyx: ['#5b5e66', '#22252b'],
  'Sky Blue': ['#a6dcff', '#3d8fd1'],
};

const MODELS: Record<string, [string, string]> = {
  Aqua: ['#5ee7f0', '#1292a8'],
  Amber: ['#ffc35c', '#c47a12'],
  Cyberpunk: ['#ff4fd8', '#3b1fff'],
  Gold: ['#ffe27a', '#b8860b'],
  Marble: ['#f4f4f4', '#9a9a9a'],
  Neon: ['#b6ff3b', '#20c997'],
  Obsidian: ['#6b6b80', '#1c1c28'],
  Pixel: ['#7cd4ff', '#ff7ca8'],
  Sakura: ['#ffd1e3', '#e86a9a'],
  Velvet: ['#c2185b', '#4a0e2e'],
};

/** Small glyphs repeated around the gift, as the symbols of real collectibles are. */
const SYMBOLS: Record<string, string> = {
  Anchor: 'M0-6v12M-5 2a5 5 0 0010 0M-3-4h6',
  Crown: 'M-6 4l1-8 3 4 2-6 2 6 3-4 1 8z',
  Diamond: 'M0-7l6 7-6 7-6-7z',
  Flame: 'M0-7c4 4 5 7 2 10 1-3-2-4-2-6-2 2-4 4-2 8-4-3-3-8 2-12z',
  Heart: 'M0 6l-6-6a3.5 3.5 0 016-4 3.5 3.5 0 016 4z',
  Lightning: 'M2-7l-6 8h4l-2 6 6-8h-4z',
  Moon: 'M3-6a7 7 0 100 12 5.5 5.5 0 010-12z',
  Star: 'M0-7l2 5h5l-4 3 2 6-5-4-5 4 2-6-4-3h5z',
  Wave: 'M-7 0c2-3 5-3 7 0s5 3 7 0',
};

/** The central figure of each collection (others get a gift box). */
const FIGURES: Record<string, string> = {
  PlushPepe: 'M60 118c0-30 18-50 40-50s40 20 40 50c0 18-18 26-40 26s-40-8-40-26zM78 72a10 10 0 1120 0M102 72a10 10 0 1120 0',
  DurovsCap: 'M52 118c0-30 22-52 48-52s48 22 48 52zM40 118h120v10H40z',
  SignetRing: 'M100 60a42 42 0 110 84 42 42 0 010-84zm0 16a26 26 0 100 52 26 26 0 000-52zM86 44h28l-6 18h-16z',
  LootBag: 'M70 80c-14 16-16 60 30 60s44-44 30-60zM82 62h36l-8 18H90z',
  HomemadeCake: 'M56 100h88v40H56zM64 80h72v20H64zM98 56h4v24h-4z',
};
const BOX = 'M58 84h84v56H58zM52 70h96v16H52zM96 70h8v70h-8z';

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function giftPicture(g: { gift: string; collection: string; num: number; attributes: GiftAttributes }): string {
  const [bg1, bg2] = BACKDROPS[g.attributes.backdrop] ?? ['#888', '#333'];
  const [m1, m2] = MODELS[g.attributes.model] ?? ['#ddd', '#777'];
  const sym = SYMBOLS[g.attributes.symbol] ?? SYMBOLS.Star;
  const figure = FIGURES[g.collection] ?? BOX;
  const ring = [0, 1, 2, 3, 4, 5, 6, 7]
    .map((i) => {
      // half a step off the axes: the number at the bottom sits between two symbols
      const a = ((i + 0.5) / 8) * Math.PI * 2;
      const x = (100 + Math.cos(a) * 78).toFixed(1);
      const y = (100 + Math.sin(a) * 78).toFixed(1);
      return `<path transform="translate(${x} ${y})" d="${sym}"/>`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200" role="img" aria-label="${escapeXml(`${g.gift}: ${g.attributes.model}, ${g.attributes.backdrop}, ${g.attributes.symbol}`)}">` +
    `<defs><radialGradient id="b" cx="50%" cy="45%" r="70%"><stop offset="0" stop-color="${bg1}"/><stop offset="1" stop-color="${bg2}"/></radialGradient>` +
    `<linearGradient id="m" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${m1}"/><stop offset="1" stop-color="${m2}"/></linearGradient></defs>` +
    `<rect width="200" height="200" fill="url(#b)"/>` +
    `<g fill="#fff" fill-opacity=".28" stroke="#fff" stroke-opacity=".35" stroke-width="1.2">${ring}</g>` +
    `<path d="${figure}" fill="url(#m)" fill-rule="evenodd" stroke="#000" stroke-opacity=".25" stroke-width="2"/>` +
    `<text x="100" y="186" text-anchor="middle" font-family="sans-serif" font-size="13" font-weight="700" fill="#fff" fill-opacity=".85">#${g.num}</text>` +
    `</svg>`
  );
}
