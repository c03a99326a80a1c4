import { fail } from '../../domain/errors.js';
import { offsetIso } from '../../domain/time-format.js';
import { TEST_EVENT } from '../../domain/webhook-delivery.js';
import { webhookBody } from '../../domain/webhook-signing.js';
import { audit } from '../../store/audit-repo.js';
import { getPartner } from '../../store/partners-repo.js';
import { attemptsOf, getDelivery, listPartnerDeliveries, type AttemptRow, type DeliveryRow } from '../../store/webhooks-repo.js';
import type { Deps } from '../deps.js';
import { encodeCursor } from '../paging.js';
import type { DeliveryListInput } from '../requests/queries.js';
import type { DeliverySender } from './sender.js';

/**
 * A partner's own webhook delivery log: GET /webhook-deliveries, redelivery and the
 * test webhook. Paging follows GET /orders: `{items, count, next_cursor}`, newest first, `limit` 1–200
 * (default 50), the same codes for a bad cursor, limit or unknown parameter.
 */
/** X-Webhook-Id: 24 hex characters. */
const DELIVERY_ID = /^[0-9a-f]{24}$/;

function attemptView(a: AttemptRow) {
  return {
    number: a.number,
    manual: a.manual,
    sent_at: offsetIso(a.sentAt),
    http_status: a.statusCode,
    error: a.error,
    duration_ms: a.durationMs,
  };
}

/** One delivery as its partner sees it; `attempts` lists every request made, oldest first. */
export function partnerDeliveryView(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    delivery_id: d.webhookId,
    event: d.event,
    order_id: d.orderId === '' ? null : d.orderId,
    url: d.url,
    status: d.status,
    attempts: attempts.map(attemptView),
    next_attempt_at: d.nextAttemptAt === null ? null : offsetIso(d.nextAttemptAt),
    rejected_reason: d.rejectedReason,
    last_error: d.lastError,
    created_at: offsetIso(d.createdAt),
  };
}

function viewOf(deps: Pick<Deps, 'db'>, webhookId: string) {
  const d = getDelivery(deps.db, webhookId)!;
  return partnerDeliveryView(d, attemptsOf(deps.db, [webhookId]));
}

export function listOwnDeliveries(deps: Pick<Deps, 'db'>, partnerId: number, { order_id: orderId, event, status, cursor: beforeEventId, limit }: DeliveryListInput) {
  const rows = listPartnerDeliveries(deps.db, { partnerId, orderId, event, status, beforeEventId, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const attempts = new Map<string, AttemptRow[]>();
  for (const a of attemptsOf(deps.db, page.map((d) => d.webhookId))) attempts.set(a.webhookId, [...(attempts.get(a.webhookId) ?? []), a]);
  return {
    items: page.map((d) => partnerDeliveryView(d, attempts.get(d.webhookId) ?? [])),
    count: page.length,
    next_cursor: rows.length > limit ? encodeCursor('w', page[page.length - 1].eventId) : null,
  };
}

/** The partner's own delivery, or 404 (unknown, malformed, or another partner's: the same answer). */
function ownDelivery(deps: Pick<Deps, 'db'>, partnerId: number, deliveryId: string): DeliveryRow {
  const d = DELIVERY_ID.test(deliveryId) ? getDelivery(deps.db, deliveryId) : undefined;
  if (!d || d.partnerId !== partnerId) fail('not_found', 'Delivery not found.');
  return d;
}

/**
 * POST /webhook-deliveries/{id}/redeliver: the same webhook again now (same body and X-Webhook-Id, the
 * current secret, the delivery's address), outside its schedule. Answers the delivery with the new attempt.
 */
export async function redeliver(deps: Pick<Deps, 'db' | 'clock'>, sender: DeliverySender, partnerId: number, deliveryId: string, opts: { actor?: string } = {}) {
  const d = ownDelivery(deps, partnerId, deliveryId);
  if (!getPartner(deps.db, partnerId)?.webhookSecretEnc) fail('webhook_not_configured', 'No webhook secret is saved: save the Webhook block first.');
  await sender.redeliver(d.webhookId);
  // a person's request (the Mini App) is audited; an API key's is in the log as a manual attempt
  if (opts.actor) audit(deps.db, deps.clock.now(), opts.actor, 'webhook.redeliver', String(partnerId), { delivery_id: d.webhookId });
  return viewOf(deps, d.webhookId);
}

/**
 * POST /webhook/test: a signed `webhook.test` event to the saved address, sent once now under the same
 * address checks as every webhook, never retried. Answers the delivery it made; 409 webhook_not_configured
 * until both an address and a secret are saved.
 */
export async function sendTestWebhook(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'secrets'>, sender: DeliverySender, partnerId: number, opts: { actor?: string } = {}) {
  const p = getPartner(deps.db, partnerId);
  if (!p?.webhookUrl || !p.webhookSecretEnc) fail('webhook_not_configured');
  const webhookId = deps.ids.hex(12);
  const body = webhookBody(TEST_EVENT, null, { partner_id: partnerId, created_at: offsetIso(deps.clock.now()) });
  await sender.sendTest({ partnerId, webhookId, event: TEST_EVENT, url: p.webhookUrl, body, secret: deps.secrets.tryOpen(p.webhookSecretEnc) });
  if (opts.actor) audit(deps.db, deps.clock.now(), opts.actor, 'webhook.test', String(partnerId), { delivery_id: webhookId });
  return viewOf(deps, webhookId);
}
