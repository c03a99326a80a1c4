import { eventsTaken, type OrderEvent } from '../../domain/webhook-delivery.js';
import { webhookBody } from '../../domain/webhook-signing.js';
import type { Tx } from '../../store/db.js';
import { scheduleJob } from '../../store/jobs-repo.js';
import { getPartner } from '../../store/partners-repo.js';
import { insertDelivery, insertEvent } from '../../store/webhooks-repo.js';
import type { Deps } from '../deps.js';
import type { AfterCommit } from '../unit-of-work.js';

export const WEBHOOK_JOB = 'webhook.deliver';

/**
 * Records one event in the outbox, in the caller's transaction. When the partner has both a secret and an
 * address (the order's `webhook_url` or the dashboard one) at this moment, and takes this kind of event (the
 * Webhook block's `events`), a delivery is created and its first attempt scheduled; otherwise the event is
 * never delivered (partner-api.md Events, Configuration). Order events also tell the bot after the commit.
 */
export function recordEvent(
  tx: Tx,
  deps: Pick<Deps, 'clock' | 'ids' | 'bus' | 'wake'>,
  after: AfterCommit,
  args: { partnerId: number; orderId: string; event: OrderEvent | 'balance.low'; data: Record<string, unknown>; orderWebhookUrl: string | null },
): void {
  const now = deps.clock.now();
  const body = webhookBody(args.event, args.orderId, args.data);
  const eventId = insertEvent(tx, { partnerId: args.partnerId, orderId: args.orderId, event: args.event, body, createdAt: now });
  const partner = getPartner(tx, args.partnerId);
  const url = args.orderWebhookUrl || partner?.webhookUrl || '';
  if (partner?.webhookSecretEnc && url && eventsTaken(partner.webhookEvents).includes(args.event)) {
    const webhookId = deps.ids.hex(12);
    insertDelivery(tx, { webhookId, eventId, partnerId: args.partnerId, orderId: args.orderId, event: args.event, url, now });
    scheduleJob(tx, WEBHOOK_JOB, webhookId, now, now);
    after(() => deps.wake());
    after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId, orderId: args.orderId, partnerId: args.partnerId, event: args.event, status: 'pending', attempt: 0, outcome: 'created' }));
  }
  const event = args.event;
  if (event !== 'balance.low') after(() => deps.bus.emit('order', { partnerId: args.partnerId, orderId: args.orderId, event }));
}
