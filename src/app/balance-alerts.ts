import { afterDebit, parseThreshold, thresholdRule } from '../domain/balance-alert.js';
import { CURRENCIES } from '../domain/enums.js';
import { fail } from '../domain/errors.js';
import { isJsonObject } from './requests/parse.js';
import { formatAmount, type Currency } from '../domain/money.js';
import { audit } from '../store/audit-repo.js';
import { deleteBalanceAlert, getBalanceAlert, listBalanceAlerts, putBalanceAlert, setAlerted } from '../store/balance-alerts-repo.js';
import { inTx, type Tx } from '../store/db.js';
import type { Deps } from './deps.js';
import { requirePartner } from './partners.js';
import type { AfterCommit } from './unit-of-work.js';
import { recordEvent } from './webhooks/outbox.js';

/**
 * Low-balance alerts: an optional threshold per partner and currency, set by owners in
 * the bot (/alerts) and by operators (PUT /partners/{id}/alerts). When a debit takes a balance below its
 * threshold, the owners' chats hear it once (bus `balance_low`, after the commit), and a `balance.low`
 * webhook goes out if the partner listed it in the Webhook block's `events`; the alerted state is written
 * in the debit's transaction.
 */
export type AlertsView = Record<Currency, string | null>;

export function alertsView(deps: Pick<Deps, 'db'>, partnerId: number): AlertsView {
  requirePartner(deps, partnerId);
  const out: AlertsView = { USD: null, TON: null };
  for (const a of listBalanceAlerts(deps.db, partnerId)) out[a.currency] = formatAmount(a.threshold, a.currency);
  return out;
}

/**
 * `{USD?: "100.00" | null, TON?: "50.000" | null}`: a currency given a threshold saves it (afresh: the next
 * debit that leaves the balance below it alerts), `null` clears it, an absent one stays. Answers all of them.
 */
export function setAlerts(deps: Pick<Deps, 'db' | 'clock'>, partnerId: number, body: unknown, actor: string): AlertsView {
  requirePartner(deps, partnerId);
  const b = isJsonObject(body) ? body : fail('validation_error', 'The body must be a JSON object.');
  const changes: { currency: Currency; threshold: number | null }[] = [];
  for (const k of Object.keys(b)) if (!(CURRENCIES as readonly string[]).includes(k)) fail('validation_error', `Unknown field: ${k}. Thresholds are set per currency: USD, TON.`, { field: k });
  for (const currency of CURRENCIES) {
    const v = b[currency];
    if (v === undefined) continue;
    if (v === null) {
      changes.push({ currency, threshold: null });
      continue;
    }
    const threshold = parseThreshold(v, currency);
    if (threshold === null) fail('validation_error', `${currency} must be ${thresholdRule(currency)}.`, { field: currency });
    changes.push({ currency, threshold });
  }
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    for (const c of changes) {
      if (c.threshold === null) deleteBalanceAlert(tx, partnerId, c.currency);
      else putBalanceAlert(tx, partnerId, c.currency, c.threshold, now);
    }
    if (changes.length)
      audit(tx, now, actor, 'alerts.save', String(partnerId), Object.fromEntries(changes.map((c) => [c.currency, c.threshold === null ? null : formatAmount(c.threshold, c.currency)])));
  });
  return alertsView(deps, partnerId);
}

/** In the debit's transaction: the alert state after it, and the alert when one is due. */
export function noteDebit(tx: Tx, deps: Pick<Deps, 'clock' | 'ids' | 'bus' | 'wake'>, after: AfterCommit, d: { partnerId: number; currency: Currency; before: number; after: number; orderId: string }): void {
  const a = getBalanceAlert(tx, d.partnerId, d.currency);
  if (!a) return;
  const next = afterDebit(a, d.before, d.after);
  if (next.alerted !== a.alerted) setAlerted(tx, d.partnerId, d.currency, next.alerted, deps.clock.now());
  if (!next.alert) return;
  const balance = formatAmount(d.after, d.currency);
  const threshold = formatAmount(a.threshold, d.currency);
  recordEvent(tx, deps, after, {
    partnerId: d.partnerId,
    orderId: d.orderId,
    event: 'balance.low',
    data: { currency: d.currency, balance, threshold, order_id: d.orderId },
    orderWebhookUrl: null,
  });
  after(() => deps.bus.emit('balance_low', { partnerId: d.partnerId, currency: d.currency, balance, threshold, orderId: d.orderId }));
}
