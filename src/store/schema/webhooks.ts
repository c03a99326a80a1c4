import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The outbox of order events and the webhook deliveries made from it. */

/** The outbox: every event an order transition produced, written in the transition's transaction. */
export const events = sqliteTable(
  'events',
  {
    eventId: integer('event_id').primaryKey({ autoIncrement: true }),
    partnerId: integer('partner_id').notNull(),
    /** '' for an event without an order (`webhook.test`); its body says `"order_id": null`. */
    orderId: text('order_id').notNull(),
    event: text('event').notNull(),
    /** The exact webhook body, serialised once at the moment of the event. */
    body: text('body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('events_order').on(t.orderId)],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    webhookId: text('webhook_id').primaryKey(),
    /** One delivery per event, so the event id orders deliveries by creation (the partner log's cursor). */
    eventId: integer('event_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    /** '' for an event without an order (`webhook.test`). */
    orderId: text('order_id').notNull(),
    event: text('event').notNull(),
    url: text('url').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    /** Scheduled attempts made (the retry schedule counts these only). */
    attempts: integer('attempts').notNull().default(0),
    /** Manual redeliveries made (POST /webhook-deliveries/{id}/redeliver): outside the schedule. */
    manualAttempts: integer('manual_attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    rejectedReason: text('rejected_reason'),
    nextAttemptAt: integer('next_attempt_at'),
    /** DNS failures in a row (they use no attempt; too many end the delivery): durable across restarts. */
    dnsDeferrals: integer('dns_deferrals').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_order').on(t.orderId),
    index('webhook_deliveries_status').on(t.status),
    index('webhook_deliveries_partner_event').on(t.partnerId, t.eventId),
  ],
);

/**
 * Every request made for a delivery (partner GET /webhook-deliveries), written in the transaction that
 * records the attempt's outcome. `number` is the X-Webhook-Attempt sent: scheduled and manual requests
 * count together.
 */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    attemptId: integer('attempt_id').primaryKey({ autoIncrement: true }),
    webhookId: text('webhook_id').notNull(),
    number: integer('number').notNull(),
    manual: integer('manual', { mode: 'boolean' }).notNull(),
    /** When the request was sent (service clock; its X-Timestamp). */
    sentAt: integer('sent_at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    /** Real elapsed time of the exchange, null when no request was made (address refused, DNS failure). */
    durationMs: integer('duration_ms'),
  },
  (t) => [index('webhook_attempts_delivery').on(t.webhookId, t.attemptId)],
);

/** Hosts whose DNS answer pointed into a private network at delivery time (partner-api.md rule 8). */
export const blockedWebhookHosts = sqliteTable('blocked_webhook_hosts', {
  host: text('host').primaryKey(),
  reason: text('reason').notNull(),
  createdAt: integer('created_at').notNull(),
});
