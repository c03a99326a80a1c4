import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/env.js';
import { freePort, startService, stopService, type TestService } from '../helpers.js';
import { startProcess } from './service-process.js';

/**
 * A `secret.key` (or SECRET_ENCRYPTION_KEY) that is there but is not the key that sealed the database's
 * webhook secrets: start-up refuses with one line naming the file (never a key or a secret) instead of a
 * service whose every webhook stays pending. The proof is a check value sealed with the key and kept in the
 * database (written on the first start; for a database from before it, once the key opens a stored secret).
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const CHECK = 'secrets.key_check';
const otherKey = () => crypto.randomBytes(32).toString('hex');
const checkOf = (dir: string) => {
  const db = new Database(path.join(dir, 'service.db'), { readonly: true });
  try {
    return db.prepare('select value from kv where key = ?').pluck().get(CHECK) as string | undefined;
  } finally {
    db.close();
  }
};
const dropCheck = (dir: string) => {
  const db = new Database(path.join(dir, 'service.db'));
  try {
    db.prepare('delete from kv where key = ?').run(CHECK);
  } finally {
    db.close();
  }
};
async function refusal(env: Record<string, string>, dir: string): Promise<ConfigError> {
  const err = await startService(env, { dir }).then(
    (t) => stopService(t, false).then(() => null),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

/** A stopped service's folder with a partner whose webhook secret is sealed with the folder's secret.key. */
async function folderWithSealedSecret(): Promise<{ dir: string; keyFile: string; secret: string; key: string }> {
  const t: TestService = await startService();
  dirs.push(t.dir);
  const p = await t.newPartner({ webhookUrl: 'https://hooks.example.com/in' });
  const keyFile = path.join(t.dir, 'secret.key');
  const key = fs.readFileSync(keyFile, 'utf8').trim();
  await stopService(t, false);
  return { dir: t.dir, keyFile, secret: p.secret!, key };
}

describe('a secret.key that is not the one that sealed the webhook secrets stops start-up', { timeout: 120_000 }, () => {
  it('the first start writes the check value; another key file in its place is refused in one line naming the file, and the file is left alone', async () => {
    const { dir, keyFile, secret, key } = await folderWithSealedSecret();
    expect(checkOf(dir)).toMatch(/^"v1\./);
    const wrong = otherKey();
    fs.writeFileSync(keyFile, wrong, { mode: 0o600 });
    const lines = (await refusal({}, dir)).lines;
    expect(lines).toEqual([
      `${keyFile}: this key is not the one that sealed the webhook secrets of ${path.join(dir, 'service.db')}; put back the key file that was beside the database (a backup keeps it as <backup>.secret.key) or set SECRET_ENCRYPTION_KEY to that key`,
    ]);
    for (const s of [secret, key, wrong]) expect(lines[0]).not.toContain(s);
    expect(fs.readFileSync(keyFile, 'utf8')).toBe(wrong);
    // the right key back: it starts, and opens the secret
    fs.writeFileSync(keyFile, key, { mode: 0o600 });
    const again = await startService({}, { dir });
    const row = again.db.$client.prepare('select webhook_secret_enc from partners where webhook_secret_enc is not null').pluck().get() as string;
    expect(again.deps.secrets.open(row)).toBe(secret);
    await stopService(again, false);
  });

  it('a database from before the check value: the right key writes one at start; a wrong key is refused by the stored secret it cannot open', async () => {
    const { dir, keyFile, key } = await folderWithSealedSecret();
    dropCheck(dir);
    fs.writeFileSync(keyFile, otherKey(), { mode: 0o600 });
    expect((await refusal({}, dir)).lines[0]).toMatch(new RegExp(`^${keyFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: this key is not the one that sealed the webhook secrets`));
    expect(checkOf(dir)).toBeUndefined();
    fs.writeFileSync(keyFile, key, { mode: 0o600 });
    const t = await startService({}, { dir });
    await stopService(t, false);
    expect(checkOf(dir)).toMatch(/^"v1\./);
  });

  it('SECRET_ENCRYPTION_KEY that is not the sealing key is refused naming the variable, never its value', async () => {
    const { dir, key } = await folderWithSealedSecret();
    const wrong = otherKey();
    const lines = (await refusal({ SECRET_ENCRYPTION_KEY: wrong }, dir)).lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^SECRET_ENCRYPTION_KEY: this key is not the one that sealed the webhook secrets of .*service\.db; set it to the key that sealed them, or unset it/);
    expect(lines[0]).not.toContain(wrong);
    expect(lines[0]).not.toContain(key);
    // the key file's own key given as the variable is the same key: it starts
    const t = await startService({ SECRET_ENCRYPTION_KEY: key }, { dir });
    await stopService(t, false);
  });

  it('with no sealed secret stored nothing is lost: another key starts, and the check value is written for it', async () => {
    const t = await startService();
    dirs.push(t.dir);
    await stopService(t, false);
    const before = checkOf(t.dir);
    expect(before).toMatch(/^"v1\./);
    fs.writeFileSync(path.join(t.dir, 'secret.key'), otherKey(), { mode: 0o600 });
    const again = await startService({}, { dir: t.dir });
    await stopService(again, false);
    expect(checkOf(t.dir)).toMatch(/^"v1\./);
    expect(checkOf(t.dir)).not.toBe(before);
  });

  it('the service process exits 1 printing that one line', async () => {
    const { dir, keyFile, secret, key } = await folderWithSealedSecret();
    const wrong = otherKey();
    fs.writeFileSync(keyFile, wrong, { mode: 0o600 });
    const proc = startProcess(dir, { PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN: 'adm_ops_process_token_0123456789', SANDBOX_DEMO: '0' });
    try {
      expect(await proc.exited).toBe(1);
      const out = proc.output().trim();
      expect(out.split('\n')).toEqual([
        `${keyFile}: this key is not the one that sealed the webhook secrets of ${path.join(dir, 'service.db')}; put back the key file that was beside the database (a backup keeps it as <backup>.secret.key) or set SECRET_ENCRYPTION_KEY to that key`,
      ]);
      for (const s of [secret, key, wrong]) expect(out).not.toContain(s);
    } finally {
      proc.kill();
    }
  });
});
