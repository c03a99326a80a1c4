import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { CsvExport } from '../app/exports.js';

/**
 * Sends an export as RFC 4180 CSV (csv-stringify: a header line, CRLF line ends, a field quoted when it
 * holds a comma, quote, CR or LF, quotes doubled), streamed: rows are pulled from the export only as
 * fast as the client takes the text (Readable.from stops pulling when the stringifier's buffer is full,
 * and the stringifier when the socket's is). A client that goes away destroys the chain, which returns the
 * row iterator and so closes its reader. No rows: the header line alone.
 */
export function sendCsv(reply: FastifyReply, e: CsvExport): FastifyReply {
  const source = Readable.from(e.rows, { objectMode: true, highWaterMark: 64 });
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
