import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, startService, stopService, type TestService } from '../helpers.js';
import { cli } from './ops-cli.js';

/**
 * The restore drill with webhook secrets: back up, restore into a fresh folder, start the service there,
 * deliver a webhook to a real receiver and verify its signatures with the secret the partner was given.
 * The key of webhook secrets at rest (`secret.key` beside the database, or SECRET_ENCRYPTION_KEY) must
 * travel with the backup, or be kept: without it every restored secret is unreadable.
 */
const services: TestService[] = [];
const closers: (() => Promise<void>)[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await stopService(s, false);
  for (const c of closers.splice(0)) await c();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-keybackup-'));
  dirs.push(d);
  return d;
}
async function service(env: Record<string, string> = {}, dir?: string): Promise<TestService> {
  const t = await startService(env, dir ? { dir } : {});
  services.push(t);
  dirs.push(t.dir);
  return t;
}
async function receiver() {
  const r = await startReceiver();
  closers.push(() => r.close());
  return r;
}
const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');

/** A partner's order on the restored service, delivered to the receiver: both signatures verify with `secret`. */
async function deliversSignedWebhook(t: TestService, key: string, secret: string, r: Awaited<ReturnType<typeof receiver>>) {
  const o = await t.partnerCall(key, 'POST', '/orders', { type: 'stars', idempotency_key: `after-restore-${crypto.randomUUID()}`, params: { quantity: 100, recipient: '@restored_user' } });
  expect(o.status, o.raw).toBe(200);
  for (let i = 0; i < 10 && r.requests.length === 0; i++) await t.advance(5);
  expect(r.requests).toHaveLength(1);
  const got = r.requests[0];
  const raw = got.raw.toString('utf8');
  expect(JSON.parse(raw)).toMatchObject({ event: 'order.completed', order_id: o.body.order_id });
  expect(got.headers['x-signature']).toBe(hmac(secret, raw));
  expect(got.headers['x-signature-v2']).toBe(hmac(secret, `${got.headers['x-timestamp']}.${raw}`));
  const deliveries = (await t.admin('GET', `/webhook-deliveries?order_id=${o.body.order_id}`)).body.items;
  expect(deliveries.map((d: any) => d.status)).toEqual(['delivered']);
}

describe('backups carry the key of webhook secrets', { timeout: 180_000 }, () => {
  it('secret.key goes with the backup; a restore into a fresh folder puts it back, and a delivered webhook verifies with the partner\'s secret', async () => {
    const r = await receiver();
    const t = await service();
    const p = await t.newPartner({ webhookUrl: r.url });
    expect(p.secret).toMatch(/^whsec_/);
    const keyFile = path.join(t.dir, 'secret.key');
    const key = fs.readFileSync(keyFile);

    const out = tmp();
    const file = path.join(out, 'drill.db');
    const b = await cli('backup', [file], { DATABASE_PATH: t.env.DATABASE_PATH });
    expect(b.code, b.err).toBe(0);
    expect(JSON.parse(b.out)).toMatchObject({ msg: 'backup written', file, secret_key: `${file}.secret.key` });
    expect(b.err).toBe('');
    expect(fs.readFileSync(`${file}.secret.key`).equals(key)).toBe(true);
    expect(fs.statSync(`${file}.secret.key`).mode & 0o777).toBe(0o600);
    await stopService(services.pop()!, false);

    // without its key file the restore refuses before touching anything
    const fresh = path.join(tmp(), 'data');
    const target = path.join(fresh, 'service.db');
    fs.renameSync(`${file}.secret.key`, `${file}.aside`);
    const refused = await cli('restore', [file], { DATABASE_PATH: target });
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(`restore refused: the backup holds 1 webhook secret(s) and there is no key to open them: put the backup's key file beside it (${file}.secret.key), or set SECRET_ENCRYPTION_KEY to the key the service used\n`);
    expect(fs.existsSync(fresh)).toBe(false);
    // nor with another key already beside the target
    fs.mkdirSync(fresh, { recursive: true });
    fs.writeFileSync(path.join(fresh, 'secret.key'), crypto.randomBytes(32).toString('hex'));
    const wrong = await cli('restore', [file], { DATABASE_PATH: target });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/^restore refused: the webhook secrets of this backup do not open with .*secret\.key: put the backup's key file beside it/);
    expect(fs.existsSync(target)).toBe(false);
    fs.renameSync(`${file}.aside`, `${file}.secret.key`);

    const rs = await cli('restore', [file], { DATABASE_PATH: target });
    expect(rs.code, rs.err).toBe(0);
    expect(JSON.parse(rs.out)).toMatchObject({ msg: 'restored', target, ledger: 'ok', webhook_secrets: 1, secret_key: 'backup', secret_key_file: path.join(fresh, 'secret.key') });
    expect(fs.readFileSync(path.join(fresh, 'secret.key')).equals(key)).toBe(true);
    expect(fs.readdirSync(fresh).some((f) => f.startsWith('secret.key.before-restore-'))).toBe(true); // the other key kept aside

    // the service started on the restored folder signs with the partner's secret
    const restored = await service({}, fresh);
    await deliversSignedWebhook(restored, p.key, p.secret!, r);
  });

  it('with SECRET_ENCRYPTION_KEY the backup says in one line to keep it; a restore needs it and then verifies', async () => {
    const K = crypto.randomBytes(32).toString('hex');
    const r = await receiver();
    const t = await service({ SECRET_ENCRYPTION_KEY: K });
    const p = await t.newPartner({ webhookUrl: r.url });
    const file = path.join(tmp(), 'env.db');
    const b = await cli('backup', [file], { DATABASE_PATH: t.env.DATABASE_PATH, SECRET_ENCRYPTION_KEY: K });
    expect(b.code, b.err).toBe(0);
    const line = 'note: webhook secrets are sealed with SECRET_ENCRYPTION_KEY, which no backup holds: keep that variable (the same value) to restore them';
    expect(b.err).toBe(`${line}\n`);
    expect(JSON.parse(b.out)).toMatchObject({ secret_key: null, note: line });
    expect(fs.existsSync(`${file}.secret.key`)).toBe(false);
    expect(b.err + b.out).not.toContain(K);
    await stopService(services.pop()!, false);

    const fresh = path.join(tmp(), 'data');
    const target = path.join(fresh, 'service.db');
    const refused = await cli('restore', [file], { DATABASE_PATH: target, SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^restore refused: the webhook secrets of this backup do not open with SECRET_ENCRYPTION_KEY: /);
    expect(fs.existsSync(target)).toBe(false);
    const rs = await cli('restore', [file], { DATABASE_PATH: target, SECRET_ENCRYPTION_KEY: K });
    expect(rs.code, rs.err).toBe(0);
    expect(JSON.parse(rs.out)).toMatchObject({ webhook_secrets: 1, secret_key: 'SECRET_ENCRYPTION_KEY' });
    expect(fs.existsSync(path.join(fresh, 'secret.key'))).toBe(false);
    const restored = await service({ SECRET_ENCRYPTION_KEY: K }, fresh);
    await deliversSignedWebhook(restored, p.key, p.secret!, r);
  });
});
