import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/env.js';

/**
 * Webhook secrets at rest: AES-256-GCM with a key from SECRET_ENCRYPTION_KEY or, by default, a random key
 * kept in a 0600 file beside the database (so a copied database alone does not reveal the secrets).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('secret key must be 32 bytes');
  }

  /**
   * `hasSealed`: whether the database already holds secrets sealed with a key. A new key cannot open them, so
   * a missing key file is then a start-up error naming the file (never a value), not a fresh key: webhooks
   * would otherwise go out unsigned-able and every saved secret would be lost without a word.
   */
  static fromConfig(hexKey: string | undefined, databasePath: string, hasSealed: () => boolean = () => false): SecretBox {
    if (hexKey) return new SecretBox(Buffer.from(hexKey, 'hex'));
    if (databasePath === ':memory:') return new SecretBox(crypto.randomBytes(32));
    const file = path.join(path.dirname(path.resolve(databasePath)), 'secret.key');
    if (!fs.existsSync(file)) {
      if (hasSealed())
        throw new ConfigError([
          `${file}: the key file is missing but the database holds webhook secrets sealed with it; put the file back (a backup keeps it as <backup>.secret.key) or set SECRET_ENCRYPTION_KEY to the key`,
        ]);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'));
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
