import type { EventBus } from '../kernel/event-bus.js';
import type { Logger } from '../kernel/log.js';
import type { OpsEvent } from '../kernel/ops-events.js';

/**
 * One JSON log line per order and per webhook delivery state change, with their ids, written after the
 * commit. Ids, types, statuses and reasons only: never bodies, URLs with credentials, keys or secrets.
 */
export function logStateChanges(bus: EventBus, log: Logger): () => void {
  const on = (e: OpsEvent) => {
    switch (e.kind) {
      case 'order_created':
        log.info({ order_id: e.orderId, partner_id: e.partnerId, type: e.type, status: e.status }, 'order created');
        return;
      case 'order_state':
        log.info({ order_id: e.orderId, partner_id: e.partnerId, type: e.type, from: e.from, status: e.to, refunded: e.refunded, ...(e.reason ? { reason: e.reason } : {}) }, 'order state');
        return;
      case 'webhook_state':
        log.info({ webhook_id: e.webhookId, order_id: e.orderId, partner_id: e.partnerId, event: e.event, status: e.status, attempt: e.attempt, outcome: e.outcome, ...(e.detail ? { detail: e.detail } : {}), ...(e.manual ? { manual: true } : {}) }, 'webhook state');
        return;
      default:
        return;
    }
  };
  bus.on('ops', on);
  return () => bus.off('ops', on);
}
