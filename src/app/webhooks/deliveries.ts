import { fail } from '../../domain/errors.js';
import { offsetIso } from '../../domain/time-format.js';
import { listDeliveryRows, type DeliveryFilter, type DeliveryRow } from '../../store/webhooks-repo.js';
import type { Deps } from '../deps.js';

export function deliveryView(d: DeliveryRow) {
  return {
    webhook_id: d.webhookId,
    event: d.event,
    order_id: d.orderId,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    rejected_reason: d.rejectedReason,
    next_attempt_at: d.nextAttemptAt === null ? null : offsetIso(d.nextAttemptAt),
    created_at: offsetIso(d.createdAt),
  };
}

/** GET /webhook-deliveries (operator): newest first, at most 500. */
export function listDeliveries(deps: Pick<Deps, 'db'>, q: Record<string, unknown>) {
  const f: DeliveryFilter = {};
  if (q.order_id !== undefined) {
    if (typeof q.order_id !== 'string') fail('bad_param', 'order_id must be given once.');
    f.orderId = q.order_id;
  }
  if (q.status !== undefined) {
    if (q.status !== 'pending' && q.status !== 'delivered' && q.status !== 'failed') fail('bad_param', 'status must be pending, delivered or failed.');
    f.status = q.status;
  }
  if (q.partner_id !== undefined) {
    if (typeof q.partner_id !== 'string' || !/^\d+$/.test(q.partner_id)) fail('bad_param', 'partner_id must be a number.');
    f.partnerId = Number(q.partner_id);
  }
  return { items: listDeliveryRows(deps.db, f, 500).map(deliveryView) };
}
