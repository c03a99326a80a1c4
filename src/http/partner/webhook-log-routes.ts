import type { FastifyInstance } from 'fastify';
import { listOwnDeliveries, redeliver, sendTestWebhook } from '../../app/webhooks/delivery-log.js';
import type { DeliverySender } from '../../app/webhooks/sender.js';
import { partnerOf, type PartnerRouteDeps } from './routes.js';

/** The partner's webhook delivery log, redelivery and the test webhook (issue 15 point 3). */
export function webhookLogRoutes(sender: DeliverySender) {
  return (app: FastifyInstance, { deps }: PartnerRouteDeps) => {
    app.get('/webhook-deliveries', async (req) => listOwnDeliveries(deps, partnerOf(req), req.query as Record<string, unknown>));
    app.post<{ Params: { delivery_id: string } }>('/webhook-deliveries/:delivery_id/redeliver', async (req) => redeliver(deps, sender, partnerOf(req), req.params.delivery_id));
    app.post('/webhook/test', async (req) => sendTestWebhook(deps, sender, partnerOf(req)));
  };
}
