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
 * Under a top-up request (buttons that outlive the conversation): for TON the wallet link as an https button
 * (Telegram does not open ton:// links), and buttons that copy the exact amount and (one address) the address.
 */
export function requestRows(t: Texts, r: TopupShown): InlineKeyboardButton[][] {
  const rows: InlineKeyboardButton[][] = [];
  const at = r.network ? r.addresses.filter((a) => a.network === r.network) : r.addresses;
  if (r.currency === 'TON' && at.length === 1) rows.push([{ text: t.topup.btnWallet, url: tonWalletLink(at[0].address, r.toSend, r.comment) }]);
  rows.push([
    { text: t.topup.btnCopyAmount, copy_text: { text: r.toSend } },
    ...(at.length === 1 ? [{ text: t.topup.btnCopyAddress, copy_text: { text: at[0].address } }] : []),
  ]);
  return rows;
}
