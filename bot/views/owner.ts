import type { Texts } from '../texts/index.js';
import { code, esc, tonTransferLink, zonedTime } from './format.js';
import type { FundingInfo } from './model.js';

/** The owner's screens: top-up, API key, webhook, low-balance alerts (parse_mode HTML where they show codes). */

export function topup(t: Texts, f: FundingInfo): string {
  const w = t.owner;
  const lines = [w.topupBalances(code(f.balances.USD), code(f.balances.TON)), '', w.topupHow, w.topupUsd, w.topupTon, ''];
  lines.push(f.activated ? w.minimums(f.minimums.USD, f.minimums.TON) : w.firstTopup(f.minimums.USD, f.minimums.TON));
  lines.push('');
  if (!f.options.length) {
    lines.push(w.topupsOff);
    return lines.join('\n');
  }
  lines.push(w.addresses);
  for (const o of f.options) lines.push(w.addressLine(t.shared.assetLabel(o.asset, o.network), code(o.address)));
  lines.push('', w.exactAmountNote);
  return lines.join('\n');
}

export interface TopupRequestView {
  currency: string;
  amount_to_send: string;
  addresses: { network: string; address: string }[];
  comment_code?: string;
  expires_at: string;
}

export function topupRequest(t: Texts, r: TopupRequestView): string {
  const w = t.owner;
  const asset = r.currency === 'TON' ? 'TON' : 'USDT';
  return [
    w.sendExactly(code(r.amount_to_send), asset),
    ...r.addresses.map((a) => w.addressLine(t.shared.assetLabel(asset, a.network), code(a.address))),
    ...(r.comment_code ? [w.comment(code(r.comment_code))] : []),
    ...(r.currency === 'TON' && r.addresses[0] ? [w.walletLink(code(tonTransferLink(r.addresses[0].address, r.amount_to_send, r.comment_code)))] : []),
    w.validUntil(zonedTime(r.expires_at)),
  ].join('\n');
}

export const badAmount = (t: Texts, currency: string) => t.owner.badAmount(t.owner.amountExample[currency === 'USD' ? 'USD' : 'TON']);

export function keyIssued(t: Texts, key: string, whitelist: string[]): string {
  const w = t.owner;
  return [w.keyIssued(`<code>${esc(key)}</code>`), whitelist.length ? w.allowedIps(esc(whitelist.join(', '))) : w.noIpLimit, w.previousKeyGone].join('\n');
}

export function webhookIntro(t: Texts, url: string | null, hasSecret: boolean, events: string[]): string {
  const w = t.owner;
  return [w.webhookTitle, w.webhookAddress(url ? url : url === '' ? w.addressEmpty : w.addressNever), hasSecret ? w.secretSet : w.secretNotYet, w.webhookEvents(events.join(', '))].join('\n');
}

export const eventsSaved = (t: Texts, events: string[]) => t.owner.eventsSaved(events.join(', '));

export function alertsIntro(t: Texts, v: { USD: string | null; TON: string | null }): string {
  const w = t.owner;
  const state = (currency: 'USD' | 'TON') => (v[currency] === null ? w.alertOff : w.alertBelow(v[currency]!, currency));
  return [w.alertsTitle, w.alertLine('USD', state('USD')), w.alertLine('TON', state('TON'))].join('\n');
}

const thresholdExample = (t: Texts, currency: string) => t.owner.thresholdExample[currency === 'USD' ? 'USD' : 'TON'];
export const askThreshold = (t: Texts, currency: string) => t.owner.askThreshold(currency, thresholdExample(t, currency));
export const badThreshold = (t: Texts, currency: string) => t.owner.badThreshold(currency === 'USD' ? 2 : 3, currency === 'USD' ? '100.50' : '50.125');
export const thresholdSaved = (t: Texts, currency: string, value: string | null) => (value === null ? t.owner.thresholdOff(currency) : t.owner.thresholdSaved(currency, value));

export const urlSaved = (t: Texts, url: string) => (url ? t.owner.urlSaved(url) : t.owner.urlSavedEmpty);

export function secretShown(t: Texts, secret: string, hadSecret: boolean): string {
  return [t.owner.secretShown(`<code>${esc(secret)}</code>`), ...(hadSecret ? [t.owner.previousSecretGone] : [])].join('\n');
}
