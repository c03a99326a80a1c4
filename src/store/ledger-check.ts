import { formatAmount } from '../domain/money.js';
import type { Conn } from './db.js';
import { entriesWithoutOrder, ledgerFigures, orderLedgerFigures } from './ledger-repo.js';
import { statsDrift } from './stats-repo.js';

export interface LedgerCheck {
  ok: boolean;
  problems: Record<string, unknown>[];
}

/**
 * The invariants of operator-api.md GET /ledger/check, read from one database handle: the service's own,
 * or a backup copy being checked (src/store/snapshot.ts).
 */
export function checkLedger(conn: Conn): LedgerCheck {
  const problems: Record<string, unknown>[] = [];
  for (const a of ledgerFigures(conn)) {
    if (a.balance !== a.sum)
      problems.push({ problem: 'balance_mismatch', partner_id: a.partnerId, currency: a.currency, balance: formatAmount(a.balance, a.currency), entries_sum: formatAmount(a.sum, a.currency) });
    if (a.balance < 0) problems.push({ problem: 'negative_balance', partner_id: a.partnerId, currency: a.currency });
    if (a.lastAfter !== null && a.lastAfter !== a.balance)
      problems.push({ problem: 'balance_after_mismatch', partner_id: a.partnerId, currency: a.currency });
  }
  const orderRows = orderLedgerFigures(conn);
  for (const o of orderRows) {
    if (o.debits !== 1 || o.debit_sum !== -o.amount) problems.push({ problem: 'order_not_debited_once', order_id: o.order_id, debits: o.debits });
    if (o.refunds > 1) problems.push({ problem: 'order_refunded_twice', order_id: o.order_id, refunds: o.refunds });
    if (o.refunds === 1 && o.refund_sum !== o.amount) problems.push({ problem: 'refund_amount_mismatch', order_id: o.order_id });
    if ((o.refunds === 1) !== Boolean(o.refunded)) problems.push({ problem: 'refunded_flag_mismatch', order_id: o.order_id, refunded: Boolean(o.refunded), refunds: o.refunds });
  }
  const orphans = entriesWithoutOrder(conn);
  for (const e of orphans) problems.push({ problem: 'entry_without_order', entry_id: e.entry_id, order_id: e.order_id });
  // the daily figures of GET /stats against the orders they count
  for (const d of statsDrift(conn)) problems.push({ problem: 'stats_mismatch', ...d });
  return { ok: problems.length === 0, problems };
}
