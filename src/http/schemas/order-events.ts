import { z } from 'zod';
import { CURRENCIES } from '../../domain/enums.js';
import { clientRef, reg, tonAmt } from './fields.js';
import { WebhookOrder } from './orders.js';

/** The bodies of the order webhooks. */

export const OrderEvent = reg(
  'OrderEvent',
  z.object({ event: z.enum(['order.completed', 'order.failed']), order_id: z.string(), data: WebhookOrder }),
  'Body of order.completed and order.failed.',
);
export const RefundEvent = reg(
  'RefundEvent',
  z.object({
    event: z.literal('order.refunded'),
    order_id: z.string(),
    data: z.object({
      order_id: z.string(),
      refund_amount: z.number().meta({ description: 'a JSON number (historical exception to money-as-strings)' }),
      reason: z.enum(['stars_failed', 'premium_canceled', 'nft_failed', 'nft_manual_refund']),
      currency: z.enum(CURRENCIES),
      refund_amount_ton: tonAmt.optional().meta({ description: 'nft refunds: the value to reconcile against' }),
      client_reference: clientRef.nullable().meta({ description: 'the order\'s client_reference; null when none was given' }),
    }),
  }),
  'Body of order.refunded.',
);
