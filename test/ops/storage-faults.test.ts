import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBot, type BotHandle } from '../../bot/runner.js';
import { FakeTelegram, waitFor } from '../bot/fake-telegram.js';
import { codeOf, startService, stopService, type TestService } from '../helpers.js';

/**
 * Storage faults for real: the database lives on a small tmpfs that this test mounts, fills with a file
 * until the disk is full, and then frees. Mounting needs root (CI runs as root); otherwise the test is
 * skipped and says why.
 */
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) console.warn('storage-faults.test.ts skipped: mounting a small tmpfs to fill needs root (run as root, as CI does)');

const OPERATOR = 900_777;

describe.skipIf(!isRoot)('storage faults on a small filesystem (tmpfs mounted by the test)', () => {
  let mnt: string;
  let tg: FakeTelegram;
  let t: TestService | undefined;
  let bot: BotHandle | undefined;

  beforeAll(async () => {
    mnt = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mnt]);
    tg = await new FakeTelegram().start();
  });
  afterAll(async () => {
    await bot?.stop();
    await stopService(t, false);
    await tg?.close();
    try {
      execFileSync('umount', [mnt]);
    } finally {
      fs.rmSync(mnt, { recursive: true, force: true });
    }
  });

  const alerts = () => tg.to(OPERATOR).map((m) => m.text);

  it('disk full: writes answer 503 storage_unavailable with Retry-After, reads work, one alert each way, recovers by itself, nothing acknowledged lost', async () => {
    t = await startService({ TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot, ADMIN_CHAT_IDS: String(OPERATOR) }, { dir: mnt });
    bot = startBot(t, t.deps.config, { pollTimeoutSec: 1, restartDelayMs: 100 });
    await waitFor(() => tg.callsOf('setMyCommands').length >= 2, 'the bot to start');
    const p = await t.newPartner({ usd: '5000.00' });
    const acknowledged: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await p.order('stars', { quantity: 100, recipient: `@full_user_${i}` });
      expect(r.status).toBe(200);
      acknowledged.push(r.body.order_id);
    }

    // fill the filesystem
    const filler = path.join(mnt, 'filler');
    const fd = fs.openSync(filler, 'w');
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }

    // orders go on while the WAL still has room; then the first write that needs space fails
    let refused: Awaited<ReturnType<typeof p.order>> | undefined;
    for (let i = 0; i < 5000 && !refused; i++) {
      const r = await p.order('stars', { quantity: 100, recipient: `@more_user_${i}` });
      if (r.status === 200) acknowledged.push(r.body.order_id);
      else refused = r;
    }
    expect(refused, 'an order refused once the disk is full').toBeDefined();
    expect(refused!.status).toBe(503);
    expect(refused!.body).toMatchObject({ detail: { code: 'storage_unavailable', reason: 'disk_full' } });
    expect(refused!.headers['retry-after']).toBe('5');
    expect(t.ops.storage.available()).toBe(false);

    // every write answers 503 storage_unavailable (nested), reads keep working
    const again = await p.order('stars', { quantity: 100, recipient: '@again_user' });
    expect([again.status, codeOf(again)]).toEqual([503, 'storage_unavailable']);
    const topup = await t.admin('POST', `/partners/${p.id}/topups`, { currency: 'USD', amount: '10.00', network: 'ton', tx_hash: 'tx-during-full' });
    expect([topup.status, codeOf(topup)]).toEqual([503, 'storage_unavailable']);
    expect(topup.headers['retry-after']).toBe('5');
    const read = await p.call('GET', `/orders/${acknowledged[0]}`);
    expect(read.status).toBe(200);
    expect((await p.call('GET', '/me')).status).toBe(200);
    expect((await p.call('GET', '/orders?limit=5')).status).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'not_ready', reason: 'storage_unavailable', detail: 'disk_full' });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    // one operator alert for the start
    await waitFor(() => alerts().some((m) => /Storage unavailable: the disk is full\./.test(m)), 'the storage alert', 20_000);
    expect(alerts().filter((m) => /Storage unavailable/.test(m))).toHaveLength(1);

    // space comes back: the monitor's probe notices by itself, one alert for the recovery
    fs.rmSync(filler);
    await waitFor(() => t!.ops.storage.available(), 'recovery', 20_000);
    await waitFor(() => alerts().some((m) => /Storage available again/.test(m)), 'the recovery alert', 20_000);
    const after = await p.order('stars', { quantity: 100, recipient: '@after_user' });
    expect(after.status).toBe(200);
    acknowledged.push(after.body.order_id);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(alerts().filter((m) => /Storage unavailable/.test(m))).toHaveLength(1);
    expect(alerts().filter((m) => /Storage available again/.test(m))).toHaveLength(1);

    // nothing acknowledged is lost, the ledger holds, and the orders finish
    await t.advance(10);
    for (const id of acknowledged) {
      const o = await p.call('GET', `/orders/${id}`);
      expect([o.status, o.body.order_id, o.body.status]).toEqual([200, id, 'completed']);
    }
    const check = await t.admin('GET', '/ledger/check');
    expect(check.body).toEqual({ ok: true, problems: [] });
    const me = await p.call('GET', '/me');
    expect(me.body.balances.USD).toBe((5000 - 1.58 * acknowledged.length).toFixed(2));
  }, 90_000);

  it('read-only database, then busy past the timeout: the same 503, alert and recovery for each', async () => {
    const p = await t!.newPartner({ usd: '100.00' });
    const before = alerts().length;
    // A mounted filesystem cannot be remounted read-only while the service holds its files open for
    // writing, so SQLite's own read-only switch stands in: every write answers SQLITE_READONLY.
    t!.db.$client.pragma('query_only = 1');
    let r;
    try {
      r = await p.order('stars', { quantity: 100, recipient: '@ro_user' });
      expect([r.status, r.body.detail?.code, r.body.detail?.reason]).toEqual([503, 'storage_unavailable', 'read_only']);
      expect((await p.call('GET', '/me')).status).toBe(200);
      await waitFor(() => alerts().length === before + 1, 'the read-only alert', 20_000);
    } finally {
      t!.db.$client.pragma('query_only = 0');
    }
    await waitFor(() => t!.ops.storage.available(), 'recovery', 20_000);
    await waitFor(() => alerts().length === before + 2, 'the recovery alert', 20_000);
    expect(alerts().slice(before)).toEqual([expect.stringMatching(/^🛑 Storage unavailable/), expect.stringMatching(/^✅ Storage available again/)]);
    expect((await p.order('stars', { quantity: 100, recipient: '@ro_user' })).status).toBe(200);

    // another process holds the write lock longer than the busy timeout (5 s)
    const { default: Database } = await import('better-sqlite3');
    const other = new Database(t!.env.DATABASE_PATH);
    other.exec('begin immediate');
    let busy;
    try {
      busy = await p.order('stars', { quantity: 100, recipient: '@busy_user' });
      // and the probe, with its short busy wait, finds the lock still held
      expect(t!.ops.storage.probe()).toMatchObject({ reason: 'busy' });
    } finally {
      other.exec('rollback');
      other.close();
    }
    expect([busy.status, busy.body.detail?.code, busy.body.detail?.reason]).toEqual([503, 'storage_unavailable', 'busy']);
    expect(busy.headers['retry-after']).toBe('5');
    await waitFor(() => t!.ops.storage.available(), 'recovery', 20_000);
    await waitFor(() => alerts().length === before + 4, 'the busy and recovery alerts', 20_000);
    expect(alerts().slice(before + 2)).toEqual([expect.stringMatching(/^🛑 Storage unavailable: the database stays locked by another process\./), expect.stringMatching(/^✅ Storage available again/)]);
    expect((await p.order('stars', { quantity: 100, recipient: '@busy_user' })).status).toBe(200);
    expect((await t!.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  }, 90_000);
});
