import { z } from 'zod';
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../../domain/webhook-delivery.js';
import { CURRENCIES } from '../../domain/enums.js';
import { offsetTime, reg } from './fields.js';

/** The partner's webhook delivery log: GET /webhook-deliveries, redeliver, test. */

export const WebhookAttempt = reg(
  'WebhookAttempt',
  z.object({
    number: z.number().int().meta({ description: 'the X-Webhook-Attempt sent: scheduled attempts and manual redeliveries are counted together' }),
    manual: z.boolean().meta({ description: 'true for a redelivery asked for with POST /webhook-deliveries/{delivery_id}/redeliver' }),
    sent_at: offsetTime.meta({ description: 'when the request was sent (its X-Timestamp)' }),
    http_status: z.number().int().nullable().meta({ description: 'the receiver\'s HTTP status; null when no answer came (timeout, connection error) or no request could be made' }),
    error: z.string().nullable().meta({ description: 'why the attempt failed: `HTTP 500`, `timeout`, a connection error; for a redelivery that could not be sent, `address refused: <reason>` or `dns: …`; null on success', example: 'HTTP 503' }),
    duration_ms: z.number().int().nullable().meta({ description: 'how long the exchange took, in milliseconds; null when no request was made' }),
  }),
  'One request of a webhook delivery.',
);

export const WebhookDelivery = reg(
  'WebhookDelivery',
  z.object({
    delivery_id: z.string().regex(/^[0-9a-f]{24}$/).meta({ description: 'the X-Webhook-Id of every request of this webhook', example: '5f0c8e2a9b1d4c7e8f6a3b21' }),
    event: z.enum(WEBHOOK_EVENTS),
    order_id: z.string().nullable().meta({ description: 'the order the event is about (balance.low: the order whose debit took the balance below the threshold); null for webhook.test' }),
    url: z.string().meta({ description: 'the address it is sent to (the order\'s webhook_url, else the Webhook block\'s address when the event happened)' }),
    status: z.enum(DELIVERY_STATUSES).meta({ description: 'pending: scheduled attempts remain; delivered: a 2xx came back; failed: the schedule is used up, or the address was refused before sending (see rejected_reason)' }),
    attempts: z.array(WebhookAttempt).meta({ description: 'every request made, oldest first' }),
    next_attempt_at: offsetTime.nullable().meta({ description: 'when the next scheduled attempt is due; null when none is' }),
    rejected_reason: z.string().nullable().meta({ description: 'why nothing was sent: the address was refused (private_address, dns_failure, or a bad_webhook_url reason), or the secret is missing (no_secret) or does not open with the service\'s key (secret_unreadable); null otherwise' }),
    last_error: z.string().nullable().meta({ description: 'the error of the last request, or of the last DNS lookup that put an attempt off' }),
    created_at: offsetTime,
  }),
  'A webhook delivery: one event to one address, with its attempts.',
);

export const WebhookDeliveryList = reg(
  'WebhookDeliveryList',
  z.object({ items: z.array(WebhookDelivery), count: z.number().int(), next_cursor: z.string().nullable() }),
  'GET /webhook-deliveries: newest first; pass next_cursor back as `cursor` for the next page (null on the last page).',
);

export const TestEvent = reg(
  'TestEvent',
  z.object({
    event: z.literal('webhook.test'),
    order_id: z.string().nullable().meta({ description: 'always null: a test is about no order' }),
    data: z.object({ partner_id: z.number().int(), created_at: offsetTime }),
  }),
  'Body of webhook.test (POST /webhook/test).',
);

export const BalanceLowEvent = reg(
  'BalanceLowEvent',
  z.object({
    event: z.literal('balance.low'),
    order_id: z.string().meta({ description: 'the order whose debit took the balance below the threshold' }),
    data: z.object({
      currency: z.enum(CURRENCIES),
      balance: z.string().regex(/^\d+\.\d{2,3}$/).meta({ description: 'the balance right after the debit (2 decimals USD, 3 TON)', example: '87.40' }),
      threshold: z.string().regex(/^\d+\.\d{2,3}$/).meta({ description: 'the alert threshold of that currency', example: '100.00' }),
      order_id: z.string(),
    }),
  }),
  'Body of balance.low: sent only to partners whose Webhook block lists it in `events`.',
);
