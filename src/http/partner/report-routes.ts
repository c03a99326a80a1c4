import type { FastifyInstance } from 'fastify';
import { partnerStats } from '../../app/stats.js';
import { sendJson } from '../frozen-json.js';
import { documented, q, type Endpoint } from '../openapi/endpoint.js';
import { partnerOf, type PartnerContext } from './context.js';

const STATS: Endpoint = {
  method: 'get',
  path: '/stats',
  operationId: 'getStats',
  tag: 'Account',
  summary: 'Order statistics',
  description:
    'The orders created from `from` to `to` (both inclusive; default: the 30 days up to now; at most 366 days, else 400 `bad_range`), per type, status (the status now) and currency: how many, their spend (partner prices debited), how many were refunded and for how much, and the net spend. A refund counts with its order, whenever it was made. `group_by=day` splits the same figures by the UTC day of creation (`day`, `YYYY-MM-DD`). `totals` sums every order per currency.',
  parameters: [
    q('from', 'created at or after: ISO 8601 date or date-time (offset optional), or unix seconds; default 30 days before to'),
    q('to', 'created at or before: same formats as from; default now'),
    q('group_by', '`day`: one set of figures per UTC day', { type: 'string', enum: ['day'] }),
  ],
  response: 'StatsResponse',
  okDescription: 'The figures.',
  responseExample: {
    from: '2026-03-01T00:00:00.000000+00:00',
    to: '2026-03-31T23:59:59.000000+00:00',
    group_by: null,
    items: [{ day: null, type: 'stars', status: 'completed', currency: 'USD', count: 10, spend: '15.80', refunded_count: 0, refunded_amount: '0.00', net_spend: '15.80' }],
    totals: [
      { currency: 'USD', count: 10, spend: '15.80', refunded_count: 0, refunded_amount: '0.00', net_spend: '15.80' },
      { currency: 'TON', count: 0, spend: '0.000', refunded_count: 0, refunded_amount: '0.000', net_spend: '0.000' },
    ],
  },
  errors: ['bad_time', 'bad_range', 'bad_param'],
};

export const reportEndpoints = [STATS];

/** The partner API's reports (issue 15): statistics. */
export function reportRoutes(app: FastifyInstance, { deps }: PartnerContext): void {
  documented(app, STATS, async (req, reply) => sendJson(reply, partnerStats(deps, partnerOf(req), req.query as Record<string, unknown>)));
}
