import { CURRENCIES } from '../domain/enums.js';
import { formatAmount, type Currency } from '../domain/money.js';
import { offsetIso } from '../domain/time-format.js';
import { listEntriesNewestFirst, type LedgerEntryRow } from '../store/ledger-repo.js';
import type { Deps } from './deps.js';
import { encodeCursor } from './paging.js';
import type { LedgerExportInput, LedgerListInput } from './requests/queries.js';

/**
 * The partner API's GET /ledger: the partner's own ledger entries, newest first, with the
 * paging rules of GET /orders (`{items, count, next_cursor}`, `limit` 1–200 default 50, `from`/`to` in
 * the same formats, unknown parameters 400 bad_param).
 */

/** One entry as the partner sees it: signed amount and balance after, as decimal strings. */
export function partnerEntryView(e: LedgerEntryRow) {
  return {
    entry_id: e.entryId,
    kind: e.kind,
    currency: e.currency,
    amount: formatAmount(e.amount, e.currency),
    balance_after: formatAmount(e.balanceAfter, e.currency),
    order_id: e.orderId,
    topup_id: e.topupId,
    /** support's reason for an `adjustment` (null for every other kind) */
    note: e.note,
    created_at: offsetIso(e.createdAt),
  };
}

export interface LedgerQuery {
  currencies: Currency[];
  from?: number;
  to?: number;
}

/** The filters of the ledger's CSV export (partner and operator API); both currencies when none is named. */
export function ledgerExportFilters({ currency, from, to }: LedgerExportInput): LedgerQuery {
  return { currencies: currency ? [currency] : [...CURRENCIES], from, to };
}

export function listOwnLedger(deps: Pick<Deps, 'db'>, partnerId: number, { currency, from, to, cursor: beforeId, limit }: LedgerListInput) {
  const f: LedgerQuery = { currencies: currency ? [currency] : [...CURRENCIES], from, to };
  // newest first across currencies: the newest `limit + 1` of each, merged
  const rows = f.currencies
    .flatMap((currency) => listEntriesNewestFirst(deps.db, { partnerId, currency, from: f.from, to: f.to, beforeId, limit: limit + 1 }))
    .sort((a, b) => b.entryId - a.entryId)
    .slice(0, limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map(partnerEntryView),
    count: page.length,
    next_cursor: rows.length > limit ? encodeCursor('e', page[page.length - 1].entryId) : null,
  };
}
