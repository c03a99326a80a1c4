import 'dotenv/config';
import fs from 'node:fs';
import path from 'node:path';
import { loadTelegramApp } from '../../config/gifts.js';

/**
 * `npm run gifts:login`: signs the gift account in interactively (phone number, login code, 2FA password)
 * and stores the session in mtcute's SQLite storage at GIFTS_SESSION_FILE (default ./data/gifts.session),
 * then prints where it is. The session itself is never printed: the file is the secret (mode 0600).
 */
async function main(): Promise<number> {
  const lines: string[] = [];
  const app = loadTelegramApp(process.env, lines);
  if (!app) {
    process.stderr.write(`${lines[0]}\n`);
    return 1;
  }
  const file = path.resolve(process.env.GIFTS_SESSION_FILE?.trim() || './data/gifts.session');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { TelegramClient } = await import('@mtcute/node');
  const client = new TelegramClient({ apiId: app.apiId, apiHash: app.apiHash, storage: file, updates: false, logLevel: 2 });
  try {
    const me = await client.start({
      phone: () => client.input('Phone number (international format): '),
      code: () => client.input('Login code: '),
      password: () => client.input('2FA password: '),
    });
    fs.chmodSync(file, 0o600);
    process.stdout.write(`signed in as ${me.displayName}${me.username ? ` (@${me.username})` : ''}\n`);
    process.stdout.write(`session stored in ${file}: set GIFTS_SESSION_FILE=${file} and GIFTS_UPSTREAM=telegram\n`);
    return 0;
  } finally {
    await client.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`gifts:login failed: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
