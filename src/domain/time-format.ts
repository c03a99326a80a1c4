/**
 * The contract's three timestamp spellings, computed from service-clock milliseconds.
 * - local: ISO 8601 with microseconds and no offset (`created_at` of orders): the service's local time,
 *   which is UTC whatever the host's time zone (operator-api.md section 1), so UTC getters only
 * - offset: ISO 8601 UTC with microseconds and `+00:00` (`completed_at`, `quoted_at`, clock `now`)
 * - unix seconds (`X-Timestamp`)
 */
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function localIso(ms: number): string {
  return offsetIso(ms).slice(0, -'+00:00'.length);
}

export function offsetIso(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000+00:00`
  );
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/**
 * Parses a `from`/`to` filter: an ISO 8601 date or date-time (offset optional; without one it is the
 * service's local time, UTC) or unix seconds. Returns milliseconds or null.
 */
export function parseTimeFilter(text: string): number | null {
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000;
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return null;
  if (!isCalendarDate(Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10)))) return null;
  // Trim sub-millisecond digits: Date.parse accepts at most milliseconds reliably.
  const normalised = text.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1');
  const withTime = normalised.length === 10 ? `${normalised}T00:00:00` : normalised;
  // Date.parse reads a date-time without an offset in the host's zone: the service's is UTC
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(withTime) ? withTime : `${withTime}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? null : ms;
}

/** Date.parse rolls a day past the month's end over (2024-02-30 → 2024-03-01): such dates are refused instead. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}
