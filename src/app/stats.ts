import { fail } from '../domain/errors.js';
import { DAY_MS, STATS_DEFAULT_DAYS, STATS_MAX_DAYS, splitRange, summarise } from '../domain/stats.js';
import { offsetIso } from '../domain/time-format.js';
import { statsOfHours, statsOfSpan } from '../store/stats-repo.js';
import type { Deps } from './deps.js';
import type { StatsInput } from './requests/queries.js';

/**
 * GET /stats: the partner's orders created from `from` to `to` (both inclusive, the formats of
 * GET /orders; default the 30 days up to now), per type, status and currency, and per UTC day with
 * `group_by=day`: count, spend, refunds. Whole hours come from the hourly figures, the partial hours at
 * the edges from the orders, so a year costs about the same whatever the order volume.
 */
export function partnerStats(deps: Pick<Deps, 'db' | 'clock'>, partnerId: number, query: StatsInput) {
  const to = query.to ?? deps.clock.now();
  const from = query.from ?? to - STATS_DEFAULT_DAYS * DAY_MS;
  if (from > to) fail('bad_range', 'from must not be after to.');
  if (to - from > STATS_MAX_DAYS * DAY_MS) fail('bad_range', `The range may cover at most ${STATS_MAX_DAYS} days.`);
  const byDay = query.group_by === 'day';
  const parts = splitRange(from, to);
  const buckets = [
    ...(parts.hours ? statsOfHours(deps.db, partnerId, parts.hours[0], parts.hours[1]) : []),
    ...parts.spans.flatMap(([a, b]) => statsOfSpan(deps.db, partnerId, a, b)),
  ];
  return { from: offsetIso(from), to: offsetIso(to), group_by: byDay ? 'day' : null, ...summarise(buckets, byDay) };
}
