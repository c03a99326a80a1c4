import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/env.js';
import type { Conn } from '../store/db.js';
import { kvGet, kvSet } from '../store/kv-repo.js';
import { anySealedWebhookSecret } from '../store/partners-repo.js';

/** The kv entry holding the key's check value: a known text sealed with the key (opening it proves the key). */
export const KEY_CHECK = 'secrets.key_check';
const CHECK_TEXT = 'partner-service: the key of webhook secrets at rest';

/** Where the key came from, for a start-up error that names it (never its value). */
interface KeySource {
  box: SecretBox;
  /** the key file's path, or SECRET_ENCRYPTION_KEY */
  where: string;
  /** a key file made just now (none was there, and nothing was sealed) */
  fresh: boolean;
}

/**
 * Webhook secrets at rest: AES-256-GCM with a key from SECRET_ENCRYPTION_KEY or, by default, a random key
 * kept in a 0600 file beside the database (so a copied database alone does not reveal the secrets).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('secret key must be 32 bytes');
  }

  /**
   * The key for the database at `databasePath`, proven against it when `db` is given. A missing key file
   * while sealed secrets exist is a start-up error naming the file (never a value), not a fresh key: every
   * saved secret would be lost without a word. A key present but not the one that sealed the secrets is
   * refused too: the check value (kv KEY_CHECK, written on first use, and for a database from before it once
   * the key opens a stored secret) does not open with it, nor does a stored secret. With no sealed secret
   * stored, nothing is lost by a new key: the check value is written again for it.
   */
  static fromConfig(hexKey: string | undefined, databasePath: string, db?: Conn, now = 0): SecretBox {
    const src = SecretBox.source(hexKey, databasePath, () => (db ? anySealedWebhookSecret(db) !== undefined : false));
    if (db) src.box.prove(db, src, databasePath, now);
    return src.box;
  }

  private static source(hexKey: string | undefined, databasePath: string, hasSealed: () => boolean): KeySource {
    if (hexKey) return { box: new SecretBox(Buffer.from(hexKey, 'hex')), where: 'SECRET_ENCRYPTION_KEY', fresh: false };
    if (databasePath === ':memory:') return { box: new SecretBox(crypto.randomBytes(32)), where: 'a key in memory', fresh: true };
    const file = path.join(path.dirname(path.resolve(databasePath)), 'secret.key');
    let fresh = false;
    if (!fs.existsSync(file)) {
      if (hasSealed())
        throw new ConfigError([
          `${file}: the key file is missing but the database holds webhook secrets sealed with it; put the file back (a backup keeps it as <backup>.secret.key) or set SECRET_ENCRYPTION_KEY to the key`,
        ]);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
        fresh = true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    return { box: new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex')), where: file, fresh };
  }

  /** Start-up: this key is the database's (see fromConfig), and the check value says so from now on. */
  private prove(db: Conn, src: KeySource, databasePath: string, now: number): void {
    const check = kvGet<string>(db, KEY_CHECK);
    if (check !== undefined && !src.fresh && this.tryOpen(check) === CHECK_TEXT) return;
    const sample = anySealedWebhookSecret(db);
    if (sample !== undefined && this.tryOpen(sample) === null) {
      const fix =
        src.where === 'SECRET_ENCRYPTION_KEY'
          ? 'set it to the key that sealed them, or unset it if they were sealed with the secret.key file beside the database'
          : 'put back the key file that was beside the database (a backup keeps it as <backup>.secret.key) or set SECRET_ENCRYPTION_KEY to that key';
      throw new ConfigError([`${src.where}: this key is not the one that sealed the webhook secrets of ${databasePath}; ${fix}`]);
    }
    kvSet(db, KEY_CHECK, this.seal(CHECK_TEXT), now);
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return ['v1', iv.toString('base64'), c.getAuthTag().toString('base64'), body.toString('base64')].join('.');
  }

  /**
   * Opened secrets by their sealed text (a fresh IV makes each sealing unique, so a changed secret is a new
   * entry): every webhook attempt signs with its partner's secret, and AES-GCM per attempt showed in the
   * fan-out's profile. Memory only, bounded; the plain secret is in this process's memory at each attempt anyway.
   */
  private readonly opened = new Map<string, string>();

  /** The plain text, or null when this key does not open it (another key sealed it, or it is damaged). */
  tryOpen(sealed: string): string | null {
    try {
      return this.open(sealed);
    } catch {
      return null;
    }
  }

  open(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = this.decrypt(sealed);
      if (this.opened.size >= 1_000) this.opened.clear();
      this.opened.set(sealed, plain);
    }
    return plain;
  }

  private decrypt(sealed: string): string {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1') throw new Error('unknown secret format');
    const d = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    d.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([d.update(Buffer.from(body, 'base64')), d.final()]).toString('utf8');
  }
}
