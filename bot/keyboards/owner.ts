import { InlineKeyboard } from 'grammy';
import type { Texts } from '../texts/index.js';
import { convData } from './data.js';

export function apikeyKeyboard(t: Texts, nonce: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t.owner.btnIssue, convData(nonce, 'issue'))
    .row()
    .text(t.owner.btnIssueWhitelist, convData(nonce, 'whitelist'))
    .row()
    .text(t.common.btnCancel, convData(nonce, 'cancel'));
}

export function webhookKeyboard(t: Texts, nonce: string, saved: boolean): InlineKeyboard {
  const kb = new InlineKeyboard().text(t.owner.btnSetUrl, convData(nonce, 'url'));
  if (saved) kb.text(t.owner.btnRegenerate, convData(nonce, 'regen'));
  return kb.row().text(t.common.btnCancel, convData(nonce, 'cancel'));
}

export function topupKeyboard(t: Texts, nonce: string, currencies: string[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const c of currencies) kb.text(t.owner.btnTopup(c), convData(nonce, `tc:${c}`));
  return kb;
}
