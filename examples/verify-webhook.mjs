// verify-webhook.mjs: verifying the service's webhooks in Node 18 or later, no dependencies.
//
// As a library: import { verifyWebhook, webhookHandler } from './verify-webhook.mjs'.
// As a receiver for trying webhooks on your machine (prints every verified event):
//   WEBHOOK_SECRET=whsec_… node examples/verify-webhook.mjs            # listens on 127.0.0.1:4000 (PORT)
// WEBHOOK_CLOCK_OFFSET=<seconds> judges X-Timestamp against this machine's clock plus that many seconds:
// a sandbox whose clock was advanced stamps its webhooks with its own time (GET /api/admin/v1/sandbox/clock).
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const TOLERANCE_SECONDS = 300;

function header(headers, name) {
  const v = headers[name.toLowerCase()]; // Node lower-cases incoming header names
  return Array.isArray(v) ? v[0] : v;
}

// The key is the whole secret as shown, `whsec_` prefix included.
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
 * Checks the timestamp (300 s around the reference time `nowMs`, by default this machine's clock) and both
 * signatures over the raw bytes, then parses the body. Throws when anything is wrong.
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
 * if it throws, the answer is 500 and the service retries later. `now()` is the reference time in ms.
 * `seen` must be durable in production (e.g. a table with a unique key on the webhook id).
 */
export function webhookHandler({ secret, onEvent, onRefused = () => {}, seen = new Set(), now = () => Date.now() }) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let event;
      try {
        event = verifyWebhook(secret, req.headers, raw, now());
      } catch (e) {
        onRefused(e);
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

// --- run as a program ------------------------------------------------------------------------------

/** `--check`: verifies the cases of a JSON array on stdin ({secret, headers, body_hex, now}) and prints the results. */
async function check() {
  let input = '';
  for await (const c of process.stdin) input += c;
  const results = JSON.parse(input).map(({ secret, headers, body_hex: bodyHex, now }) => {
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const raw = Buffer.from(bodyHex, 'hex');
    const out = { v1: verifySignatureV1(secret, raw, h['x-signature']), v2: verifySignatureV2(secret, h['x-timestamp'], raw, h['x-signature-v2']), ok: false, event: null, error: null };
    try {
      out.event = verifyWebhook(secret, h, raw, now * 1000).event;
      out.ok = true;
    } catch (e) {
      out.error = e.message;
    }
    return out;
  });
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

function serve() {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    process.stderr.write('Set WEBHOOK_SECRET to the secret the dashboard showed (whsec_…).\n');
    process.exit(2);
  }
  const offsetMs = Number(process.env.WEBHOOK_CLOCK_OFFSET ?? 0) * 1000;
  const port = Number(process.env.PORT ?? 4000);
  const handler = webhookHandler({
    secret,
    now: () => Date.now() + offsetMs,
    onEvent: (event, id) => console.log(`verified ${event.event} ${event.order_id ?? '-'} (X-Webhook-Id ${id})`),
    onRefused: (e) => console.log(`refused: ${e.message}`),
  });
  http.createServer(handler).listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/webhook`));
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  if (process.argv[2] === '--check') await check();
  else serve();
}
