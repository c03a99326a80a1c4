import { fail } from '../domain/errors.js';
import { DAY_MS, STATS_DEFAULT_DAYS, STATS_MAX_DAYS, splitRange, summarise } from '../domain/stats.js';
import { offsetIso, parseTimeFilter } from '../domain/time-format.js';
import { statsOfHours, statsOfSpan } from '../store/stats-repo.js';
import type { Deps } from './deps.js';

const KNOWN = new Set(['from', 'to', 'group_by']);

/**
 * GET /stats (issue 15): the partner's orders created from `from` to `to` (both inclusive, the formats of
 * GET /orders; default the 30 days up to now), per type, status and currency, and per UTC day with
 * `group_by=day`: count, spend, refunds. Whole hours come from the hourly figures, the partial hours at
 * the edges from the orders, so a year costs about the same whatever the order volume.
 */
export function partnerStats(deps: Pick<Deps, 'db' | 'clock'>, partnerId: number, q: Record<string, unknown>) {
  for (const k of Object.keys(q)) if (!KNOWN.has(k)) fail('bad_param', `Unknown query parameter: ${k}.`, { param: k });
  for (const [k, v] of Object.entries(q)) if (typeof v !== 'string') fail('bad_param', `${k} is given more than once.`, { param: k });
  const to = q.to === undefined ? deps.clock.now() : parseTimeFilter(q.to as string) ?? fail('bad_time', 'to is not a valid time.');
  const from = q.from === undefined ? to - STATS_DEFAULT_DAYS * DAY_MS : parseTimeFilter(q.from as string) ?? fail('bad_time', 'from is not a valid time.');
  if (from > to) fail('bad_range', 'from must not be after to.');
  if (to - from > STATS_MAX_DAYS * DAY_MS) fail('bad_range', `The range may cover at most ${STATS_MAX_DAYS} days.`);
  if (q.group_by !== undefined && q.group_by !== 'day') fail('bad_param', 'group_by must be day.', { param: 'group_by' });
  const byDay = q.group_by === 'day';
  const parts = splitRange(from, to);
  const buckets = [
    ...(parts.hours ? statsOfHours(deps.db, partnerId, parts.hours[0], parts.hours[1]) : []),
    ...parts.spans.flatMap(([a, b]) => statsOfSpan(deps.db, partnerId, a, b)),
  ];
  return { from: offsetIso(from), to: offsetIso(to), group_by: byDay ? 'day' : null, ...summarise(buckets, byDay) };
}
