import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';
import { sha256Hex } from '../domain/secret-hash.js';
import { settleStaged } from './staged.js';
import { reportWriteError } from './storage-health.js';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
declare const insideTransaction: unique symbol;
/**
 * A transaction handle: the database's own query API (its queries run on the same connection, inside the
 * transaction), branded so that a function that must run inside a transaction (it takes a `Tx`) cannot be
 * handed the bare database. Only `inTx` makes one.
 */
export type Tx = Db & { readonly [insideTransaction]: true };
/** Either the database or an open transaction: repositories accept both. */
export type Conn = Db | Tx;

const here = path.dirname(fileURLToPath(import.meta.url));
/** drizzle/ at the project root: two levels up from src/store, three from the compiled dist/src/store. */
export const MIGRATIONS_FOLDER =
  [path.resolve(here, '../../drizzle'), path.resolve(here, '../../../drizzle')].find((d) => fs.existsSync(path.join(d, 'meta/_journal.json'))) ??
  path.resolve(here, '../../drizzle');

/** Read and write for the service's user only: the database holds balances, hashes and sealed secrets. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `file` (created empty when missing) private to the service's user whatever the umask: `open`'s
 * mode is filtered by the umask, so the mode is set again explicitly. A file owned by someone else (which
 * this user cannot chmod) is left as it is.
 */
export function makePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  try {
    if ((fs.statSync(file).mode & 0o777) !== PRIVATE_FILE_MODE) fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
  }
}

/**
 * Opens (creating its folder) the SQLite file in WAL mode and applies the generated migrations. The file is
 * created (or tightened to) 0600 before SQLite opens it: SQLite gives its -wal and -shm files the mode of
 * the database file, so they are 0600 too, whatever the umask.
 */
export function openDatabase(file: string): Db {
  const onDisk = file !== ':memory:' && file !== '' && !file.startsWith('file:');
  if (onDisk) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    makePrivateFile(file);
    // left by an earlier version with the umask's mode: tightened too (SQLite keeps an existing file's mode)
    for (const side of ['-wal', '-shm']) if (fs.existsSync(file + side)) makePrivateFile(file + side);
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  // A second process (a test, a backup) may hold the lock briefly: wait rather than fail.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -32768');
  sqlite.pragma('foreign_keys = ON');
  registerSqlFunctions(sqlite);
  const db = drizzle(sqlite, { schema }) as Db;
  const applied = appliedMigrations(sqlite);
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  const upgraded = appliedMigrations(sqlite) > applied;
  // After an upgrade, fold the WAL into the file and empty it: what a migration removed (plain invite codes)
  // must not stay readable in old WAL frames. Busy (a reader holds a snapshot): the next checkpoint does it.
  if (onDisk && upgraded) sqlite.pragma('wal_checkpoint(TRUNCATE)');
  // Each unit of a group commit runs in a savepoint, and SQLite keeps a copy of every page a savepoint
  // changes (its sub-journal) to roll it back. An order's savepoint touches 15-20 pages, more than the 64 KiB
  // a sub-journal keeps in memory before it spills to a temporary file: with temporary files on disk that
  // was a new file and ~20 write calls per order (more on a large database, whose changes land on more
  // pages). In memory, service CPU per created order fell by 5-15 %. Set after the migrations, whose
  // index builds may sort whole tables; reads that sort whole tables run in withTempFiles.
  sqlite.pragma('temp_store = MEMORY');
  return db;
}

/** The service's own SQL functions, on every connection that runs the migrations or the service's queries. */
export function registerSqlFunctions(sqlite: Database.Database): void {
  // SQLite's lower() and LIKE fold ASCII letters only: names in Cyrillic (or any other script) are folded
  // by this function for case-insensitive search (src/store/partners-repo.ts findPartnersByName).
  sqlite.function('casefold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  // for the migration that hashed the invite codes earlier versions kept in plain text (drizzle/0022)
  sqlite.function('sha256_hex', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? sha256Hex(s) : s));
}

/** How many migrations the database has applied (0 for a new one). */
function appliedMigrations(sqlite: Database.Database): number {
  const t = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
  return t ? (sqlite.prepare('select count(*) n from __drizzle_migrations').get() as { n: number }).n : 0;
}

/**
 * Runs `fn`, reads that sort or group every row of a large table (the ledger check), with SQLite's temporary
 * files on disk: with temp_store = MEMORY a sort never spills, and one of a million orders would hold them
 * all in memory (~45 MB) instead of at most the page cache's size. Outside transactions only.
 */
export function withTempFiles<T>(db: Db, fn: () => T): T {
  db.$client.pragma('temp_store = FILE');
  try {
    return fn();
  } finally {
    db.$client.pragma('temp_store = MEMORY');
  }
}

const txRunners = new WeakMap<Database.Database, Database.Transaction<(fn: () => unknown) => unknown>>();

/**
 * Runs `fn` in one synchronous SQLite transaction (BEGIN IMMEDIATE: writers never deadlock on upgrade).
 * The better-sqlite3 transaction wrapper is made once per connection (drizzle's db.transaction makes a new
 * one per call); `fn` gets the database itself, whose queries run on the same connection, inside the
 * transaction. Nested calls become savepoints.
 */
export function inTx<T>(db: Db, fn: (tx: Tx) => T): T {
  let run = txRunners.get(db.$client);
  if (!run) {
    run = db.$client.transaction((f: () => unknown) => f());
    txRunners.set(db.$client, run);
  }
  try {
    const result = run.immediate(() => fn(db as Tx)) as T;
    // committed: what the transaction staged in the caches of committed values becomes committed too
    if (!db.$client.inTransaction) settleStaged(db.$client, true);
    return result;
  } catch (e) {
    // any rollback, of a savepoint or of the whole transaction, forgets every staged value
    settleStaged(db.$client, false);
    // a full disk, an I/O error, a read-only file, busy past the timeout: the storage monitor hears of it
    reportWriteError(db.$client, e);
    throw e;
  }
}
