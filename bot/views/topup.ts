import type { Texts } from '../texts/index.js';
import { amount, code, zonedTime } from './format.js';
import type { FundingInfo } from './model.js';

/**
 * /topup: which balance, which network (USD only), how much, then one address with the exact amount.
 * HTML (tap-to-copy amounts and addresses).
 */

/** What the top-up message shows: the request, and the one address the owner chose. */
export interface TopupShown {
  currency: 'USD' | 'TON';
  /** As asked ("25.00"), and to send ("25.37"): the difference is the recognition offset. */
  asked: string;
  toSend: string;
  added: string;
  network: string;
  address: string;
  comment: string | null;
  expiresAt: string;
}

export function intro(t: Texts, f: FundingInfo): string {
  const w = t.topup;
  const a = (v: string) => amount(t.lang, v);
  return [w.title, w.usdLine(a(f.balances.USD)), w.tonLine(a(f.balances.TON)), ...(f.activated ? [] : ['', w.firstTopup(a(f.minimums.USD), a(f.minimums.TON))])].join('\n');
}

export const btnCurrency = (t: Texts, currency: string) => t.topup.btnCurrency[currency] ?? currency;
export const chosenCurrency = (t: Texts, currency: string) => t.topup.chosenCurrency[currency] ?? currency;
export const btnNetwork = (t: Texts, network: string) => t.topup.btnNetwork[network] ?? network;
export const chosenNetwork = (t: Texts, network: string) => t.topup.chosenNetwork(btnNetwork(t, network));
export const askedAmount = (t: Texts, currency: string, value: string) => t.topup.askedAmount(t.topup.currencyIcon[currency] ?? '', amount(t.lang, value), currency);
/** How much, and the least (a comma or a point is accepted when typed). */
export const askAmount = (t: Texts, currency: string, minimum: string) => t.topup.askAmount(currency, amount(t.lang, minimum));
export const badAmount = (t: Texts, currency: string) => t.topup.badAmount(t.topup.amountExample[currency === 'USD' ? 'USD' : 'TON']);

export function request(t: Texts, r: TopupShown): string {
  const w = t.topup;
  const asset = r.currency === 'TON' ? 'TON' : 'USDT';
  return [
    r.currency === 'USD' ? w.sendExactlyOn(code(r.toSend), asset, w.network[r.network] ?? r.network) : w.sendExactly(code(r.toSend), asset),
    code(r.address),
    ...(r.comment ? ['', w.comment(code(r.comment))] : []),
    '',
    w.added(r.added, asset, r.asked, r.toSend),
    w.validUntil(zonedTime(r.expiresAt)),
    ...(r.currency === 'USD' ? [w.onlyThisNetwork] : []),
  ].join('\n');
}

export const credited = (t: Texts, value: string, currency: string, activated: boolean) =>
  activated ? t.topup.creditedActivated(amount(t.lang, value), currency) : t.topup.credited(amount(t.lang, value), currency);

/**
 * A TON wallet link for an exact amount (in nanotons) and an optional comment, as an https link: Telegram
 * makes https links tappable (a button), not ton:// ones. Tonkeeper's universal link opens the wallet app
 * (or its web version) with the transfer filled in.
 */
export function tonWalletLink(address: string, amountTon: string, comment?: string | null): string {
  const [whole, frac = ''] = amountTon.split('.');
  const nano = BigInt(whole) * 1_000_000_000n + BigInt((frac + '000000000').slice(0, 9));
  return `https://app.tonkeeper.com/transfer/${encodeURIComponent(address)}?amount=${nano}${comment ? `&text=${encodeURIComponent(comment)}` : ''}`;
}
