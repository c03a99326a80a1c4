import type { Texts } from '../texts/index.js';
import { amount, code, duration, esc, zonedTime } from './format.js';
import type { FundingInfo } from './model.js';

/**
 * /topup: the open requests first (each to show again or cancel), then which balance, which network (USD
 * only), how much, then the request: the exact amount and where to send it. HTML (tap-to-copy amounts and
 * addresses). Copyable amounts are written as they must be sent ("25.37"), others as the language writes
 * numbers.
 */

/** A request as the bot shows it: its amounts, where to send it (the network chosen, else every address). */
export interface TopupShown {
  requestId: string;
  currency: 'USD' | 'TON';
  /** As asked ("25.00"), and to send ("25.37"): the difference is the recognition offset. */
  asked: string;
  toSend: string;
  added: string;
  /** The network chosen in the bot, or null (made elsewhere: every address of the asset is shown). */
  network: string | null;
  addresses: { network: string; address: string }[];
  comment: string | null;
  expiresAt: string;
  secondsLeft: number;
}

const assetOf = (currency: string) => (currency === 'TON' ? 'TON' : 'USDT');

/** The addresses the request is paid to: the chosen network's, else all. */
const where = (r: TopupShown) => (r.network ? r.addresses.filter((a) => a.network === r.network) : r.addresses);

/** "TXyz…abcd": enough to tell addresses apart in a list (the request itself shows it whole). */
const shortAddress = (a: string) => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a);

export const networkName = (t: Texts, network: string) => t.topup.network[network] ?? network;

export function intro(t: Texts, f: FundingInfo, open: TopupShown[], room: Record<string, number>, max: number, note: string | null): string {
  const w = t.topup;
  const a = (v: string) => amount(t.lang, v);
  const lines = [w.heading, w.usdLine(a(f.balances.USD)), w.tonLine(a(f.balances.TON)), ...(f.activated ? [] : [w.firstTopup(a(f.minimums.USD), a(f.minimums.TON))])];
  if (open.length) {
    lines.push('', w.openTitle);
    open.forEach((r, i) => {
      const at = where(r);
      const place = at.length === 1 ? (r.currency === 'USD' ? networkName(t, at[0].network) : 'TON') : w.anyNetwork;
      lines.push(w.openLine(i + 1, r.toSend, assetOf(r.currency), place, at.length === 1 ? shortAddress(at[0].address) : '…', duration(r.secondsLeft * 1000, t.lang)));
    });
  }
  const full = f.currencies.filter((c) => (room[c] ?? 0) <= 0);
  for (const c of full) lines.push(w.noRoom(c, max));
  if (f.currencies.some((c) => (room[c] ?? 0) > 0)) lines.push('', w.title);
  if (note) lines.push('', note);
  return esc(lines.join('\n'));
}

export const btnCurrency = (t: Texts, currency: string) => t.topup.btnCurrency[currency] ?? currency;
export const chosenCurrency = (t: Texts, currency: string) => t.topup.chosenCurrency[currency] ?? currency;
export const btnNetwork = (t: Texts, network: string) => t.topup.btnNetwork[network] ?? network;
export const chosenNetwork = (t: Texts, network: string) => t.topup.chosenNetwork(btnNetwork(t, network));
/** How much, and the least (a comma or a point is accepted when typed). */
export const askAmount = (t: Texts, currency: string, minimum: string) => t.topup.askAmount(currency, amount(t.lang, minimum));
export const badAmount = (t: Texts, currency: string) => t.topup.badAmount(t.topup.amountExample[currency === 'USD' ? 'USD' : 'TON']);

/** The request: the exact amount and where to send it, the offset explained, how long it waits. */
export function request(t: Texts, r: TopupShown): string {
  const w = t.topup;
  const asset = assetOf(r.currency);
  const at = where(r);
  const head =
    at.length === 1
      ? [r.currency === 'USD' ? w.sendExactlyOn(code(r.toSend), asset, esc(networkName(t, at[0].network))) : w.sendExactly(code(r.toSend), asset), code(at[0].address)]
      : [w.sendToAny(code(r.toSend), asset), ...at.map((x) => w.addressOn(esc(networkName(t, x.network)), code(x.address)))];
  return [
    ...head,
    ...(r.comment ? ['', w.comment(code(r.comment))] : []),
    '',
    esc(w.added(amount(t.lang, r.added), asset, amount(t.lang, r.asked), amount(t.lang, r.toSend), r.currency)),
    esc(w.validUntil(zonedTime(r.expiresAt))),
    esc(w.timeLeft(duration(r.secondsLeft * 1000, t.lang))),
    ...(r.currency === 'USD' && at.length === 1 ? [esc(w.onlyThisNetwork)] : []),
  ].join('\n');
}

/** A request's message once it is paid, or canceled. */
export const paid = (t: Texts, toSend: string, currency: string, credited: string) => t.topup.paid(toSend, assetOf(currency), amount(t.lang, credited), currency);
/** A request found paid by the hourly sweep (its credit's event never reached the bot: a restart in between). */
export const paidSeenLater = (t: Texts, toSend: string, currency: string) => t.topup.paidSeenLater(toSend, assetOf(currency));
export const canceled = (t: Texts, toSend: string, currency: string) => t.topup.canceled(toSend, assetOf(currency));
export const expired = (t: Texts, toSend: string, currency: string) => t.topup.expired(toSend, assetOf(currency));
export const canceledNote = (t: Texts, toSend: string, currency: string) => t.topup.canceledNote(toSend, assetOf(currency));
export const confirmCancel = (t: Texts, toSend: string, currency: string) => t.topup.confirmCancel(toSend, assetOf(currency));

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
