import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError, type Config } from '../config/env.js';
import type { Db } from '../store/db.js';
import { claimDatabaseMode, type DatabaseMode } from '../store/database-mode.js';

/**
 * One mode per database (operator-api.md §1): play money never meets a real supplier, and a real balance never
 * meets the sandbox's clock or deposit routes. A start in the other mode stops with one line naming the
 * database's mode and the variable.
 */
export function modeOf(config: Pick<Config, 'UPSTREAM'>): DatabaseMode {
  return config.UPSTREAM === 'sandbox' ? 'sandbox' : 'live';
}

export function checkDatabaseMode(db: Db, config: Pick<Config, 'UPSTREAM' | 'DATABASE_PATH'>, now: number): DatabaseMode {
  const wanted = modeOf(config);
  const mode = claimDatabaseMode(db, wanted, now);
  if (mode === wanted) return mode;
  throw otherMode(mode, config);
}

/**
 * The same refusal before anything touches the file: a start in the other mode neither backs the database up
 * nor runs this build's migrations on it. Reads the mode the database recorded (read-only); a database that
 * recorded none (new, or made before modes were recorded) is judged after the migrations, by checkDatabaseMode.
 */
export function refuseOtherModeEarly(config: Pick<Config, 'UPSTREAM' | 'DATABASE_PATH'>): void {
  const file = config.DATABASE_PATH;
  if (file === ':memory:' || !fs.existsSync(file)) return;
  const conn = new Database(file, { readonly: true, fileMustExist: true });
  let recorded: unknown;
  try {
    const hasKv = conn.prepare("select 1 from sqlite_master where type = 'table' and name = 'kv'").get();
    const row = hasKv ? (conn.prepare("select value from kv where key = 'database.mode'").get() as { value: string } | undefined) : undefined;
    recorded = row ? JSON.parse(row.value) : undefined;
  } finally {
    conn.close();
  }
  if ((recorded === 'sandbox' || recorded === 'live') && recorded !== modeOf(config)) throw otherMode(recorded, config);
}

function otherMode(mode: DatabaseMode, config: Pick<Config, 'UPSTREAM' | 'DATABASE_PATH'>): ConfigError {
  const file = path.resolve(config.DATABASE_PATH);
  return new ConfigError([
    mode === 'sandbox'
      ? `invalid configuration: UPSTREAM: the database ${file} is a sandbox database (play money, made with UPSTREAM=sandbox); UPSTREAM=${config.UPSTREAM} never opens it: set UPSTREAM=sandbox, or give the live service a database of its own (DATABASE_PATH)`
      : `invalid configuration: UPSTREAM: the database ${file} is a live database (real balances); UPSTREAM=sandbox never opens it: set UPSTREAM to its live supplier, or give the sandbox a database of its own (DATABASE_PATH)`,
  ]);
}
