import crypto from 'node:crypto';
import { pythonStyleJson } from './python-style-json.js';

/** Webhook bodies and signatures (partner-api.md "Events"). `orderId` is null for an event without an order (webhook.test). */
export function webhookBody(event: string, orderId: string | null, data: Record<string, unknown>): string {
  return pythonStyleJson({ event, order_id: orderId, data });
}

export function signV1(secret: string, rawBody: string): string {
  return crypto.createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

export function signV2(secret: string, timestamp: string, rawBody: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody, 'utf8').digest('hex');
}

/** Every header of the contract's table for one attempt. */
export function webhookHeaders(args: {
  secret: string;
  body: string;
  timestamp: number;
  event: string;
  webhookId: string;
  attempt: number;
}): Record<string, string> {
  const ts = String(args.timestamp);
  return {
    'X-Signature': signV1(args.secret, args.body),
    'X-Timestamp': ts,
    'X-Signature-V2': signV2(args.secret, ts, args.body),
    'X-Signature-Version': '2',
    'X-Webhook-Event': args.event,
    'X-Webhook-Id': args.webhookId,
    'X-Webhook-Attempt': String(args.attempt),
  };
}
