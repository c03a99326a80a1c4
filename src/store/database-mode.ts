import type { Conn } from './db.js';
import { kvGet, kvSet } from './kv-repo.js';

/**
 * The mode a database was made in (operator-api.md §1 "One mode per database"): `sandbox` (play money, the
 * simulated suppliers, a movable clock) or `live` (any real supplier). Recorded at its first start and kept.
 */
export type DatabaseMode = 'sandbox' | 'live';

const KEY = 'database.mode';

/**
 * The database's mode; a database that has none recorded yet takes `wanted`, unless it was made before modes
 * were recorded and its rows show the other mode (a sandbox's clock moved, simulated accounts, the demo
 * partner's play money; a real supplier's payments): then that mode is recorded. Runs under the instance lock.
 */
export function claimDatabaseMode(conn: Conn, wanted: DatabaseMode, now: number): DatabaseMode {
  const recorded = kvGet<DatabaseMode>(conn, KEY);
  if (recorded === 'sandbox' || recorded === 'live') return recorded;
  const mode = inferredMode(conn) ?? wanted;
  kvSet(conn, KEY, mode, now);
  return mode;
}

function inferredMode(conn: Conn): DatabaseMode | null {
  const one = (sql: string) => conn.$client.prepare(sql).pluck().get() !== undefined;
  const sandbox =
    (kvGet<number>(conn, 'clock.offset_ms') ?? 0) !== 0 ||
    one('select 1 from sandbox_accounts limit 1') ||
    one('select 1 from sandbox_gifts limit 1') ||
    one("select 1 from topups where tx_hash like '%sandbox-demo-%' limit 1");
  const live = one('select 1 from fragment_payments limit 1') || one('select 1 from gift_purchases limit 1');
  if (sandbox === live) return null;
  return sandbox ? 'sandbox' : 'live';
}
