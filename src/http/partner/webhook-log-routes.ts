import type { FastifyInstance } from 'fastify';
import { listOwnDeliveries, redeliver, sendTestWebhook } from '../../app/webhooks/delivery-log.js';
import { DELIVERY_LIST_QUERY, type DeliveryListInput } from '../../app/requests/queries.js';
import { documented, type Endpoint } from '../route.js';
import { partnerOf, type PartnerContext } from './context.js';

const LIST: Endpoint<DeliveryListInput> = {
  method: 'get',
  path: '/webhook-deliveries',
  operationId: 'listWebhookDeliveries',
  tag: 'Webhooks',
  summary: 'The webhook delivery log',
  description:
    'The partner\'s own webhook deliveries, newest first, each with every request made (number, time, HTTP status or error, duration). Keyset paging like GET /orders: pass `next_cursor` back as `cursor`; the same codes for a bad cursor, limit or unknown parameter.',
  query: DELIVERY_LIST_QUERY,
  response: 'WebhookDeliveryList',
  okDescription: 'A page of deliveries.',
  errors: ['bad_status', 'bad_limit', 'bad_cursor', 'bad_param'],
};

const REDELIVER: Endpoint = {
  method: 'post',
  path: '/webhook-deliveries/{delivery_id}/redeliver',
  operationId: 'redeliverWebhook',
  tag: 'Webhooks',
  summary: 'Send a webhook again now',
  description:
    'Sends the delivery\'s webhook again now: the same body and `X-Webhook-Id`, signed with the current secret (after a regenerate, the new one), to the delivery\'s address, under the same address checks as every attempt. Answers the delivery once the request is done, the new attempt last with `manual: true`. It is outside the retry schedule: it uses none of the 6 scheduled attempts, and a pending delivery keeps its status and `next_attempt_at` whatever the outcome (its scheduled attempts still come; drop duplicates by `X-Webhook-Id`). A `failed` delivery that the receiver now takes (2xx) becomes `delivered`; a failed redelivery changes nothing but the log. `X-Webhook-Attempt` counts every request of the webhook, redeliveries included. Another partner\'s or an unknown delivery is 404 `not_found`.',
  parameters: [{ name: 'delivery_id', in: 'path', required: true, description: 'the X-Webhook-Id (24 hex characters)', schema: { type: 'string' } }],
  response: 'WebhookDelivery',
  okDescription: 'The delivery with the new attempt.',
  errors: ['not_found', 'webhook_not_configured'],
};

const TEST: Endpoint = {
  method: 'post',
  path: '/webhook/test',
  operationId: 'sendTestWebhook',
  tag: 'Webhooks',
  summary: 'Send a test webhook',
  description:
    'Sends a signed `webhook.test` event (see callbacks) to the Webhook block\'s address now, under the same address checks as every webhook, and answers the delivery it made (also in GET /webhook-deliveries). It is sent once and never retried: `status` is `delivered` on a 2xx, else `failed` (the attempt says why, or `rejected_reason` when the address was refused before sending). No body is needed. 409 `webhook_not_configured` until both an address and a secret are saved.',
  response: 'WebhookDelivery',
  okDescription: 'The test delivery with its one attempt.',
  errors: ['webhook_not_configured'],
  callbacks: ['webhook.test'],
};

export const webhookLogEndpoints = [LIST, REDELIVER, TEST];

/** The partner's webhook delivery log, redelivery and the test webhook. */
export function webhookLogRoutes(app: FastifyInstance, { deps, sender }: PartnerContext): void {
  documented(app, LIST, async (req) => listOwnDeliveries(deps, partnerOf(req), req.query));
  documented(app, REDELIVER, async (req) => redeliver(deps, sender, partnerOf(req), req.params.delivery_id));
  documented(app, TEST, async (req) => sendTestWebhook(deps, sender, partnerOf(req)));
}
