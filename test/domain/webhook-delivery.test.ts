import { describe, expect, it } from 'vitest';
import {
  DELIVERY_STATUSES,
  ORDER_EVENTS,
  WEBHOOK_EVENTS,
  afterManualAttempt,
  afterScheduledAttempt,
  isDeliveryStatus,
  isWebhookEvent,
  nextAttemptNumber,
} from '../../src/domain/webhook-delivery.js';

/**
 * A webhook delivery's state after each attempt: partner-api.md Events ("Kinds: order.completed,
 * order.failed, order.refunded"; Emission rule 3: 6 attempts after 1 min, 5 min, 30 min, 2 h, 6 h; any 2xx
 * counts as delivered) and operator-api.md GET /webhook-deliveries (`status` pending, delivered or failed).
 */
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('event kinds and delivery statuses', () => {
  it('the order events are the contract three', () => {
    expect([...ORDER_EVENTS].sort()).toEqual(['order.completed', 'order.failed', 'order.refunded']);
  });

  it('every kind sent is an order event, the opt-in balance.low or the webhook.test ping', () => {
    expect([...WEBHOOK_EVENTS].sort()).toEqual(['balance.low', 'order.completed', 'order.failed', 'order.refunded', 'webhook.test']);
  });

  it('delivery statuses are pending, delivered, failed', () => {
    expect([...DELIVERY_STATUSES].sort()).toEqual(['delivered', 'failed', 'pending']);
  });

  it.each([
    ['order.completed', true],
    ['order.failed', true],
    ['order.refunded', true],
    ['balance.low', true],
    ['webhook.test', true],
    ['order.created', false],
    ['ORDER.COMPLETED', false],
    ['order.completed ', false],
    ['', false],
    [null, false],
    [1, false],
  ])('isWebhookEvent(%j) → %s', (v, ok) => {
    expect(isWebhookEvent(v)).toBe(ok);
  });

  it.each([
    ['pending', true],
    ['delivered', true],
    ['failed', true],
    ['rejected', false],
    ['Pending', false],
    [undefined, false],
  ])('isDeliveryStatus(%j) → %s', (v, ok) => {
    expect(isDeliveryStatus(v)).toBe(ok);
  });
});

describe('afterScheduledAttempt', () => {
  it.each([
    // attempt, ok, retries, status, delay to the next attempt
    [1, true, true, 'delivered', null],
    [6, true, true, 'delivered', null],
    [1, false, true, 'pending', 1 * MIN],
    [2, false, true, 'pending', 5 * MIN],
    [3, false, true, 'pending', 30 * MIN],
    [4, false, true, 'pending', 2 * HOUR],
    [5, false, true, 'pending', 6 * HOUR],
    [6, false, true, 'failed', null], // "for 6 attempts in total, then the service stops"
    // the webhook.test ping has no schedule: one request
    [1, true, false, 'delivered', null],
    [1, false, false, 'failed', null],
  ] as const)('attempt %d, ok %s, retries %s → %s, next in %s ms', (attempt, ok, retries, status, delayMs) => {
    expect(afterScheduledAttempt(attempt, ok, retries)).toEqual({ status, delayMs });
  });
});

describe('afterManualAttempt (operator redelivery, outside the schedule)', () => {
  it.each([
    ['pending', true, 'pending'], // its scheduled attempts go on; receivers drop duplicates by X-Webhook-Id
    ['pending', false, 'pending'],
    ['failed', true, 'delivered'],
    ['failed', false, 'failed'],
    ['delivered', true, 'delivered'],
    ['delivered', false, 'delivered'], // a delivery that was received stays received
  ] as const)('%s, ok %s → %s', (status, ok, after) => {
    expect(afterManualAttempt(status, ok)).toBe(after);
  });
});

describe('nextAttemptNumber (X-Webhook-Attempt: 1, 2, …)', () => {
  it.each([
    [0, 0, 1],
    [1, 0, 2],
    [5, 0, 6],
    [2, 1, 4], // manual requests count too: the number never repeats
    [0, 3, 4],
  ])('%d scheduled + %d manual → %d', (scheduled, manual, next) => {
    expect(nextAttemptNumber(scheduled, manual)).toBe(next);
  });
});
