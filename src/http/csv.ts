import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { Cell, CsvExport } from '../app/exports.js';

/** A leading character that makes a spreadsheet read a cell as a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number ("-12.50", "100", "0.79"): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A text cell made safe to open in a spreadsheet: one that begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return gets a leading `'` (OWASP), so `=HYPERLINK(...)` or `@durov` is shown as text and never
 * run as a formula; plain numbers such as signed amounts (`-12.50`) are left as they are. Numbers and
 * nulls are not text and pass unchanged.
 */
export function spreadsheetSafe(cell: Cell): Cell {
  if (typeof cell !== 'string' || !FORMULA_START.test(cell) || PLAIN_NUMBER.test(cell)) return cell;
  return `'${cell}`;
}

/**
 * Sends an export as RFC 4180 CSV (csv-stringify: a header line, CRLF line ends, a field quoted when it
 * holds a comma, quote, CR or LF, quotes doubled), streamed: rows are pulled from the export only as
 * fast as the client takes the text (Readable.from stops pulling when the stringifier's buffer is full,
 * and the stringifier when the socket's is). A client that goes away destroys the chain, which returns the
 * row iterator and so closes its reader. No rows: the header line alone. Every text cell goes through
 * spreadsheetSafe: this is the one place the service writes CSV.
 */
export function sendCsv(reply: FastifyReply, e: CsvExport): FastifyReply {
  const source = Readable.from(safeRows(e.rows), { objectMode: true, highWaterMark: 64 });
  // quoted_match: csv-stringify quotes a field holding the record delimiter (CRLF) but not a lone CR or LF,
  // which RFC 4180 readers would take for the end of the record
  const csv = stringify({ header: true, columns: [...e.columns], record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
  // an error after the status line can only cut the answer short; both streams are destroyed either way
  pipeline(source, csv, () => {});
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${e.filename}"`)
    .header('Cache-Control', 'no-store')
    .send(csv);
}

/** The rows with every cell made spreadsheet-safe; stopped early, the for-of returns the export's own iterator (closing its reader). */
function* safeRows(rows: IterableIterator<Cell[]>): Generator<Cell[]> {
  for (const r of rows) yield r.map(spreadsheetSafe);
}
