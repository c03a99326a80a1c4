import { z } from 'zod';
import { CURRENCIES, ORDER_STATUSES, ORDER_TYPES } from '../../domain/enums.js';
import { offsetTime, reg } from './fields.js';

/** GET /stats. */

const statsMoney = z.string().regex(/^-?\d+\.\d{2,3}$/);
const statsFigures = {
  count: z.number().int().meta({ description: 'orders' }),
  spend: statsMoney.meta({ description: 'their partner prices, debited when they were created (2 decimals USD, 3 TON)', example: '15.80' }),
  refunded_count: z.number().int().meta({ description: 'of these, orders refunded' }),
  refunded_amount: statsMoney.meta({ description: 'the money returned by those refunds', example: '0.79' }),
  net_spend: statsMoney.meta({ description: 'spend less refunded_amount', example: '15.01' }),
};
export const StatsItem = reg(
  'StatsItem',
  z.object({
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().meta({ description: 'the UTC day of creation with group_by=day, else null', example: '2026-03-01' }),
    type: z.enum(ORDER_TYPES),
    status: z.enum(ORDER_STATUSES).meta({ description: 'the status now' }),
    currency: z.enum(CURRENCIES),
    ...statsFigures,
  }),
  'The orders of one type and status (and day, with group_by=day) created in the range.',
);
export const StatsTotal = reg('StatsTotal', z.object({ currency: z.enum(CURRENCIES), ...statsFigures }), 'Every order of one currency created in the range.');
export const StatsResponse = reg(
  'StatsResponse',
  z.object({
    from: offsetTime,
    to: offsetTime,
    group_by: z.string().nullable().meta({ description: '"day" with group_by=day, else null' }),
    items: z.array(StatsItem).meta({ description: 'only combinations with orders; by day, type, status' }),
    totals: z.array(StatsTotal).meta({ description: 'USD and TON, zeros included' }),
  }),
  'GET /stats: orders created from `from` to `to` (both inclusive), counted by their status now; a refund counts with its order.',
);
