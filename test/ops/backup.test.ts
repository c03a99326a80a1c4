import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/kernel/log.js';
import { runScheduledBackup } from '../../src/ops/backup-schedule.js';
import { listSnapshots } from '../../src/store/snapshot.js';
import { ADMIN_TOKEN, startService, stopService, type TestService } from '../helpers.js';
import { cli } from './ops-cli.js';

/**
 * The backup drill: `npm run backup` (the CLI, as its own process) while orders keep being created,
 * `npm run restore` into place, and the restored database checked: ledger check, every order acknowledged
 * before the snapshot began.
 */
const services: TestService[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await stopService(s, false);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-backup-'));
  dirs.push(d);
  return d;
}

// each test starts the backup or restore CLI as a process of its own (a few seconds each on a busy machine)
describe('backup and restore drill', { timeout: 120_000 }, () => {
  it('a backup taken while orders keep coming holds every order acknowledged before it began, and restores into a database that passes the ledger check', async () => {
    const t = await startService({ API_RATE_LIMIT: '10000000', API_RATE_BURST: '10000000' });
    services.push(t);
    dirs.push(t.dir);
    const p = await t.newPartner({ usd: '100000.00' });
    const refusals: string[] = [];
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    // orders keep being created, one after another, for the whole drill
    const creating = (async () => {
      while (!stop) {
        const r = await p.order('stars', { quantity: 100, recipient: `@drill_user_${n++ % 50}` });
        if (r.status === 200) acknowledged.push(r.body.order_id);
        else refusals.push(r.raw);
        if (n % 5 === 0) await new Promise((res) => setImmediate(res));
      }
    })();
    while (acknowledged.length < 200) await new Promise((r) => setTimeout(r, 10));

    const out = tmp();
    const file = path.join(out, 'nested', 'drill.db');
    const beforeSnapshot = [...acknowledged]; // acknowledged before the backup process even started
    // the check of the copy held to a fifth of a CPU (src/ops/duty-cycle.ts): slower, and still complete
    const b = await cli('backup', [file], { DATABASE_PATH: t.env.DATABASE_PATH, BACKUP_CPU_SHARE: '0.2' });
    const createdDuring = acknowledged.length - beforeSnapshot.length;
    stop = true;
    await creating;
    expect(refusals).toEqual([]);
    expect(b.code, b.err).toBe(0);
    const report = JSON.parse(b.out);
    expect(report).toMatchObject({ msg: 'backup written', method: 'vacuum_into', integrity: 'ok', ledger: 'ok', file });
    expect(report.orders).toBeGreaterThanOrEqual(beforeSnapshot.length);
    expect(createdDuring, 'orders were acknowledged while the backup ran').toBeGreaterThan(0);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['drill.db', 'drill.db.secret.key']); // renamed into place with its key, no temp file left

    // restore refuses while the service has its database open
    const refused = await cli('restore', [file], { DATABASE_PATH: t.env.DATABASE_PATH });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/restore refused: .* is in use \(is the service running\?\)/);

    // restore into place for a stopped service (an older database is there: it is kept aside)
    const target = path.join(tmp(), 'data', 'service.db');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target); // something to replace
    const r = await cli('restore', [file], { DATABASE_PATH: target });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ msg: 'restored', target, integrity: 'ok', ledger: 'ok', orders: report.orders });
    expect(fs.readdirSync(path.dirname(target)).some((f) => /^service\.db\.before-restore-/.test(f))).toBe(true);

    // the restored database, opened by the service: every order acknowledged before the snapshot, ledger ok
    const restored = await startService({}, { dir: path.dirname(target) });
    services.push(restored);
    expect((await restored.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
    const db = new Database(target, { readonly: true });
    const have = new Set((db.prepare('select order_id from orders').all() as { order_id: string }[]).map((o) => o.order_id));
    db.close();
    for (const id of beforeSnapshot) expect(have.has(id), id).toBe(true);
    const one = await restored.admin('GET', `/orders/${beforeSnapshot[beforeSnapshot.length - 1]}`);
    expect(one.status).toBe(200);
  });

  it('a backup that fails a check is refused: restore leaves the database alone; backup of a damaged ledger fails', async () => {
    const t = await startService();
    services.push(t);
    dirs.push(t.dir);
    const p = await t.newPartner();
    expect((await p.order('stars', { quantity: 100, recipient: '@check_user' })).status).toBe(200);
    await stopService(t, false);
    services.splice(0);
    // a database whose ledger does not add up
    const bad = path.join(tmp(), 'bad.db');
    fs.copyFileSync(t.env.DATABASE_PATH, bad);
    const raw = new Database(bad);
    // (edited behind the database's own guards, which refuse such a write)
    raw.exec('drop trigger accounts_follow_ledger_update');
    raw.prepare("update accounts set balance = balance + 1 where currency = 'USD'").run();
    raw.close();
    const target = path.join(tmp(), 'service.db');
    fs.copyFileSync(t.env.DATABASE_PATH, target);
    const before = fs.readFileSync(target);
    const r = await cli('restore', [bad], { DATABASE_PATH: target });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/restore failed: ledger check failed: .*balance_mismatch/);
    expect(fs.readFileSync(target).equals(before)).toBe(true);
    // not a database at all
    const junk = path.join(tmp(), 'junk.db');
    fs.writeFileSync(junk, 'this is not an SQLite file'.repeat(200));
    const j = await cli('restore', [junk], { DATABASE_PATH: target });
    expect(j.code).toBe(1);
    expect(fs.readFileSync(target).equals(before)).toBe(true);
    // backing up the damaged database fails and leaves no file
    const dest = path.join(tmp(), 'out.db');
    const b = await cli('backup', [dest], { DATABASE_PATH: bad });
    expect(b.code).toBe(1);
    expect(b.err).toMatch(/backup failed: ledger check failed/);
    expect(fs.readdirSync(path.dirname(dest))).toEqual([]);
  });

  it('scheduled snapshots go to BACKUP_DIR and only the newest BACKUP_KEEP are kept', async () => {
    const t = await startService();
    services.push(t);
    dirs.push(t.dir);
    const p = await t.newPartner();
    expect((await p.order('stars', { quantity: 100, recipient: '@sched_user' })).status).toBe(200);
    const dir = tmp();
    const env = { ...process.env, DATABASE_PATH: t.env.DATABASE_PATH, BACKUP_DIR: dir, BACKUP_KEEP: '2', ADMIN_TOKEN };
    const written: string[][] = [];
    for (let i = 0; i < 3; i++) {
      expect(await runScheduledBackup(env, silentLogger)).toBe(true);
      written.push(listSnapshots(dir));
    }
    expect(written.map((w) => w.length)).toEqual([1, 2, 2]);
    // the oldest went, the newest two stayed
    expect(written[2]).toEqual([written[1][1], expect.stringMatching(/service-\d{8}T\d{6}\.\d{3}Z\.db$/)]);
    expect(written[2]).not.toContain(written[0][0]);
    // each snapshot's key file goes with it, and is rotated with it
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.secret.key')).sort()).toEqual(written[2].map((f) => `${path.basename(f)}.secret.key`));
    expect(await runScheduledBackup({ ...env, BACKUP_DIR: '' }, silentLogger)).toBe(false);
  });
});
