import { fail } from '../domain/errors.js';
import { CURRENCIES } from '../domain/enums.js';
import { formatAmount, isCurrency, type Currency } from '../domain/money.js';
import { offsetIso, parseTimeFilter } from '../domain/time-format.js';
import { listEntriesNewestFirst, type LedgerEntryRow } from '../store/ledger-repo.js';
import type { Deps } from './deps.js';
import { decodeCursor, encodeCursor, parseLimit } from './paging.js';

/**
 * The partner API's GET /ledger (issue 15): the partner's own ledger entries, newest first, with the
 * paging rules of GET /orders (`{items, count, next_cursor}`, `limit` 1–200 default 50, `from`/`to` in
 * the same formats, unknown parameters 400 bad_param).
 */
export const LEDGER_PAGE_DEFAULT = 50;
export const LEDGER_PAGE_MAX = 200;
const KNOWN = new Set(['currency', 'from', 'to', 'cursor', 'limit']);

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
    created_at: offsetIso(e.createdAt),
  };
}

export interface LedgerQuery {
  currencies: Currency[];
  from?: number;
  to?: number;
}

/** The filters shared by the ledger list and its CSV export. */
export function parseLedgerFilters(q: Record<string, unknown>, known: Set<string> = KNOWN): LedgerQuery {
  for (const k of Object.keys(q)) if (!known.has(k)) fail('bad_param', `Unknown query parameter: ${k}.`, { param: k });
  for (const [k, v] of Object.entries(q)) if (typeof v !== 'string') fail('bad_param', `${k} is given more than once.`, { param: k });
  let currencies: Currency[] = [...CURRENCIES];
  if (q.currency !== undefined) {
    if (!isCurrency(q.currency)) fail('bad_param', 'currency must be USD or TON.', { param: 'currency' });
    currencies = [q.currency];
  }
  const from = q.from === undefined ? undefined : parseTimeFilter(q.from as string) ?? fail('bad_time', 'from is not a valid time.');
  const to = q.to === undefined ? undefined : parseTimeFilter(q.to as string) ?? fail('bad_time', 'to is not a valid time.');
  return { currencies, from, to };
}

export function listOwnLedger(deps: Pick<Deps, 'db'>, partnerId: number, q: Record<string, unknown>) {
  const f = parseLedgerFilters(q);
  const limit = parseLimit(q.limit, LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX);
  const beforeId = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'e');
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
