const USERNAME = /^[a-z][a-z0-9_]{4,31}$/;

/** A Telegram username as the adapters look it up: no leading @, lower case; null when it cannot be one. */
export function normaliseUsername(raw: string): string | null {
  const s = raw.trim().replace(/^@/, '').toLowerCase();
  return USERNAME.test(s) ? s : null;
}
