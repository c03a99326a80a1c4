import type { FastifyInstance } from 'fastify';
import { exportOwnLedger, exportOwnOrders, LEDGER_COLUMNS, ORDER_COLUMNS } from '../../app/exports.js';
import { partnerStats } from '../../app/stats.js';
import { sendCsv } from '../csv.js';
import { sendJson } from '../frozen-json.js';
import { LEDGER_EXPORT_QUERY, ORDER_EXPORT_QUERY, STATS_QUERY, type LedgerExportInput, type OrderExportInput, type StatsInput } from '../../app/requests/queries.js';
import { documented, type Endpoint } from '../route.js';
import { partnerOf, type PartnerContext } from './context.js';

const STATS: Endpoint<StatsInput> = {
  method: 'get',
  path: '/stats',
  operationId: 'getStats',
  tag: 'Account',
  summary: 'Order statistics',
  description:
    'The orders created from `from` to `to` (both inclusive; default: the 30 days up to now; at most 366 days, else 400 `bad_range`), per type, status (the status now) and currency: how many, their spend (partner prices debited), how many were refunded and for how much, and the net spend. A refund counts with its order, whenever it was made. `group_by=day` splits the same figures by the UTC day of creation (`day`, `YYYY-MM-DD`). `totals` sums every order per currency.',
  query: STATS_QUERY,
  response: 'StatsResponse',
  okDescription: 'The figures.',
  responseExample: {
    from: '2026-03-01T00:00:00.000000+00:00',
    to: '2026-03-31T23:59:59.000000+00:00',
    group_by: null,
    items: [{ day: null, type: 'stars', status: 'completed', currency: 'USD', count: 10, spend: '15.80', refunded_count: 0, refunded_amount: '0.00', net_spend: '15.80' }],
    totals: [
      { currency: 'USD', count: 10, spend: '15.80', refunded_count: 0, refunded_amount: '0.00', net_spend: '15.80' },
      { currency: 'TON', count: 0, spend: '0.000', refunded_count: 0, refunded_amount: '0.000', net_spend: '0.000' },
    ],
  },
  errors: ['bad_time', 'bad_range', 'bad_param'],
};

const CSV_RULES =
  'RFC 4180 CSV in UTF-8 (`text/csv; charset=utf-8`, a `Content-Disposition` filename): a header line, CRLF line ends, a field quoted when it holds a comma, a quote or a line break, quotes doubled; an empty field is null. Money as decimal strings (2 places USD, 3 TON), times as in the JSON answers. Newest first, read in short pages and streamed as it is read, so any number of rows can be exported (not one snapshot: an order created after the export began is not in it, and one whose status changes meanwhile shows the status of the moment it was read); a range with no rows is the header line alone (200). Bad filters are refused with the JSON errors of the list endpoint before any row is sent. Spreadsheet-safe: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `\'`, so a spreadsheet shows it as text and never runs it as a formula (recipients too: `\'@durov`; strip the `\'` when reading the file as data); plain numbers such as `-12.50` stay as they are.';

const ORDERS_EXPORT: Endpoint<OrderExportInput> = {
  method: 'get',
  path: '/orders/export.csv',
  operationId: 'exportOrders',
  tag: 'Orders',
  summary: 'Export own orders as CSV',
  description: `Every order that GET /orders would list with the same filters (no paging). Columns: ${ORDER_COLUMNS.join(', ')}; created_at is local time with microseconds and no offset, completed_at has +00:00, refunded is true or false, gift is the gift identifier of an nft order, failure_stage and failure_reason those of a failed nft order. ${CSV_RULES}`,
  query: ORDER_EXPORT_QUERY,
  csv: {
    example: [
      ORDER_COLUMNS.join(','),
      'PA-100001,2026-03-01T12:00:00.000000,stars,completed,1.58,USD,,100,\'@durov,100 звёзд Telegram для @durov,2026-03-01T12:00:03.000000+00:00,false,"cart 7, ""gift""",,,',
      '',
    ].join('\r\n'),
  },
  okDescription: 'The orders as CSV.',
  errors: ['bad_status', 'bad_type', 'bad_time', 'bad_param'],
};

const LEDGER_EXPORT: Endpoint<LedgerExportInput> = {
  method: 'get',
  path: '/ledger/export.csv',
  operationId: 'exportLedger',
  tag: 'Account',
  summary: 'Export the ledger as CSV',
  description: `Every entry that GET /ledger would list with the same filters (no paging). Columns: ${LEDGER_COLUMNS.join(', ')}; amount is signed, created_at has +00:00. ${CSV_RULES}`,
  query: LEDGER_EXPORT_QUERY,
  csv: {
    example: [
      LEDGER_COLUMNS.join(','),
      '3,2026-03-01T12:00:00.000000+00:00,USD,order_debit,-1.58,48.42,PA-100001,',
      '1,2026-03-01T11:00:00.000000+00:00,USD,topup,50.00,50.00,,tp_0a1b2c',
      '',
    ].join('\r\n'),
  },
  okDescription: 'The entries as CSV.',
  errors: ['bad_time', 'bad_param'],
};

export const reportEndpoints = [STATS, ORDERS_EXPORT, LEDGER_EXPORT];

/** The partner API's reports: statistics and CSV exports. */
export function reportRoutes(app: FastifyInstance, { deps }: PartnerContext): void {
  documented(app, STATS, async (req, reply) => sendJson(reply, partnerStats(deps, partnerOf(req), req.query)));
  documented(app, ORDERS_EXPORT, async (req, reply) => sendCsv(reply, exportOwnOrders(deps, partnerOf(req), req.query)));
  documented(app, LEDGER_EXPORT, async (req, reply) => sendCsv(reply, exportOwnLedger(deps, partnerOf(req), req.query)));
}
