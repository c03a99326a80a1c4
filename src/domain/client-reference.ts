/**
 * The partner's own order reference (`client_reference` on POST /orders): 1–128 printable characters.
 * Printable means any Unicode character except control, format, surrogate, private-use and unassigned
 * ones (\p{C}) and the line and paragraph separators; the length counts characters (code points).
 */
export const CLIENT_REFERENCE_MAX = 128;
const PRINTABLE = /^[^\p{C}\p{Zl}\p{Zp}]+$/u;

export function isClientReference(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0) return false;
  const chars = [...v].length;
  return chars >= 1 && chars <= CLIENT_REFERENCE_MAX && PRINTABLE.test(v);
}
