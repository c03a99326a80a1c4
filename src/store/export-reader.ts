import Database from 'better-sqlite3';
import { and, desc, eq, gte, isNotNull, lt, lte, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { Currency } from '../domain/money.js';
import type { LedgerEntryRow } from './ledger-repo.js';
import type { OrderFilter, OrderRow } from './orders-repo.js';
import { ledgerEntries, orders } from './schema.js';

/** Rows read per page: each page is one short read, after which the reader holds no snapshot. */
export const EXPORT_PAGE_ROWS = 500;

/**
 * A read-only SQLite connection of its own for one CSV export, read in short pages. An export goes at the
 * pace of its client, which may stop reading for as long as it likes; a statement walked row by row would
 * hold its read snapshot all that time, and in WAL mode no checkpoint can then empty the write-ahead log,
 * which grows with every order written meanwhile. So rows are read EXPORT_PAGE_ROWS at a time by keyset
 * (newest first: the next page is everything older than the last row sent), each page one statement that
 * runs to its end at once: between pages, and so while the client stalls, the reader holds no snapshot.
 * A row is sent at most once; rows written after the export began are newer than its first page and not
 * in it; an order whose status changes during the export shows the status of the moment its page was read.
 * A connection of its own (not the service's) keeps page reads off the service's write lock and prepared
 * statements. Close it when done (the iterators of src/app/exports.ts do, at their end).
 */
export class ExportReader {
  /** Readers open now in this process: for tests and diagnostics. */
  static open = 0;
  private readonly client: Database.Database;
  private readonly db;

  constructor(file: string, private readonly pageRows = EXPORT_PAGE_ROWS) {
    this.client = new Database(file, { readonly: true, fileMustExist: true });
    ExportReader.open++;
    this.client.pragma('busy_timeout = 5000');
    this.db = drizzle(this.client);
  }

  /** A partner's orders, newest first, with the filters of GET /orders (index orders_partner_*_seq), page by page. */
  *orders(f: Omit<OrderFilter, 'beforeSeq' | 'limit'>): IterableIterator<OrderRow> {
    const conds: SQL[] = [eq(orders.partnerId, f.partnerId)];
    if (f.status !== undefined) conds.push(eq(orders.status, f.status as OrderRow['status']));
    if (f.type !== undefined) conds.push(eq(orders.type, f.type as OrderRow['type']));
    if (f.clientReference !== undefined) conds.push(eq(orders.clientReference, f.clientReference), isNotNull(orders.clientReference));
    if (f.from !== undefined) conds.push(gte(orders.createdAt, f.from));
    if (f.to !== undefined) conds.push(lte(orders.createdAt, f.to));
    yield* this.pages<OrderRow>((last) =>
      this.db
        .select()
        .from(orders)
        .where(and(...conds, ...(last ? [lt(orders.seq, last.seq)] : [])))
        .orderBy(desc(orders.seq))
        .limit(this.pageRows)
        .all(),
    );
  }

  /**
   * A partner's ledger entries, newest first: one paged walk of the index ledger_partner (partner, currency,
   * entry id) per currency, merged by entry id, so that SQLite never sorts the whole ledger.
   */
  *ledger(f: { partnerId: number; currencies: Currency[]; from?: number; to?: number }): IterableIterator<LedgerEntryRow> {
    const walks = f.currencies.map((currency) => {
      const conds: SQL[] = [eq(ledgerEntries.partnerId, f.partnerId), eq(ledgerEntries.currency, currency)];
      if (f.from !== undefined) conds.push(gte(ledgerEntries.createdAt, f.from));
      if (f.to !== undefined) conds.push(lte(ledgerEntries.createdAt, f.to));
      const it = this.pages<LedgerEntryRow>((last) =>
        this.db
          .select()
          .from(ledgerEntries)
          .where(and(...conds, ...(last ? [lt(ledgerEntries.entryId, last.entryId)] : [])))
          .orderBy(desc(ledgerEntries.entryId))
          .limit(this.pageRows)
          .all(),
      );
      return { it, head: it.next() };
    });
    for (;;) {
      let best: (typeof walks)[number] | undefined;
      for (const w of walks) if (!w.head.done && (!best || w.head.value.entryId > best.head.value!.entryId)) best = w;
      if (!best) return;
      yield best.head.value!;
      best.head = best.it.next();
    }
  }

  close(): void {
    if (!this.client.open) return;
    this.client.close();
    ExportReader.open--;
  }

  /** Rows of successive pages: `read(last)` gives the page after the row `last` (the first page for none); a short page is the last. */
  private *pages<T>(read: (last: T | undefined) => T[]): Generator<T> {
    let last: T | undefined;
    for (;;) {
      const page = read(last);
      yield* page;
      if (page.length < this.pageRows) return;
      last = page[page.length - 1];
    }
  }
}
