import Database from 'better-sqlite3';
import { and, desc, eq, getTableColumns, gte, isNotNull, lte, type Column, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { Currency } from '../domain/money.js';
import type { LedgerEntryRow } from './ledger-repo.js';
import type { OrderFilter, OrderRow } from './orders-repo.js';
import { ledgerEntries, orders } from './schema.js';

/**
 * A read-only SQLite connection of its own for one CSV export. An export walks a statement row by row at
 * the pace of the client, and better-sqlite3 keeps a connection busy while one of its statements iterates,
 * so the service's connection must not be the one. In WAL mode this reader sees one consistent snapshot
 * for the whole export while the service goes on writing. Close it when done (the iterators do, at their end).
 */
export class ExportReader {
  /** Readers open now in this process (each holds a read snapshot): for tests and diagnostics. */
  static open = 0;
  private readonly client: Database.Database;
  private readonly db;

  constructor(file: string) {
    this.client = new Database(file, { readonly: true, fileMustExist: true });
    ExportReader.open++;
    this.client.pragma('busy_timeout = 5000');
    this.db = drizzle(this.client);
  }

  /** A partner's orders, newest first, with the filters of GET /orders (index orders_partner_*_seq). */
  orders(f: Omit<OrderFilter, 'beforeSeq' | 'limit'>): IterableIterator<OrderRow> {
    const conds: SQL[] = [eq(orders.partnerId, f.partnerId)];
    if (f.status !== undefined) conds.push(eq(orders.status, f.status as OrderRow['status']));
    if (f.type !== undefined) conds.push(eq(orders.type, f.type as OrderRow['type']));
    if (f.clientReference !== undefined) conds.push(eq(orders.clientReference, f.clientReference), isNotNull(orders.clientReference));
    if (f.from !== undefined) conds.push(gte(orders.createdAt, f.from));
    if (f.to !== undefined) conds.push(lte(orders.createdAt, f.to));
    return this.rows<OrderRow>(this.db.select().from(orders).where(and(...conds)).orderBy(desc(orders.seq)), getTableColumns(orders));
  }

  /**
   * A partner's ledger entries, newest first: one walk of the index ledger_partner (partner, currency,
   * entry id) per currency, merged by entry id, so that SQLite never sorts the whole ledger.
   */
  *ledger(f: { partnerId: number; currencies: Currency[]; from?: number; to?: number }): IterableIterator<LedgerEntryRow> {
    const walks = f.currencies.map((currency) => {
      const conds: SQL[] = [eq(ledgerEntries.partnerId, f.partnerId), eq(ledgerEntries.currency, currency)];
      if (f.from !== undefined) conds.push(gte(ledgerEntries.createdAt, f.from));
      if (f.to !== undefined) conds.push(lte(ledgerEntries.createdAt, f.to));
      const it = this.rows<LedgerEntryRow>(this.db.select().from(ledgerEntries).where(and(...conds)).orderBy(desc(ledgerEntries.entryId)), getTableColumns(ledgerEntries));
      return { it, head: it.next() };
    });
    try {
      for (;;) {
        let best: (typeof walks)[number] | undefined;
        for (const w of walks) if (!w.head.done && (!best || w.head.value.entryId > best.head.value!.entryId)) best = w;
        if (!best) return;
        yield best.head.value!;
        best.head = best.it.next();
      }
    } finally {
      for (const w of walks) w.it.return?.();
    }
  }

  close(): void {
    if (!this.client.open) return;
    this.client.close();
    ExportReader.open--;
  }

  /** Rows of a drizzle select run as a raw iterating statement, mapped to the table's row objects as drizzle maps them. */
  private *rows<T>(query: { toSQL(): { sql: string; params: unknown[] } }, columns: Record<string, Column>): IterableIterator<T> {
    const { sql, params } = query.toSQL();
    const cols = Object.entries(columns);
    const it = this.client.prepare(sql).raw(true).iterate(...params) as IterableIterator<unknown[]>;
    try {
      for (const r of it) {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < cols.length; i++) o[cols[i][0]] = r[i] === null ? null : cols[i][1].mapFromDriverValue(r[i]);
        yield o as T;
      }
    } finally {
      it.return?.();
    }
  }
}
