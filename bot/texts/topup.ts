import type { FundingInfo } from '../../src/app/funding.js';
import { code, zonedTime } from './types.js';

/**
 * The words of /topup: which balance, which network (USD only), how much, then one address with the exact
 * amount. HTML (tap-to-copy amounts and addresses).
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

const NETWORK_EN: Record<string, string> = { ton: 'the TON network', trc20: 'TRON (TRC-20)', bep20: 'BNB Smart Chain (BEP-20)' };
const NETWORK_RU: Record<string, string> = { ton: 'сети TON', trc20: 'сети TRON (TRC-20)', bep20: 'сети BNB Smart Chain (BEP-20)' };
const BTN_NETWORK_EN: Record<string, string> = { ton: 'USDT on TON', trc20: 'USDT on TRON (TRC-20)', bep20: 'USDT on BNB Chain (BEP-20)' };
const BTN_NETWORK_RU: Record<string, string> = { ton: 'USDT в сети TON', trc20: 'USDT в сети TRON (TRC-20)', bep20: 'USDT в BNB Chain (BEP-20)' };

export const topupEn = {
  intro: (f: FundingInfo) =>
    [
      'Which balance do you want to top up?',
      `• USD — pays for Stars and Premium; you send USDT. Now: ${code(f.balances.USD)} USD.`,
      `• TON — pays for gifts; you send TON coins. Now: ${code(f.balances.TON)} TON.`,
      ...(f.activated ? [] : ['', `The first top-up activates the account and must be at least 10 (USD ${f.minimums.USD} or TON ${f.minimums.TON}).`]),
    ].join('\n'),
  notConfigured: 'Top-ups are not set up yet: contact support for the payment details.',
  btnCurrency: (currency: string): string => (currency === 'USD' ? '💵 USD (pay in USDT)' : '💎 TON'),
  chosenCurrency: (currency: string): string => (currency === 'USD' ? '💵 Top up USD' : '💎 Top up TON'),
  chooseNetwork: 'On which network will you send the USDT? Send it only there: the same token on another network is not credited automatically.',
  btnNetwork: (network: string) => BTN_NETWORK_EN[network] ?? network,
  chosenNetwork: (network: string) => `💵 Top up USD · ${BTN_NETWORK_EN[network] ?? network}`,
  askAmount: (currency: string, minimum: string) => `How much ${currency}? Send an amount of at least ${minimum}.`,
  askedAmount: (currency: string, amount: string) => `${currency === 'USD' ? '💵' : '💎'} Top up ${amount} ${currency}`,
  request: (r: TopupShown) => {
    const asset = r.currency === 'TON' ? 'TON' : 'USDT';
    return [
      `Send exactly ${code(r.toSend)} ${asset}${r.currency === 'USD' ? ` on ${NETWORK_EN[r.network] ?? r.network}` : ''} to:`,
      code(r.address),
      ...(r.comment ? ['', `Comment (optional, helps us find the payment): ${code(r.comment)}`] : []),
      '',
      `We added ${r.added} ${asset} to your ${r.asked} so we can recognise your payment: send exactly ${r.toSend} ${asset}, not ${r.asked}. Tap the amount or the address to copy it.`,
      `Valid until ${zonedTime(r.expiresAt)}. The balance is credited automatically, usually within a minute of the network's confirmation.`,
      ...(r.currency === 'USD' ? ['Only USDT on this network: other tokens, or USDT on another network, are not credited automatically.'] : []),
    ].join('\n');
  },
  btnWallet: '👛 Open in a TON wallet',
  btnCopyAmount: '📋 Copy amount',
  btnCopyAddress: '📋 Copy address',
  badAmount: (currency: string) => `That is not an amount: send a number such as ${currency === 'USD' ? '25 or 25.50 (at most 2 decimals)' : '12 or 12.5 (at most 3 decimals)'}.`,
  credited: (amount: string, currency: string, activated: boolean) =>
    activated
      ? `💰 Top-up credited: ${amount} ${currency}. Your account is now active: you can order Stars, Premium and gifts, and issue the API key for your own shop (/apikey). See /balance.`
      : `💰 Top-up credited: ${amount} ${currency}. See /balance.`,
};

export type TopupTexts = typeof topupEn;

export const topupRu: TopupTexts = {
  intro: (f: FundingInfo) =>
    [
      'Какой баланс пополнить?',
      `• USD — для звёзд и Premium; вы отправляете USDT. Сейчас: ${code(f.balances.USD)} USD.`,
      `• TON — для подарков; вы отправляете монеты TON. Сейчас: ${code(f.balances.TON)} TON.`,
      ...(f.activated ? [] : ['', `Первое пополнение активирует аккаунт и должно быть не меньше 10 (USD ${f.minimums.USD} или TON ${f.minimums.TON}).`]),
    ].join('\n'),
  notConfigured: 'Пополнения ещё не настроены: за реквизитами обратитесь в поддержку.',
  btnCurrency: (currency: string) => (currency === 'USD' ? '💵 USD (оплата в USDT)' : '💎 TON'),
  chosenCurrency: (currency: string) => (currency === 'USD' ? '💵 Пополнение USD' : '💎 Пополнение TON'),
  chooseNetwork: 'В какой сети вы отправите USDT? Отправляйте только в ней: тот же токен в другой сети автоматически не зачисляется.',
  btnNetwork: (network: string) => BTN_NETWORK_RU[network] ?? network,
  chosenNetwork: (network: string) => `💵 Пополнение USD · ${BTN_NETWORK_RU[network] ?? network}`,
  askAmount: (currency: string, minimum: string) => `Сколько ${currency}? Отправьте сумму не меньше ${minimum}.`,
  askedAmount: (currency: string, amount: string) => `${currency === 'USD' ? '💵' : '💎'} Пополнение на ${amount} ${currency}`,
  request: (r: TopupShown) => {
    const asset = r.currency === 'TON' ? 'TON' : 'USDT';
    return [
      `Отправьте ровно ${code(r.toSend)} ${asset}${r.currency === 'USD' ? ` в ${NETWORK_RU[r.network] ?? r.network}` : ''} на адрес:`,
      code(r.address),
      ...(r.comment ? ['', `Комментарий (необязательно, помогает найти платёж): ${code(r.comment)}`] : []),
      '',
      `Мы добавили ${r.added} ${asset} к вашим ${r.asked}, чтобы узнать ваш платёж: отправьте ровно ${r.toSend} ${asset}, а не ${r.asked}. Нажмите на сумму или адрес, чтобы скопировать.`,
      `Действует до ${zonedTime(r.expiresAt)}. Баланс пополнится автоматически, обычно в течение минуты после подтверждения в сети.`,
      ...(r.currency === 'USD' ? ['Только USDT в этой сети: другие токены или USDT в другой сети автоматически не зачисляются.'] : []),
    ].join('\n');
  },
  btnWallet: '👛 Открыть в TON-кошельке',
  btnCopyAmount: '📋 Скопировать сумму',
  btnCopyAddress: '📋 Скопировать адрес',
  badAmount: (currency: string) =>
    `Это не сумма: отправьте число, например ${currency === 'USD' ? '25 или 25.50 (не больше 2 знаков после точки)' : '12 или 12.5 (не больше 3 знаков после точки)'}.`,
  credited: (amount: string, currency: string, activated: boolean) =>
    activated
      ? `💰 Пополнение зачислено: ${amount} ${currency}. Аккаунт активирован: теперь можно заказывать звёзды, Premium и подарки и выпустить API-ключ для своего магазина (/apikey). Баланс — /balance.`
      : `💰 Пополнение зачислено: ${amount} ${currency}. Баланс — /balance.`,
};

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
