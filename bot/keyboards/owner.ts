import type { InlineKeyboardButton } from 'grammy/types';
import type { Flow } from '../conversations/flow.js';
import type { Texts } from '../texts/index.js';
import * as topupView from '../views/topup.js';
import { tonWalletLink, type TopupShown } from '../views/topup.js';

export function apikeyRows(flow: Flow): InlineKeyboardButton[][] {
  return [[flow.button(flow.t.owner.btnIssue, 'issue')], [flow.button(flow.t.owner.btnIssueWhitelist, 'whitelist')]];
}

export function webhookRows(flow: Flow, saved: boolean): InlineKeyboardButton[][] {
  return [[flow.button(flow.t.owner.btnSetUrl, 'url'), ...(saved ? [flow.button(flow.t.owner.btnRegenerate, 'regen')] : [])], [flow.button(flow.t.owner.btnEvents, 'events')]];
}

export function eventRows(flow: Flow): InlineKeyboardButton[][] {
  return [[flow.button(flow.t.owner.btnOrderEvents, 'ev:orders')], [flow.button(flow.t.owner.btnOrderAndLowEvents, 'ev:low')]];
}

export function alertRows(flow: Flow): InlineKeyboardButton[][] {
  return [['USD', 'TON'].map((c) => flow.button(flow.t.owner.btnAlert(c), `al:${c}`))];
}

export function topupRows(flow: Flow, currencies: string[]): InlineKeyboardButton[][] {
  return [currencies.map((c) => flow.button(topupView.btnCurrency(flow.t, c), `tc:${c}`))];
}

export function networkRows(flow: Flow, networks: string[]): InlineKeyboardButton[][] {
  return networks.map((n) => [flow.button(topupView.btnNetwork(flow.t, n), `tn:${n}`)]);
}

/**
 * Under the top-up message (no conversation buttons: it outlives the conversation): for TON the wallet
 * link as an https button (Telegram does not open ton:// links), and buttons that copy the exact amount
 * and the address.
 */
export function requestRows(t: Texts, r: TopupShown): InlineKeyboardButton[][] {
  const rows: InlineKeyboardButton[][] = [];
  if (r.currency === 'TON') rows.push([{ text: t.topup.btnWallet, url: tonWalletLink(r.address, r.toSend, r.comment) }]);
  rows.push([
    { text: t.topup.btnCopyAmount, copy_text: { text: r.toSend } },
    { text: t.topup.btnCopyAddress, copy_text: { text: r.address } },
  ]);
  return rows;
}
