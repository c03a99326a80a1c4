/**
 * Mistyped settings are named at start-up instead of being ignored (`FRAGMENT_HSAH=…` would start as if unset):
 * a variable that carries one of the service's prefixes, or is one or two letters away from one of its names,
 * and that the service does not read, goes into one warning line with the nearest known name.
 */
const PREFIXES = [
  'ADMIN_', 'API_', 'BACKUP_', 'BSC_', 'DATABASE_', 'DEPOSIT_', 'FRAGMENT_', 'GIFTS_', 'METRICS_', 'NFT_', 'ORDER_', 'SANDBOX_',
  'SECRET_', 'SHUTDOWN_', 'STARS_', 'TELEGRAM_', 'TON_', 'TOPUP_', 'TRON_', 'UPSTREAM_', 'USDT_', 'VALIDATE_', 'WATCHER_', 'WATCHERS_', 'WEBHOOK_',
];

export interface UnknownVariable {
  name: string;
  suggestion?: string;
}

export function unknownVariables(env: Record<string, string | undefined>, known: readonly string[]): UnknownVariable[] {
  const knownSet = new Set(known);
  const out: UnknownVariable[] = [];
  for (const name of Object.keys(env).sort()) {
    if (knownSet.has(name)) continue;
    const nearest = closest(name, known);
    const prefixed = PREFIXES.some((p) => name.startsWith(p));
    // a whole-name typo (UPSTRAEM) is caught too, but only near a long name: short ones (PORT) resemble the system's own
    if (!prefixed && !(nearest && nearest.distance <= 2 && name.length >= 6)) continue;
    out.push(nearest && nearest.distance <= Math.max(2, Math.floor(name.length / 4)) ? { name, suggestion: nearest.name } : { name });
  }
  return out;
}

/** The one warning line, or null when every variable is known. */
export function unknownVariablesLine(list: UnknownVariable[]): string | null {
  if (list.length === 0) return null;
  const items = list.map((v) => (v.suggestion ? `${v.name} (did you mean ${v.suggestion}?)` : v.name));
  return `unknown variables, ignored: ${items.join(', ')}`;
}

function closest(name: string, known: readonly string[]): { name: string; distance: number } | null {
  let best: { name: string; distance: number } | null = null;
  for (const k of known) {
    if (Math.abs(k.length - name.length) > 3) continue;
    const d = editDistance(name, k);
    if (!best || d < best.distance) best = { name: k, distance: d };
  }
  return best;
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent swaps counted as one edit: HSAH is one edit from
 * HASH). Written here rather than taken from a package: a dozen lines, run once at start-up over a few names.
 */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}
