import type { Texts } from '../texts/index.js';
import { amount, esc } from './format.js';

/** The owner's screens: API key, webhook, low-balance alerts (parse_mode HTML where they show codes). */

/** A key or secret as shown once: tap-to-copy, under a spoiler (it is not read off the screen in passing). */
const hidden = (s: string) => `<tg-spoiler><code>${esc(s)}</code></tg-spoiler>`;

/** A key shown once; "the previous key no longer works" only when there was one. */
export function keyIssued(t: Texts, key: string, whitelist: string[], hadKey: boolean): string {
  const w = t.owner;
  return [w.keyIssued(hidden(key)), whitelist.length ? w.allowedIps(esc(whitelist.join(', '))) : w.noIpLimit, ...(hadKey ? [w.previousKeyGone] : [])].join('\n');
}

export function webhookIntro(t: Texts, url: string | null, hasSecret: boolean, events: string[]): string {
  const w = t.owner;
  return [w.webhookTitle, w.webhookAddress(url ? url : url === '' ? w.addressEmpty : w.addressNever), hasSecret ? w.secretSet : w.secretNotYet, w.webhookEvents(eventList(t, events))].join('\n');
}

/** Webhook events in words (their codes are in the API and the documentation). */
const eventList = (t: Texts, events: string[]) => events.map((e) => t.eventShort[e] ?? e).join(', ');

export const eventsSaved = (t: Texts, events: string[]) => t.owner.eventsSaved(eventList(t, events));

export function alertsIntro(t: Texts, v: { USD: string | null; TON: string | null }): string {
  const w = t.owner;
  const state = (currency: 'USD' | 'TON') => (v[currency] === null ? w.alertOff : w.alertBelow(amount(t.lang, v[currency]!), currency));
  return [w.alertsTitle, w.alertLine('USD', state('USD')), w.alertLine('TON', state('TON'))].join('\n');
}

const thresholdExample = (t: Texts, currency: string) => t.owner.thresholdExample[currency === 'USD' ? 'USD' : 'TON'];
export const askThreshold = (t: Texts, currency: string) => t.owner.askThreshold(currency, thresholdExample(t, currency));
export const badThreshold = (t: Texts, currency: string) => t.owner.badThreshold(currency === 'USD' ? 2 : 3, amount(t.lang, currency === 'USD' ? '100.50' : '50.125'));
export const thresholdSaved = (t: Texts, currency: string, value: string | null) => (value === null ? t.owner.thresholdOff(currency) : t.owner.thresholdSaved(currency, amount(t.lang, value)));

export const urlSaved = (t: Texts, url: string) => (url ? t.owner.urlSaved(url) : t.owner.urlSavedEmpty);

export function secretShown(t: Texts, secret: string, hadSecret: boolean): string {
  return [t.owner.secretShown(hidden(secret)), ...(hadSecret ? [t.owner.previousSecretGone] : [])].join('\n');
}
