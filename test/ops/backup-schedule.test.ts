import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupBeforeMigrations } from '../../src/ops/pre-migration-backup.js';
import { checkDatabaseFile } from '../../src/store/snapshot.js';
import { silentLogger } from '../../src/kernel/log.js';
import { ADMIN_TOKEN, freePort, startService, testConfig } from '../helpers.js';
import { processFixtures } from './service-process.js';

/** Backups one can alert on: the schedule kept in the database, its metric, and the backup before migrations. */
const { tmp, start: startTracked } = processFixtures('pos-bsched-');
const snapshots = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^service-.*\.db$/.test(f)) : []);
async function metric(port: number, name: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

describe('scheduled backups', { timeout: 150_000 }, () => {
  it('a database that never had a backup gets one at start; its time is the metric; a restart neither repeats nor delays it (the next time is in the database)', async () => {
    const dir = tmp();
    const backups = path.join(dir, 'backups');
    const vars = async () => ({ PORT: String(await freePort()), METRICS_PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN, SANDBOX_DEMO: '0', BACKUP_DIR: backups, BACKUP_INTERVAL_MINUTES: '60' });
    const v1 = await vars();
    const first = startTracked(dir, v1);
    await first.ready();
    for (const until = Date.now() + 60_000; snapshots(backups).length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 250));
    expect(snapshots(backups)).toHaveLength(1);
    let last: number | undefined;
    for (const until = Date.now() + 10_000; !last && Date.now() < until; ) {
      last = await metric(Number(v1.METRICS_PORT), 'partner_service_backup_last_success_timestamp_seconds');
      if (!last) await new Promise((r) => setTimeout(r, 200));
    }
    expect(last).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(await metric(Number(v1.METRICS_PORT), 'partner_service_backup_interval_seconds')).toBe(3600);
    first.signal('SIGTERM');
    expect(await first.exited).toBe(0);
    const kv = new Database(path.join(dir, 'service.db'), { readonly: true });
    const next = JSON.parse((kv.prepare("select value from kv where key = 'backup.next_at'").get() as { value: string }).value) as number;
    kv.close();
    expect(next).toBeGreaterThan(Date.now() + 55 * 60_000);

    const v2 = await vars();
    const second = startTracked(dir, v2);
    await second.ready();
    await new Promise((r) => setTimeout(r, 2_000));
    expect(snapshots(backups)).toHaveLength(1);
    expect(await metric(Number(v2.METRICS_PORT), 'partner_service_backup_last_success_timestamp_seconds')).toBe(last);
    expect(second.logLines().find((l) => l.msg === 'scheduled backups on')?.next_at).toBe(new Date(next).toISOString());
    second.signal('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

describe('the backup before migrations', () => {
  it('is written when a database with data lacks a migration of this build, and checked; not for an empty or current database', async () => {
    const t = await startService({}, { dir: tmp() });
    await t.newPartner();
    const dbPath = t.env.DATABASE_PATH;
    await t.close();
    const backupDir = path.join(tmp(), 'b');
    const config = testConfig({ DATABASE_PATH: dbPath, BACKUP_DIR: backupDir });
    // current: nothing to do
    expect(await backupBeforeMigrations(config, silentLogger)).toBeNull();
    // as a database of the previous release: its newest migration not yet applied
    const db = new Database(dbPath);
    db.prepare('delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)').run();
    db.close();
    const report = await backupBeforeMigrations(config, silentLogger);
    expect(report?.file).toMatch(new RegExp(`^${backupDir}/pre-migration-\\d{8}T\\d{6}\\.\\d{3}Z\\.db$`));
    expect(checkDatabaseFile(report!.file).ledger.ok).toBe(true);
    expect(fs.existsSync(`${report!.file}.secret.key`) || Boolean(config.SECRET_ENCRYPTION_KEY)).toBe(true);
    // an empty database is not copied
    const empty = path.join(tmp(), 'empty.db');
    new Database(empty).close();
    expect(await backupBeforeMigrations(testConfig({ DATABASE_PATH: empty, BACKUP_DIR: backupDir }), silentLogger)).toBeNull();
  });
});
