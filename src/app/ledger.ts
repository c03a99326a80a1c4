import { fail } from '../domain/errors.js';
import { formatAmount, isCurrency, type Currency } from '../domain/money.js';
import { offsetIso } from '../domain/time-format.js';
import { withTempFiles } from '../store/db.js';
import { checkLedger, type LedgerCheck } from '../store/ledger-check.js';
import { listEntries, type LedgerEntryRow } from '../store/ledger-repo.js';
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
    // an adjustment's reason, as the operator wrote it
    ...(e.note ? { note: e.note } : {}),
    balance_after: formatAmount(e.balanceAfter, e.currency),
    created_at: offsetIso(e.createdAt),
  };
}

export function ledgerPage(deps: Pick<Deps, 'db'>, partnerId: number, q: { currency?: unknown; cursor?: unknown; limit?: unknown }) {
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

/** GET /ledger/check (operator-api.md): the invariants of src/store/ledger-check.ts on the service's database. */
export function ledgerCheck(deps: Pick<Deps, 'db'>): LedgerCheck {
  // it groups every order: its sorts spill to disk rather than hold a large database's orders in memory
  return withTempFiles(deps.db, () => checkLedger(deps.db));
}
