import type { InlineKeyboardButton } from 'grammy/types';
import type { Flow } from '../conversations/flow.js';

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
  return [currencies.map((c) => flow.button(flow.t.owner.btnTopup(c), `tc:${c}`))];
}
