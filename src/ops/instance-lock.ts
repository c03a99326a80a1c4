import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * One writer per database (operator-api.md §1): a second instance on a database another one holds exits at
 * once, and the first keeps serving. The lock is SQLite's own: `<database>.lock` is a small SQLite file on which
 * the holder keeps a write transaction open (BEGIN IMMEDIATE, never committed) for the life of its process.
 * SQLite's locks are the operating system's record locks, which the kernel drops when the process ends in any
 * way (SIGKILL and a crash included), so a dead holder never leaves a stale lock; a lock file that only
 * exists would. The holder's pid, host and start time are committed in the same file before it is held, for
 * the message of the instance that is turned away.
 */
export interface Holder {
  pid: number;
  host: string;
  started_at: string;
}

export class InstanceLocked extends Error {
  constructor(
    readonly database: string,
    readonly holder: Holder | null,
  ) {
    const who = holder ? ` (pid ${holder.pid} on host ${holder.host}, since ${holder.started_at})` : '';
    super(`another instance holds the database ${database}${who}: this one exits (one writer per database; stop that one first)`);
  }
}

export interface InstanceLock {
  file: string;
  release(): void;
}

export const lockFileOf = (databasePath: string) => `${path.resolve(databasePath)}.lock`;

/** Held locks, referenced for the life of the process: a collected connection would close and let the lock go. */
const held = new Set<Database.Database>();

const isBusy = (e: unknown) => typeof (e as { code?: unknown })?.code === 'string' && (e as { code: string }).code.startsWith('SQLITE_BUSY');

/** Takes the lock of `databasePath` or throws InstanceLocked; `now` only dates the holder record. */
export function acquireInstanceLock(databasePath: string, now: () => number = Date.now): InstanceLock {
  const database = path.resolve(databasePath);
  const file = lockFileOf(database);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const conn = new Database(file);
  try {
    fs.chmodSync(file, 0o600);
    conn.pragma('busy_timeout = 0');
    const me: Holder = { pid: process.pid, host: os.hostname(), started_at: new Date(now()).toISOString() };
    // Two instances starting at the same instant may both commit their record between the other's steps: the
    // one that holds the lock checks that the record is its own, and writes it again if not.
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        conn.exec('BEGIN IMMEDIATE');
      } catch (e) {
        if (isBusy(e)) throw new InstanceLocked(database, readHolder(conn, me));
        throw e;
      }
      conn.exec('create table if not exists holder (id integer primary key check (id = 1), pid integer not null, host text not null, started_at text not null)');
      conn.prepare('insert or replace into holder (id, pid, host, started_at) values (1, ?, ?, ?)').run(me.pid, me.host, me.started_at);
      conn.exec('COMMIT');
      try {
        conn.exec('BEGIN IMMEDIATE');
      } catch (e) {
        if (isBusy(e)) throw new InstanceLocked(database, readHolder(conn, me));
        throw e;
      }
      if (readHolder(conn, null)?.pid === me.pid) {
        held.add(conn);
        return {
          file,
          release() {
            held.delete(conn);
            if (!conn.open) return;
            try {
              conn.exec('ROLLBACK');
            } finally {
              conn.close();
            }
          },
        };
      }
      conn.exec('ROLLBACK');
    }
    throw new InstanceLocked(database, null);
  } catch (e) {
    if (conn.open) conn.close();
    throw e;
  }
}

/** The holder's record, unless it is `self`'s own (a start racing this one wrote it and then lost). */
function readHolder(conn: Database.Database, self: Holder | null): Holder | null {
  try {
    const row = conn.prepare('select pid, host, started_at from holder where id = 1').get() as Holder | undefined;
    if (!row || (self && row.pid === self.pid && row.host === self.host)) return null;
    return row;
  } catch {
    return null;
  }
}
