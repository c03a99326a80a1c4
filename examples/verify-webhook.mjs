// verify-webhook.mjs
import crypto from 'node:crypto';

const TOLERANCE_SECONDS = 300;

function header(headers, name) {
  const v = headers[name.toLowerCase()]; // Node lower-cases incoming header names
  return Array.isArray(v) ? v[0] : v;
}

function hmacHex(secret, ...parts) {
  const h = crypto.createHmac('sha256', secret);
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** Constant-time comparison of an expected hex digest with the received header value. */
function sameDigest(expectedHex, received) {
  if (typeof received !== 'string' || !/^[0-9a-f]{64}$/i.test(received)) return false;
  return crypto.timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(received, 'hex'));
}

/** v1: X-Signature = HMAC-SHA256(secret, raw body). `rawBody` is a Buffer of the bytes as received. */
export function verifySignatureV1(secret, rawBody, signature) {
  return sameDigest(hmacHex(secret, rawBody), signature);
}

/** v2: X-Signature-V2 = HMAC-SHA256(secret, X-Timestamp + "." + raw body). */
export function verifySignatureV2(secret, timestamp, rawBody, signature) {
  return sameDigest(hmacHex(secret, `${timestamp}.`, rawBody), signature);
}

/**
 * Checks the timestamp (300 s window) and both signatures over the raw bytes, then parses the body.
 * Throws when anything is wrong.
 */
export function verifyWebhook(secret, headers, rawBody, nowMs = Date.now()) {
  const ts = header(headers, 'x-timestamp');
  if (typeof ts !== 'string' || !/^\d{1,12}$/.test(ts)) throw new Error('missing or malformed X-Timestamp');
  if (Math.abs(Math.floor(nowMs / 1000) - Number(ts)) > TOLERANCE_SECONDS) throw new Error('X-Timestamp outside the 300 s window');
  if (!verifySignatureV2(secret, ts, rawBody, header(headers, 'x-signature-v2'))) throw new Error('bad X-Signature-V2');
  if (!verifySignatureV1(secret, rawBody, header(headers, 'x-signature'))) throw new Error('bad X-Signature');
  return JSON.parse(rawBody.toString('utf8')); // parse only after the bytes are verified
}

/**
 * A node:http (or Express without a body parser on this route) handler: reads the raw body, verifies
 * it, drops duplicates by X-Webhook-Id and answers 204. `onEvent(event, webhookId)` does your work;
 * if it throws, the answer is 500 and the service retries later.
 * `seen` must be durable in production (e.g. a table with a unique key on the webhook id).
 */
export function webhookHandler({ secret, onEvent, seen = new Set(), now = () => Date.now() }) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let event;
      try {
        event = verifyWebhook(secret, req.headers, raw, now());
      } catch {
        res.writeHead(401).end();
        return;
      }
      const id = header(req.headers, 'x-webhook-id');
      if (seen.has(id)) {
        res.writeHead(204).end(); // already handled: acknowledge, do nothing
        return;
      }
      try {
        await onEvent(event, id);
        seen.add(id);
        res.writeHead(204).end();
      } catch {
        res.writeHead(500).end();
      }
    });
  };
}
