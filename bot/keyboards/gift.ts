import type { InlineKeyboardButton } from 'grammy/types';
import type { Flow } from '../conversations/flow.js';
import type { GiftCollectionInfo, GiftItem, GiftPage } from '../views/model.js';
import { parseAmount } from '../../src/domain/money.js';
import { giftLockedData, giftToken } from './data.js';
import * as giftView from '../views/gifts.js';

export function collectionRows(flow: Flow, cols: GiftCollectionInfo[]): InlineKeyboardButton[][] {
  return cols.map((c, i) => [flow.button(giftView.collection(flow.t, c), `gc:${i}`)]);
}

/** A gift's button: its data carries the gift's token (bot/keyboards/data.ts). */
function giftButton(flow: Flow, i: number, g: GiftItem): InlineKeyboardButton {
  // A gift the balance cannot pay answers with a toast naming both amounts (bot/features/order.ts), and walks on to nothing.
  const text = giftView.item(flow.t, i, g);
  return g.affordable ? flow.button(text, `gg:${giftToken(g.gift)}`) : { text, callback_data: giftLockedData(parseAmount(g.partner_price, 'TON') ?? 0) };
}

/** "Only what I can afford" (or back to all), and in a private chat the Mini App's grid at this collection. */
function moreRow(flow: Flow, affordOnly: boolean, appUrl: string | null): InlineKeyboardButton[] {
  const { t } = flow;
  return [flow.button(affordOnly ? t.gifts.btnShowAll : t.gifts.btnAffordOnly, 'gf'), ...(appUrl ? [{ text: t.gifts.btnOpenApp, web_app: { url: appUrl } }] : [])];
}

/**
 * One button per gift of the page, then cheaper / "page n of N" (asks for a number) / pricier (their data
 * names the page to show), then the affordable filter and the Mini App.
 */
export function giftPageRows(flow: Flow, p: GiftPage, appUrl: string | null): InlineKeyboardButton[][] {
  const { t } = flow;
  const rows = p.items.map((g, i) => [giftButton(flow, i, g)]);
  const paging: InlineKeyboardButton[] = [];
  if (p.page > 0) paging.push(flow.button(t.gifts.btnPrev, `gp:${p.page - 1}`));
  if (p.pages > 1) paging.push(flow.button(t.gifts.btnPage(p.page + 1, p.pages), 'gj'));
  if (p.hasNext) paging.push(flow.button(t.gifts.btnNext, `gp:${p.page + 1}`));
  return [...rows, paging, moreRow(flow, p.affordOnly, appUrl)];
}

/** A gift found by its number: its button, and the way back to the pages. */
export function foundRows(flow: Flow, g: GiftItem, appUrl: string | null): InlineKeyboardButton[][] {
  return [[giftButton(flow, 0, g)], [flow.button(flow.t.gifts.btnAllGifts, 'gp:0')], ...(appUrl ? [[{ text: flow.t.gifts.btnOpenApp, web_app: { url: appUrl } }]] : [])];
}
