import 'dotenv/config';
import { ConfigError, loadConfig } from '../config.js';
import { restoreDatabase, ServiceRunning } from '../store/restore.js';

/**
 * npm run restore -- <file>: puts a backup in place of DATABASE_PATH for a STOPPED service and verifies it
 * (src/store/restore.ts). Refuses (exit 1) while the service has the database open, or when the backup
 * fails its checks. Prints one JSON line.
 */
function main(): void {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!file) {
    process.stderr.write('usage: npm run restore -- <backup file>\n');
    process.exit(2);
  }
  const config = loadConfig(process.env);
  const r = restoreDatabase(file, config.DATABASE_PATH);
  process.stdout.write(
    `${JSON.stringify({ msg: 'restored', target: r.target, previous_kept_as: r.previous, orders: r.after.orders, integrity: 'ok', ledger: r.after.ledger.ok ? 'ok' : 'failed' })}\n`,
  );
}

try {
  main();
} catch (e) {
  if (e instanceof ConfigError) process.stderr.write(`${e.lines.join('\n')}\n`);
  else process.stderr.write(`restore ${e instanceof ServiceRunning ? 'refused' : 'failed'}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
