import fs from 'node:fs';
import path from 'node:path';

/**
 * Every secret can come from a file (operator-api.md §1; docs/production.md "Secrets"): `NAME_FILE` names a file
 * holding `NAME` (it wins over `NAME`), and under systemd a credential called `NAME` (`LoadCredential=NAME:…`,
 * read from `$CREDENTIALS_DIRECTORY`) is used when neither is set. A file's trailing newline is dropped.
 * (GIFTS_SESSION is the exception: its GIFTS_SESSION_FILE has a meaning of its own, see below.)
 */
export const SECRET_VARIABLES = [
  'ADMIN_TOKEN',
  'METRICS_TOKEN',
  'SECRET_ENCRYPTION_KEY',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_WEBHOOK_SECRET',
  'TON_API_KEY',
  'TRON_API_KEY',
  'BSC_RPC_URL',
  'TELEGRAM_API_HASH',
  'GIFTS_SESSION',
  'FRAGMENT_MNEMONIC',
  'FRAGMENT_COOKIES',
  'FRAGMENT_HASH',
  'FRAGMENT_TONCENTER_API_KEY',
] as const;

/** GIFTS_SESSION_FILE is the path of mtcute's session storage (docs/gifts.md), not a file holding GIFTS_SESSION. */
const OWN_FILE_VARIABLE = new Set<string>(['GIFTS_SESSION']);

/** `env` with each secret read from its file or credential; a file that cannot be read is one error line. */
export function withSecretFiles(env: Record<string, string | undefined>): { env: Record<string, string | undefined>; lines: string[] } {
  const out = { ...env };
  const lines: string[] = [];
  const credentials = env.CREDENTIALS_DIRECTORY?.trim();
  for (const name of SECRET_VARIABLES) {
    const file = OWN_FILE_VARIABLE.has(name) ? undefined : env[`${name}_FILE`]?.trim();
    if (file) {
      try {
        out[name] = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      } catch {
        lines.push(`invalid configuration: ${name}_FILE: cannot be read`);
      }
      continue;
    }
    if (!credentials || env[name]?.trim()) continue;
    try {
      out[name] = fs.readFileSync(path.join(credentials, name), 'utf8').replace(/\r?\n$/, '');
    } catch {
      // no credential of that name
    }
  }
  return { env: out, lines };
}
