import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/env.js';
import { freePort, startService, stopService, type TestService } from '../helpers.js';
import { startProcess } from './service-process.js';

/**
 * Webhook secrets are stored sealed with the key in `secret.key` beside the database. When that file is gone
 * while sealed secrets exist, a new key would open none of them: the service refuses to start, with one line
 * naming the missing file (never a key or a secret), and makes no new key file.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A service folder holding a partner with a saved webhook secret, then stopped with its secret.key removed. */
async function folderWithSealedSecretAndNoKey(): Promise<{ dir: string; keyFile: string; secret: string; key: string }> {
  const t: TestService = await startService();
  dirs.push(t.dir);
  const p = await t.newPartner({ webhookUrl: 'https://hooks.example.com/in' });
  expect(p.secret).toMatch(/^whsec_/);
  const keyFile = path.join(t.dir, 'secret.key');
  const key = fs.readFileSync(keyFile, 'utf8').trim();
  await stopService(t, false);
  fs.rmSync(keyFile);
  return { dir: t.dir, keyFile, secret: p.secret!, key };
}

describe('a missing secret.key while sealed secrets exist stops start-up', { timeout: 120_000 }, () => {
  it('createService throws a one-line ConfigError naming the file, and writes no new key', async () => {
    const { dir, keyFile, secret, key } = await folderWithSealedSecretAndNoKey();
    const err = await startService({}, { dir }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const lines = (err as ConfigError).lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(keyFile);
    expect(lines[0]).toMatch(/missing/);
    expect(lines[0]).not.toContain(secret);
    expect(lines[0]).not.toContain(key);
    expect(fs.existsSync(keyFile)).toBe(false);
  });

  it('a database without sealed secrets still gets a new key file (a first start)', async () => {
    const t = await startService();
    dirs.push(t.dir);
    await t.newPartner();
    await stopService(t, false);
    fs.rmSync(path.join(t.dir, 'secret.key'));
    const again = await startService({}, { dir: t.dir });
    await stopService(again, false);
    expect(fs.readFileSync(path.join(t.dir, 'secret.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the service process exits 1 printing that one line', async () => {
    const { dir, keyFile, secret, key } = await folderWithSealedSecretAndNoKey();
    const proc = startProcess(dir, { PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN: 'adm_ops_process_token_0123456789', SANDBOX_DEMO: '0' });
    try {
      expect(await proc.exited).toBe(1);
      const out = proc.output().trim();
      expect(out.split('\n')).toEqual([`${keyFile}: the key file is missing but the database holds webhook secrets sealed with it; put the file back (a backup keeps it as <backup>.secret.key) or set SECRET_ENCRYPTION_KEY to the key`]);
      expect(out).not.toContain(secret);
      expect(out).not.toContain(key);
      expect(fs.existsSync(keyFile)).toBe(false);
    } finally {
      proc.kill();
    }
  });
});
