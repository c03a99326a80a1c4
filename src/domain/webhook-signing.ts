import crypto from 'node:crypto';

/**
 * Webhook bodies and signatures (partner-api.md "Events").
 *
 * The body is JSON with a space after ':' and ',' and non-ASCII characters unescaped: the layout of
 * Python's json.dumps(..., ensure_ascii=False), which existing partner receivers re-serialise against.
 * JSON.stringify has no option for that spacing, hence this small serialiser.
 */
export function serializeWebhookJson(value: unknown, opts: { sortKeys?: boolean } = {}): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error('non-finite number in webhook body');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new Error(`cannot serialise ${typeof value}`);
  }
  // string building rather than map/join: this also runs for every order request (the request fingerprint)
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ', ' : '') + serializeWebhookJson(value[i], opts);
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = opts.sortKeys ? sortedKeys(obj) : Object.keys(obj);
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    out += `${first ? '' : ', '}${JSON.stringify(k)}: ${serializeWebhookJson(v, opts)}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * The key order of the stored request fingerprints: sorted, except that array-index keys ("0", "2", "10")
 * come first in numeric order, as in any JavaScript object (the first version built a sorted object and
 * serialised it). Object.keys already lists those first, in that order; only the rest is sorted.
 */
function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  let i = 0;
  while (i < keys.length && /^(?:0|[1-9]\d{0,9})$/.test(keys[i]) && Number(keys[i]) < 4294967295) i++;
  return i === 0 ? keys.sort() : [...keys.slice(0, i), ...keys.slice(i).sort()];
}

/** `orderId` is null for an event without an order (webhook.test). */
export function webhookBody(event: string, orderId: string | null, data: Record<string, unknown>): string {
  return serializeWebhookJson({ event, order_id: orderId, data });
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

/** Delays after attempt 1..5 (partner-api.md Emission rule 3): 6 attempts in total. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When the attempt after `attemptsMade` failed attempts is due, or null when the schedule is used up. */
export function nextAttemptDelay(attemptsMade: number): number | null {
  return attemptsMade >= 1 && attemptsMade <= RETRY_DELAYS_MS.length ? RETRY_DELAYS_MS[attemptsMade - 1] : null;
}
