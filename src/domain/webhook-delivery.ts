import { nextAttemptDelay } from './webhook-retry-schedule.js';

/**
 * Webhook event kinds and the rules of a delivery's state after one attempt (pure).
 *
 * The schedule (partner-api.md Emission rule 3) counts scheduled attempts only: a manual redelivery
 * (POST /webhook-deliveries/{id}/redeliver) is an extra request outside it.
 */
export const ORDER_EVENTS = ['order.completed', 'order.failed', 'order.refunded'] as const;
/** Sent only to partners that listed it in their Webhook block's `events`. */
export const OPT_IN_EVENTS = ['balance.low'] as const;
/** Sent only on request (POST /webhook/test), never on a schedule or to the `events` list. */
export const TEST_EVENT = 'webhook.test';
export const WEBHOOK_EVENTS = [...ORDER_EVENTS, ...OPT_IN_EVENTS, TEST_EVENT] as const;

export type OrderEvent = (typeof ORDER_EVENTS)[number];
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function isWebhookEvent(v: unknown): v is WebhookEvent {
  return typeof v === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(v);
}

export function isDeliveryStatus(v: unknown): v is DeliveryStatus {
  return typeof v === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(v);
}

/**
 * After scheduled attempt number `attempt` (1-based): delivered on success; otherwise pending with the
 * delay to the next attempt, or failed when the schedule is used up. A test webhook has no schedule
 * (`retries: false`): it is sent once.
 */
export function afterScheduledAttempt(attempt: number, ok: boolean, retries: boolean): { status: DeliveryStatus; delayMs: number | null } {
  if (ok) return { status: 'delivered', delayMs: null };
  const delayMs = retries ? nextAttemptDelay(attempt) : null;
  return { status: delayMs === null ? 'failed' : 'pending', delayMs };
}

/**
 * After a manual redelivery: a pending delivery keeps its status and schedule whatever the outcome (its
 * scheduled attempts go on; receivers drop duplicates by X-Webhook-Id); a failed one that the receiver
 * now took becomes delivered; anything else is unchanged.
 */
export function afterManualAttempt(status: DeliveryStatus, ok: boolean): DeliveryStatus {
  return status === 'failed' && ok ? 'delivered' : status;
}

/** The X-Webhook-Attempt of the next request: scheduled and manual requests are counted together. */
export function nextAttemptNumber(scheduled: number, manual: number): number {
  return scheduled + manual + 1;
}

/** What the Webhook block's `events` may list. */
export const SUBSCRIBABLE_EVENTS = [...ORDER_EVENTS, ...OPT_IN_EVENTS] as const;

/** The events a partner takes: the saved list, or the three order events when none was saved. */
export function eventsTaken(saved: readonly string[] | null | undefined): readonly string[] {
  return saved ?? ORDER_EVENTS;
}

/**
 * The Webhook block's `events`: a non-empty list of known event names, kept in the canonical order without
 * duplicates; otherwise the first name that is not known ('' when the list itself is not acceptable).
 */
export function parseEventList(v: unknown): { ok: true; events: string[] } | { ok: false; bad: string | null } {
  if (!Array.isArray(v) || v.length === 0 || v.length > 20) return { ok: false, bad: null };
  for (const e of v) if (typeof e !== 'string' || !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(e)) return { ok: false, bad: String(e) };
  return { ok: true, events: SUBSCRIBABLE_EVENTS.filter((e) => v.includes(e)) };
}
