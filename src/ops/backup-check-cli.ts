import { checkDatabaseFile } from '../store/snapshot.js';

/**
 * The check of a backup copy in a process of its own (run by src/ops/backup-cli.ts, which holds it to
 * BACKUP_CPU_SHARE of a CPU): `integrity_check` and the ledger check of <file>. Prints `{"orders": n}` and
 * exits 0, or prints the reason on stderr and exits 1.
 */
try {
  const file = process.argv[2];
  if (!file) throw new Error('usage: backup-check-cli <file>');
  const check = checkDatabaseFile(file);
  process.stdout.write(`${JSON.stringify({ orders: check.orders })}\n`);
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
