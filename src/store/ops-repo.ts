import type Database from 'better-sqlite3';

/** The scrape-time reads of /metrics: prepared once, each an indexed count or sum. */
export interface OpsReads {
  dueJobs(now: number): { kind: string; n: number; oldest: number }[];
  deliveryCounts(): { pending: number; failed: number };
  unmatchedDeposits(): number;
  /** Sum of the balances per currency, in minor units. */
  balanceTotals(): { currency: string; total: number }[];
}

export function opsReads($: Database.Database): OpsReads {
  const dueJobs = $.prepare('select kind, count(*) n, min(run_at) oldest from jobs where run_at <= ? group by kind');
  const deliveries = $.prepare("select (select count(*) from webhook_deliveries where status = 'pending') pending, (select count(*) from webhook_deliveries where status = 'failed') failed");
  const unmatched = $.prepare("select count(*) n from deposits where status = 'unmatched'");
  const balances = $.prepare('select currency, sum(balance) total from accounts group by currency');
  return {
    dueJobs: (now) => dueJobs.all(now) as { kind: string; n: number; oldest: number }[],
    deliveryCounts: () => deliveries.get() as { pending: number; failed: number },
    unmatchedDeposits: () => (unmatched.get() as { n: number }).n,
    balanceTotals: () => balances.all() as { currency: string; total: number }[],
  };
}

/** The `created_at` marks of the migrations applied to a database (none before the first one ran). */
export function appliedMigrationMarks($: Database.Database): number[] {
  try {
    return ($.prepare('select created_at from __drizzle_migrations').all() as { created_at: number }[]).map((r) => Number(r.created_at));
  } catch {
    return []; // no table yet: nothing applied
  }
}
