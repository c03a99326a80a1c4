import { fail } from '../domain/errors.js';
import { formatAmount, isCurrency, type Currency } from '../domain/money.js';
import { offsetIso } from '../domain/time-format.js';
import { statsDrift } from '../store/stats-repo.js';
import { entriesWithoutOrder, ledgerFigures, listEntries, orderLedgerFigures, type LedgerEntryRow } from '../store/ledger-repo.js';
import type { Deps } from './deps.js';
import { requirePartner } from './partners.js';
import { decodeCursor, encodeCursor, parseLimit } from './paging.js';

export function entryView(e: LedgerEntryRow) {
  return {
    entry_id: e.entryId,
    currency: e.currency,
    amount: formatAmount(e.amount, e.currency),
    kind: e.kind,
    ...(e.orderId ? { order_id: e.orderId } : {}),
    ...(e.topupId ? { topup_id: e.topupId } : {}),
    balance_after: formatAmount(e.balanceAfter, e.currency),
    created_at: offsetIso(e.createdAt),
  };
}

export function ledgerPage(deps: Deps, partnerId: number, q: { currency?: unknown; cursor?: unknown; limit?: unknown }) {
  requirePartner(deps, partnerId);
  let currency: Currency | undefined;
  if (q.currency !== undefined) {
    if (!isCurrency(q.currency)) fail('bad_param', 'currency must be USD or TON.');
    currency = q.currency;
  }
  const limit = parseLimit(q.limit, 50, 500);
  const afterId = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'l');
  const rows = listEntries(deps.db, { partnerId, currency, afterId, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    items: page.map(entryView),
    next_cursor: rows.length > limit ? encodeCursor('l', page[page.length - 1].entryId) : null,
  };
}

/** The invariants of operator-api.md GET /ledger/check. */
export function ledgerCheck(deps: Deps) {
  const problems: Record<string, unknown>[] = [];
  for (const a of ledgerFigures(deps.db)) {
    if (a.balance !== a.sum)
      problems.push({ problem: 'balance_mismatch', partner_id: a.partnerId, currency: a.currency, balance: formatAmount(a.balance, a.currency), entries_sum: formatAmount(a.sum, a.currency) });
    if (a.balance < 0) problems.push({ problem: 'negative_balance', partner_id: a.partnerId, currency: a.currency });
    if (a.lastAfter !== null && a.lastAfter !== a.balance)
      problems.push({ problem: 'balance_after_mismatch', partner_id: a.partnerId, currency: a.currency });
  }
  const orderRows = orderLedgerFigures(deps.db);
  for (const o of orderRows) {
    if (o.debits !== 1 || o.debit_sum !== -o.amount) problems.push({ problem: 'order_not_debited_once', order_id: o.order_id, debits: o.debits });
    if (o.refunds > 1) problems.push({ problem: 'order_refunded_twice', order_id: o.order_id, refunds: o.refunds });
    if (o.refunds === 1 && o.refund_sum !== o.amount) problems.push({ problem: 'refund_amount_mismatch', order_id: o.order_id });
    if ((o.refunds === 1) !== Boolean(o.refunded)) problems.push({ problem: 'refunded_flag_mismatch', order_id: o.order_id, refunded: Boolean(o.refunded), refunds: o.refunds });
  }
  const orphans = entriesWithoutOrder(deps.db);
  for (const e of orphans) problems.push({ problem: 'entry_without_order', entry_id: e.entry_id, order_id: e.order_id });
  // the daily figures of GET /stats against the orders they count
  for (const d of statsDrift(deps.db)) problems.push({ problem: 'stats_mismatch', ...d });
  return { ok: problems.length === 0, problems };
}
