import { fail, type ErrorCode } from '../domain/errors.js';

/**
 * Opaque cursors: base64url of `<kind>:<position>`. The kind letter stops a cursor of one list being
 * passed to another.
 */
export function encodeCursor(kind: string, position: number | string): string {
  return Buffer.from(`${kind}:${position}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: unknown, kind: string, code: ErrorCode = 'bad_cursor'): number {
  return cursorPosition(cursor, kind) ?? fail(code);
}

/** The position a cursor of `kind` names, or null when it is not one. */
export function cursorPosition(cursor: unknown, kind: string): number | null {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 200) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = new RegExp(`^${kind}:(\\d{1,15})$`).exec(text);
  return m ? Number(m[1]) : null;
}

export function parseLimit(value: unknown, def: number, max: number): number {
  if (value === undefined) return def;
  const s = String(value);
  if (!/^\d{1,6}$/.test(s)) fail('bad_limit', `limit must be a whole number from 1 to ${max}.`);
  const n = Number(s);
  if (n < 1 || n > max) fail('bad_limit', `limit must be a whole number from 1 to ${max}.`);
  return n;
}
