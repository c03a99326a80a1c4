import path from 'node:path';
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
  const file = path.resolve(config.DATABASE_PATH);
  throw new ConfigError([
    mode === 'sandbox'
      ? `invalid configuration: UPSTREAM: the database ${file} is a sandbox database (play money, made with UPSTREAM=sandbox); UPSTREAM=${config.UPSTREAM} never opens it: set UPSTREAM=sandbox, or give the live service a database of its own (DATABASE_PATH)`
      : `invalid configuration: UPSTREAM: the database ${file} is a live database (real balances); UPSTREAM=sandbox never opens it: set UPSTREAM to its live supplier, or give the sandbox a database of its own (DATABASE_PATH)`,
  ]);
}
