import { topupMinimum } from '../../src/domain/ledger-rules.js';
import { formatAmount } from '../../src/domain/money.js';
import type { Texts } from '../texts/index.js';
import { amount, duration, handledAt, zonedTime } from './format.js';
import type { DepositShown, ErrorInfo, Handled, OrderInfo } from './model.js';
import { errorText } from './common.js';
import { described, status, what } from './order.js';
import { eventName, webhookWhy } from './notify.js';

/** What operators read: alerts, review and deposit cards, their lists, how a case was handled. */

const network = (t: Texts, n: string) => t.operator.network[n] ?? n;
/** An amount as the operator's language writes it (1,234.50 / 1 234,50). */
const a = (t: Texts, v: string) => amount(t.lang, v);
const depositWhy = (t: Texts, reason: string | null | undefined) => t.operator.depositReason[reason ?? ''] ?? t.operator.depositReasonOther;

/** A partner as operators read it: its name (its number when the name is unknown). */
export const partner = (t: Texts, name: string | null, id: number) => (name ? t.operator.partner(name) : t.operator.partnerNumber(id));
/** A partner money is credited to: its name and number. */
export const partnerNumbered = (t: Texts, name: string, id: number) => t.operator.partnerNumbered(name, id);

function reviewStage(t: Texts, stage: string, o: OrderInfo | null): string {
  const key = stage === 'delivery_unconfirmed' && o?.type === 'premium' ? 'delivery_unconfirmed_premium' : stage;
  return t.operator.stage[key] ?? t.operator.stageOther;
}

export function review(t: Texts, orderId: string, partnerName: string, stage: string, o: OrderInfo | null): string {
  const w = t.operator;
  return [w.review(orderId, partnerName), w.whereStopped(reviewStage(t, stage, o)), ...(o ? [described(t, o), w.amount(a(t, o.partner_price), o.currency)] : [])].join('\n');
}

export const failure = (t: Texts, orderId: string, partnerName: string, reason: string) => t.operator.failure(orderId, partnerName, t.operator.failureWhy[reason] ?? t.operator.failureOther);

export const webhookGaveUp = (t: Texts, orderId: string, partnerName: string, event: string, reason: string) =>
  t.operator.webhookGaveUp(eventName(t, event), orderId, partnerName, webhookWhy(t, reason));

export const confirmDeliver = (t: Texts, o: OrderInfo | null) => (o ? t.operator.confirmDeliverOf(described(t, o)) : t.operator.confirmDeliver);
export const confirmRefund = (t: Texts, o: OrderInfo | null) => (o ? t.operator.confirmRefundOf(a(t, o.partner_price), o.currency) : t.operator.confirmRefund);

export const unmatchedDeposit = (t: Texts, depositNumber: string, value: string, asset: string, net: string, reason: string) =>
  t.operator.unmatchedDeposit(depositNumber, a(t, value), asset, network(t, net), depositWhy(t, reason));

export const storageDown = (t: Texts, reason: string, detail: string) => t.operator.storageDown(t.operator.storageFault[reason] ?? t.operator.storageDownOther, detail);
export const storageUp = (t: Texts, reason: string, seconds: number) => t.operator.storageUp(seconds, t.operator.storageFault[reason] ?? t.operator.storageUpOther);

export function supplier(t: Texts, a: { supplier: string; problem: string; detail: string; balance_ton?: string; need_ton?: string }): string {
  const problem = t.operator.supplierProblem[a.problem];
  const words = problem ? problem(a.balance_ton === undefined ? '?' : amount(t.lang, a.balance_ton), a.need_ton === undefined ? '?' : amount(t.lang, a.need_ton)) : t.operator.supplierProblemOther;
  return t.operator.supplier(a.supplier === 'fragment' ? 'Fragment' : a.supplier, words, a.detail);
}

export const settledBefore = (t: Texts, o: OrderInfo) => t.operator.settledBefore(status(t, o));

export const reviewsSummary = (t: Texts, n: number, oldestMs: number) => t.operator.reviewsSummary(n, duration(oldestMs, t.lang));

export const reviewLine = (t: Texts, i: number, o: OrderInfo, partnerName: string, ageMs: number) =>
  t.operator.reviewLine(i, o.number, partnerName, what(t, o), o.recipient.replace(/^@/, ''), a(t, o.partner_price), o.currency, duration(ageMs, t.lang));

export const reviewTitle = (t: Texts, orderId: string, partnerName: string | null, o: OrderInfo | null) =>
  t.operator.reviewTitle(orderId) + (partnerName ? t.operator.reviewTitleOf(partnerName) : '') + (o ? t.operator.reviewTitleWhat(described(t, o), a(t, o.partner_price), o.currency) : '');

export const depositTitle = (t: Texts, d: DepositShown) => t.operator.depositTitle(d.number, a(t, d.amount), d.asset, network(t, d.network));

export function handled(t: Texts, h: Handled): string {
  const w = t.operator;
  const who = h.by ? w.handledBy(h.by) : w.handledOutside;
  const when = handledAt(h.at);
  switch (h.outcome) {
    case 'delivered':
      return w.handledDelivered(who, when);
    case 'refunded':
      return w.handledRefunded(who, when);
    case 'credited':
      return w.handledCredited(h.detail ?? w.handledCreditedSomeone, who, when);
    default:
      return h.detail ? w.handledClosedNote(who, when, h.detail) : w.handledClosed(who, when);
  }
}

export const alreadyHandled = (t: Texts, h: Handled) => t.operator.alreadyHandled(handled(t, h));

export function deposit(t: Texts, d: DepositShown): string {
  const w = t.operator;
  return [
    w.deposit(d.number, a(t, d.amount), d.asset, network(t, d.network), zonedTime(d.created_at)),
    // Not d.note: the service's own note (English, with network codes) says again what the reason says.
    w.depositWhy(depositWhy(t, d.reason)) + (d.request_id ? w.depositLooksLike(d.request_id) : ''),
    w.depositTx(d.tx_hash) + (d.from ? w.depositFrom(d.from) : ''),
    ...(d.comment ? [w.depositComment(d.comment)] : []),
  ].join('\n');
}

export const depositsSummary = (t: Texts, n: number, oldestMs: number) => t.operator.depositsSummary(n, duration(oldestMs, t.lang));

/** A deposit's button in /deposits: its place on the page, number and amount. */
export const depositButton = (t: Texts, i: number, d: DepositShown) => t.operator.depositButton(i, d.number, a(t, d.amount), d.asset);

export const depositLine = (t: Texts, i: number, d: DepositShown, ageMs: number) =>
  t.operator.depositLine(i, d.number, a(t, d.amount), d.asset, network(t, d.network), duration(ageMs, t.lang), depositWhy(t, d.reason));

export const askPartner = (t: Texts, d: DepositShown) => t.operator.askPartner(a(t, d.amount), d.asset, d.number);

export const partnerMatches = (t: Texts, query: string, n: number, more: boolean) => (more ? t.operator.partnerMatchesMore(query, n) : t.operator.partnerMatches(query, n));

export const partnerButton = (t: Texts, name: string, id: number, active: boolean) => t.operator.partnerButton(name, id) + (active ? '' : t.operator.notActivated);

export const confirmCredit = (t: Texts, d: DepositShown, partnerName: string, active: boolean) =>
  [
    t.operator.confirmCredit(a(t, d.amount), d.asset, d.number, partnerName),
    active ? t.operator.creditRules(a(t, formatAmount(topupMinimum('USD', false), 'USD')), a(t, formatAmount(topupMinimum('TON', false), 'TON'))) : t.operator.creditFirst(a(t, String(topupMinimum('USD', true) / 100))),
  ].join('\n');

export const depositCredited = (t: Texts, d: DepositShown, partnerName: string) => t.operator.depositCredited(d.number, partnerName, a(t, d.amount), d.asset);

/** The adjustment steps of a deposit card ("Correct a partner's balance"): amounts as the reader reads them. */
export const askAdjustPartner = (t: Texts, d: DepositShown) => t.operator.askAdjustPartner(d.number);
export const askAdjustAmount = (t: Texts, partner: string, currency: string, balance: string) => t.operator.askAdjustAmount(partner, currency, a(t, balance));
export const confirmAdjust = (t: Texts, amount: string, currency: string, partner: string) => t.operator.confirmAdjust(a(t, amount), currency, partner);
export const adjusted = (t: Texts, partner: string, amount: string, currency: string, after: string) => t.operator.adjusted(partner, a(t, amount), currency, a(t, after));
export const adjustNegative = (t: Texts, currency: string, balance: string) => t.operator.adjustNegative(currency, a(t, balance));

export const askCloseNote = (t: Texts, d: DepositShown) => t.operator.askCloseNote(d.number, a(t, d.amount), d.asset);

export const depositClosed = (t: Texts, d: DepositShown) => t.operator.depositClosed(d.number, d.note ?? '');

export const depositGone = (t: Texts, id: string, st: string | null) => (st ? t.operator.depositGone(id, t.operator.depositStatus[st] ?? st) : t.operator.depositMissing(id));

/** Why crediting or closing a deposit was refused (partnerName null: closing). */
export function depositError(t: Texts, e: ErrorInfo, partnerName: string | null): string {
  const w = t.operator.depositErrors;
  switch (e.code) {
    case 'deposit_not_unmatched':
      return w.deposit_not_unmatched;
    case 'topup_below_minimum':
      return t.operator.belowMinimum(partnerName ?? t.operator.thisPartner, a(t, String(e.extra.minimum)), String(e.extra.currency));
    case 'not_found':
      return /partner/i.test(e.detail) ? w.partner_gone : w.deposit_gone;
    case 'bad_network':
      return w.bad_network;
    case 'tx_already_credited':
      return w.tx_already_credited;
    case 'validation_error':
      return partnerName === null ? w.bad_note : w.bad_asset;
    default:
      return errorText(t, e);
  }
}
