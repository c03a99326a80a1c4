import { orderView } from '../domain/order-view.js';
import { ExportReader } from '../store/export-reader.js';
import type { LedgerEntryRow } from '../store/ledger-repo.js';
import type { OrderRow } from '../store/orders-repo.js';
import type { Deps } from './deps.js';
import { orderExportFilters, type OrderFilters } from './orders/query.js';
import { ledgerExportFilters, partnerEntryView, type LedgerQuery } from './partner-ledger.js';
import type { LedgerExportInput, OrderExportInput } from './requests/queries.js';
import { requirePartner } from './partners.js';

/**
 * CSV exports: the rows of GET /orders and GET /ledger with the same filters (no paging),
 * newest first, every row made from the same view as the JSON answers: money as decimal strings, order
 * `created_at` in local time with microseconds, other times with `+00:00`. The rows are produced one at a
 * time from a statement of a read-only connection of their own (store/export-reader.ts), so memory does not
 * grow with the number of rows; the HTTP shell writes them at the pace of the client.
 */
export type Cell = string | number | null;

export interface CsvExport {
  filename: string;
  columns: readonly string[];
  /** Pulled one by one; reading it to the end, or returning it early, closes the reader. */
  rows: IterableIterator<Cell[]>;
}

export const ORDER_COLUMNS = [
  'order_id', 'created_at', 'type', 'status', 'partner_price', 'currency', 'price_usd_ref', 'quantity', 'recipient', 'label',
  'completed_at', 'refunded', 'client_reference', 'gift', 'failure_stage', 'failure_reason',
] as const;

export const LEDGER_COLUMNS = ['entry_id', 'created_at', 'currency', 'kind', 'amount', 'balance_after', 'order_id', 'topup_id', 'note'] as const;

function orderCells(o: OrderRow): Cell[] {
  const v = orderView(o);
  const failure = v.failure as { stage: string; reason: string } | null | undefined;
  return [
    o.orderId, v.created_at as string, o.type, o.status, v.partner_price as string, o.currency, (v.price_usd_ref as string | null | undefined) ?? null, o.quantity, o.recipient, v.label as string,
    v.completed_at as string | null, o.refunded ? 'true' : 'false', o.clientReference, o.giftId, failure?.stage ?? null, failure?.reason ?? null,
  ];
}

function ledgerCells(e: LedgerEntryRow): Cell[] {
  const v = partnerEntryView(e);
  return [v.entry_id, v.created_at, v.currency, v.kind, v.amount, v.balance_after, v.order_id, v.topup_id, v.note];
}

/** Rows read lazily: the reader is opened at the first row and closed at the end or when the export stops early. */
function* readRows<T>(file: string, walk: (r: ExportReader) => Iterable<T>, cells: (x: T) => Cell[]): Generator<Cell[]> {
  const reader = new ExportReader(file);
  try {
    for (const x of walk(reader)) yield cells(x);
  } finally {
    reader.close();
  }
}

const day = (deps: Pick<Deps, 'clock'>) => new Date(deps.clock.now()).toISOString().slice(0, 10);

function ordersExport(deps: Pick<Deps, 'clock' | 'config'>, partnerId: number, f: OrderFilters): CsvExport {
  return { filename: `orders-${partnerId}-${day(deps)}.csv`, columns: ORDER_COLUMNS, rows: readRows(deps.config.DATABASE_PATH, (r) => r.orders({ partnerId, ...f }), orderCells) };
}

function ledgerExport(deps: Pick<Deps, 'clock' | 'config'>, partnerId: number, f: LedgerQuery): CsvExport {
  return { filename: `ledger-${partnerId}-${day(deps)}.csv`, columns: LEDGER_COLUMNS, rows: readRows(deps.config.DATABASE_PATH, (r) => r.ledger({ partnerId, ...f }), ledgerCells) };
}

/** GET /orders/export.csv: the filters of GET /orders except paging; bad ones are refused before any row. */
export function exportOwnOrders(deps: Pick<Deps, 'clock' | 'config'>, partnerId: number, q: OrderExportInput): CsvExport {
  return ordersExport(deps, partnerId, orderExportFilters(q));
}

/** GET /ledger/export.csv: the filters of GET /ledger except paging. */
export function exportOwnLedger(deps: Pick<Deps, 'clock' | 'config'>, partnerId: number, q: LedgerExportInput): CsvExport {
  return ledgerExport(deps, partnerId, ledgerExportFilters(q));
}

/** The operator API's GET /partners/{id}/orders/export.csv: the same export for a partner named by id. */
export function exportPartnerOrders(deps: Pick<Deps, 'db' | 'clock' | 'config'>, partnerId: number, q: OrderExportInput): CsvExport {
  requirePartner(deps, partnerId);
  return ordersExport(deps, partnerId, orderExportFilters(q));
}

/** The operator API's GET /partners/{id}/ledger/export.csv. */
export function exportPartnerLedger(deps: Pick<Deps, 'db' | 'clock' | 'config'>, partnerId: number, q: LedgerExportInput): CsvExport {
  requirePartner(deps, partnerId);
  return ledgerExport(deps, partnerId, ledgerExportFilters(q));
}
