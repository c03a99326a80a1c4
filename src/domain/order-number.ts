/**
 * The short number of an order, as people read and type it in chat: `PA-<100000 + seq>`, from the one
 * sequence every order takes. A Stars or Premium order's id is this number; a gift order keeps its API id
 * `pa_<uuid>` and is still called by its number in the bot.
 */

const BASE = 100_000;

export function orderNumber(seq: number): string {
  return `PA-${BASE + seq}`;
}

/** The sequence a typed number names ("PA-100005", "pa-100005", "#100005", "100005"), or null. */
export function seqOfNumber(text: string): number | null {
  const m = /^(?:PA-|#)?(\d{6,})$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]) - BASE;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
