import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signV1, signV2, webhookBody, webhookHeaders } from '../../src/domain/webhook-signing.js';

/**
 * partner-api.md Events, "Request made by the service": X-Signature is the hex HMAC-SHA256 of the raw body
 * with webhook_secret; X-Signature-V2 the hex HMAC-SHA256 of "<X-Timestamp>.<raw body>"; the body has a
 * space after ':' and ',' and non-ASCII characters as UTF-8 without escaping (Python's
 * json.dumps(..., ensure_ascii=False)). Expected signatures are computed here with node:crypto on the
 * UTF-8 bytes; expected bodies were produced with Python's json.dumps(ensure_ascii=False).
 */
const hmacHex = (secret: string, bytes: Buffer) => crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(bytes).digest('hex');

const SECRET = 'whsec_3f9a1c0e7b2d4a6f8e1c3b5d7f9a0c2e';
const BODIES = [
  ['ASCII', '{"event": "order.completed", "order_id": "PA-1", "data": {}}'],
  ['Cyrillic and emoji', '{"event": "order.completed", "order_id": "PA-2", "data": {"label": "100 звёзд Telegram для @star_buyer", "x": "⭐"}}'],
  ['empty', ''],
] as const;

describe('signV1', () => {
  it('matches the RFC 4231 HMAC-SHA256 test vector (test case 2)', () => {
    expect(signV1('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it.each(BODIES)('%s body: HMAC-SHA256 of the UTF-8 bytes, lowercase hex', (_name, body) => {
    const sig = signV1(SECRET, body);
    expect(sig).toBe(hmacHex(SECRET, Buffer.from(body, 'utf8')));
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
  });

  it('depends on the secret: a regenerated secret gives another signature', () => {
    expect(signV1(SECRET, BODIES[0][1])).not.toBe(signV1(`${SECRET}x`, BODIES[0][1]));
  });
});

describe('signV2', () => {
  it.each(BODIES.flatMap(([name, body]) => [
    [name, '1700000000', body],
    [name, '1', body],
  ]))('%s body at %s: HMAC-SHA256 of "timestamp.body"', (_name, ts, body) => {
    expect(signV2(SECRET, ts, body)).toBe(hmacHex(SECRET, Buffer.from(`${ts}.${body}`, 'utf8')));
  });

  it('differs per timestamp ("different for each attempt") and from the v1 signature', () => {
    const body = BODIES[1][1];
    expect(signV2(SECRET, '1700000000', body)).not.toBe(signV2(SECRET, '1700000060', body));
    expect(signV2(SECRET, '1700000000', body)).not.toBe(signV1(SECRET, body));
  });
});

describe('webhookHeaders: the headers table of the contract, for one attempt', () => {
  it.each([
    ['order.completed', 'a1b2c3d4e5f60718293a4b5c', 1, 1_700_000_000],
    ['order.refunded', '0123456789abcdef01234567', 3, 1_700_003_600],
    ['webhook.test', 'ffffffffffffffffffffffff', 1, 1],
  ])('%s, id %s, attempt %d, at %d', (event, webhookId, attempt, timestamp) => {
    const body = BODIES[1][1];
    const h = webhookHeaders({ secret: SECRET, body, timestamp, event, webhookId, attempt });
    expect(h).toEqual({
      'X-Signature': hmacHex(SECRET, Buffer.from(body, 'utf8')),
      'X-Timestamp': String(timestamp),
      'X-Signature-V2': hmacHex(SECRET, Buffer.from(`${timestamp}.${body}`, 'utf8')),
      'X-Signature-Version': '2',
      'X-Webhook-Event': event,
      'X-Webhook-Id': webhookId,
      'X-Webhook-Attempt': String(attempt),
    });
  });

  it('a receiver that re-serialises the JSON gets another signature (hence "over the raw body")', () => {
    const body = BODIES[1][1];
    const h = webhookHeaders({ secret: SECRET, body, timestamp: 1, event: 'order.completed', webhookId: 'a'.repeat(24), attempt: 1 });
    expect(hmacHex(SECRET, Buffer.from(JSON.stringify(JSON.parse(body)), 'utf8'))).not.toBe(h['X-Signature']);
    expect(hmacHex(SECRET, Buffer.from(body, 'utf8'))).toBe(h['X-Signature']);
  });
});

describe('webhookBody: {event, order_id, data} laid out as Python json.dumps(ensure_ascii=False)', () => {
  it.each([
    [
      'order.refunded',
      'PA-17',
      { order_id: 'PA-17', refund_amount: 1.58, reason: 'stars_failed', currency: 'USD', client_reference: null },
      '{"event": "order.refunded", "order_id": "PA-17", "data": {"order_id": "PA-17", "refund_amount": 1.58, "reason": "stars_failed", "currency": "USD", "client_reference": null}}',
    ],
    [
      'order.completed',
      'pa_0b6f3c1e-8a3d-4f7e-9c2a-5d1e2f3a4b5c',
      { label: '100 звёзд Telegram для @star_buyer', gift: null, tags: ['a', 1, true, false, { x: '⭐' }], empty: {}, list: [] },
      '{"event": "order.completed", "order_id": "pa_0b6f3c1e-8a3d-4f7e-9c2a-5d1e2f3a4b5c", "data": {"label": "100 звёзд Telegram для @star_buyer", "gift": null, "tags": ["a", 1, true, false, {"x": "⭐"}], "empty": {}, "list": []}}',
    ],
    [
      'webhook.test',
      null,
      { partner_id: 7, created_at: '2026-03-01T12:00:00.000000+00:00' },
      '{"event": "webhook.test", "order_id": null, "data": {"partner_id": 7, "created_at": "2026-03-01T12:00:00.000000+00:00"}}',
    ],
    [
      'order.failed',
      'PA-3',
      { q: 'say "hi"\\ \n\t\u0001 /', u: '\u2028' },
      '{"event": "order.failed", "order_id": "PA-3", "data": {"q": "say \\"hi\\"\\\\ \\n\\t\\u0001 /", "u": "\u2028"}}',
    ],
  ])('%s %s', (event, orderId, data, body) => {
    expect(webhookBody(event, orderId, data)).toBe(body);
  });
});
