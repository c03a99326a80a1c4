import crypto from 'node:crypto';

/**
 * The form in which a one-time secret is kept at rest (invite codes): its SHA-256 in lower-case hex. The
 * secret is a long random token, so an unsalted fast hash is enough to make a stolen database, WAL or
 * backup useless for redeeming it. The database migration that hashed the invites of earlier versions
 * calls this same function (registered as `sha256_hex` by src/store/db.ts).
 */
export function sha256Hex(text: string): string {
  return crypto.hash('sha256', text, 'hex');
}

/** A grant (a sign-in link, a session, an export link) is stored under its kind's prefix and the SHA-256 of its token: the database never holds a usable link or cookie. */
export const grantKey = (prefix: string, token: string): string => prefix + sha256Hex(token);
