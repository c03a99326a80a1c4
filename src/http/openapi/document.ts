import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../../domain/errors.js';
import { partnerSchemas } from '../schemas/partner.js';
// registers its schemas in partnerSchemas
import '../schemas/webhook-log.js';
import { PARTNER_ENDPOINTS } from '../partner/index.js';
import { endpointParameters, type Endpoint } from '../route.js';

/**
 * The OpenAPI 3.0.3 description of the partner API, generated from the zod schemas in
 * src/http/schemas/partner.ts and the endpoint entries that sit next to each route in src/http/partner/.
 */
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function stripIds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripIds);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== '$id') out[k] = stripIds(x);
    return out;
  }
  return v;
}

function componentSchemas(): Record<string, unknown> {
  const out = z.toJSONSchema(partnerSchemas, { target: 'openapi-3.0', uri: (id) => `#/components/schemas/${id}`, io: 'output' }) as { schemas: Record<string, unknown> };
  return stripIds(out.schemas) as Record<string, unknown>;
}

/** The codes whose bodies add fields, and the component schema of each (src/http/schemas/partner.ts). */
const TYPED_ERRORS: Partial<Record<ErrorCode, string>> = {
  insufficient_balance: 'InsufficientBalanceError',
  price_changed: 'PriceChangedError',
  bad_quantity: 'BadQuantityError',
  bad_param: 'BadParamError',
  bad_attr: 'BadParamError',
  bad_webhook_url: 'BadWebhookUrlError',
  product_unavailable: 'ProductUnavailableError',
  resolver_error: 'ResolverError',
  rate_limited: 'RateLimitedError',
  validation_error: 'ValidationError',
  storage_unavailable: 'StorageUnavailableError',
};

/** The codes that send `Retry-After` (with `retry_after` in the body). */
const RETRY_AFTER: readonly ErrorCode[] = ['rate_limited', 'product_unavailable', 'resolver_error', 'storage_unavailable'];

/** An error body of codes that add no field: exactly `{code, detail}` (flat) or `{detail: {code, detail}}` (nested). */
function plainError(codes: ErrorCode[], format: 'flat' | 'nested') {
  const inner = {
    type: 'object',
    required: ['code', 'detail'],
    properties: { code: { type: 'string', enum: codes }, detail: { type: 'string' } },
    additionalProperties: false,
  };
  return format === 'flat' ? inner : { type: 'object', required: ['detail'], properties: { detail: inner }, additionalProperties: false };
}

/**
 * The error answers of an operation by status: one schema per body shape (a typed schema for each code
 * with extra fields, one plain schema per format for the rest, told apart by `code`), in a `oneOf` when a
 * status has several.
 */
function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERRORS[c].status, [...(byStatus.get(ERRORS[c].status) ?? []), c]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    const typed = [...new Set(list.map((c) => TYPED_ERRORS[c]).filter((x): x is string => x !== undefined))].map(ref);
    const plainFlat = list.filter((c) => !TYPED_ERRORS[c] && ERRORS[c].format === 'flat');
    const plainNested = list.filter((c) => !TYPED_ERRORS[c] && ERRORS[c].format === 'nested');
    const schemas = [...typed, ...(plainFlat.length ? [plainError(plainFlat, 'flat')] : []), ...(plainNested.length ? [plainError(plainNested, 'nested')] : [])];
    const examples: Record<string, unknown> = {};
    for (const c of list) {
      const inner = { code: c, detail: ERRORS[c].detail, ...EXTRA_EXAMPLE[c] };
      examples[c] = { summary: `${c} (${ERRORS[c].format})`, value: ERRORS[c].format === 'flat' ? inner : { detail: inner, ...EXTRA_EXAMPLE[c] } };
    }
    const retrying = list.filter((c) => RETRY_AFTER.includes(c));
    const retry = retrying.length
      ? {
          'Retry-After': {
            description: `Seconds before a sensible retry, the same as \`retry_after\` in the body (${retrying.join(', ')}${retrying.includes('product_unavailable') ? '; product_unavailable with reason upstream_unavailable' : ''}).`,
            schema: { type: 'integer' },
          },
        }
      : {};
    // every answer to an authenticated request carries the key's budget; a 401 has no key
    const headers = status === 401 ? (retrying.length ? retry : undefined) : { ...retry, ...RATE_LIMIT_HEADERS };
    out[String(status)] = {
      description: list.map((c) => `\`${c}\` (${ERRORS[c].format}): ${ERRORS[c].detail}`).join('\n\n'),
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas }, examples } },
    };
  }
  return out;
}

/** The RateLimit-* headers of the key's general budget (API_RATE_LIMIT / API_RATE_BURST token bucket). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'The key\'s general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the budget now (0 on a 429 of scope key).', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the budget is full again (0 when it is).', schema: { type: 'integer' } },
};

const EXTRA_EXAMPLE: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  insufficient_balance: { currency: 'USD', balance: '3.20' },
  price_changed: { current_price: '15.750', currency: 'TON' },
  bad_quantity: { min: 50, max: 50000 },
  bad_param: { param: 'color' },
  bad_attr: { param: 'attr_rarity' },
  product_unavailable: { reason: 'upstream_unavailable', retry_after: 30 },
  resolver_error: { retry_after: 30 },
  bad_webhook_url: { reason: 'private_host' },
  validation_error: { field: 'client_reference' },
  storage_unavailable: { reason: 'disk_full' },
  rate_limited: { scope: 'key', limit: 120, window_seconds: 60, retry_after: 1 },
};

/** What every operation can answer: authentication, the key's budget, a URL that cannot be decoded, a route that does not exist, a fault. */
const EVERY_OPERATION: readonly ErrorCode[] = ['bad_request', 'unauthorized', 'ip_not_allowed', 'partner_inactive', 'partner_program_unavailable', 'route_not_found', 'rate_limited', 'internal_error'];
/** What every POST can answer: its body is parsed as JSON (whether the operation reads one or not), and it writes. */
const EVERY_POST: readonly ErrorCode[] = ['bad_json', 'payload_too_large', 'unsupported_media_type', 'storage_unavailable'];

/** Any other error (a code a later version adds): one of the two formats, told apart by the type of `detail`. */
const DEFAULT_ERROR = {
  headers: RATE_LIMIT_HEADERS,
  description: 'Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root.',
  content: { 'application/json': { schema: { oneOf: [ref('FlatError'), ref('NestedError')] } } },
};

function operation(e: Endpoint) {
  const codes: ErrorCode[] = [...EVERY_OPERATION, ...e.errors, ...(e.method === 'post' ? EVERY_POST : [])];
  return {
    operationId: e.operationId,
    summary: e.summary,
    description: e.description,
    tags: [e.tag],
    ...(endpointParameters(e).length ? { parameters: endpointParameters(e) } : {}),
    ...(e.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(e.body), ...(e.bodyExamples ? { examples: e.bodyExamples } : {}) } } } }
      : {}),
    responses: {
      '200': e.csv
        ? {
            description: e.okDescription,
            headers: { ...RATE_LIMIT_HEADERS, 'Content-Disposition': { description: 'attachment; filename="…csv"', schema: { type: 'string' } } },
            content: { 'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV in UTF-8: a header line, CRLF line ends, fields quoted when they hold a comma, quote or line break' }, example: e.csv.example } },
          }
        : { description: e.okDescription, headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ref(e.response!), ...(e.responseExample ? { example: e.responseExample } : {}) } } },
      ...errorResponses([...new Set(codes)]),
      default: DEFAULT_ERROR,
    },
    ...(e.callbacks ? { callbacks: webhookCallbacks(e.callbacks) } : {}),
  };
}

/** The body schema of each webhook event. */
const EVENT_SCHEMAS: Record<string, string> = {
  'order.completed': 'OrderEvent',
  'order.failed': 'OrderEvent',
  'order.refunded': 'RefundEvent',
  'webhook.test': 'TestEvent',
  'balance.low': 'BalanceLowEvent',
};

/** When each event is sent (the rest of a callback's description is common). */
const EVENT_SENT: Record<string, string> = {
  order:
    'Sent to the order\'s webhook_url, else the dashboard address, once both an address and a secret exist and the event is in the Webhook block\'s `events` (by default the three order events). A failure is retried after 1 min, 5 min, 30 min, 2 h, 6 h (6 attempts).',
  'balance.low':
    'Opt-in: sent only when the Webhook block\'s `events` lists `balance.low` (the default list does not), to the Webhook block\'s address (never an order\'s webhook_url), when an order\'s debit takes a balance below its low-balance alert threshold (set by the owners in the bot, /alerts, or by support); not again until a debit finds the balance back at or above it. Retried like the order events.',
  'webhook.test': 'Sent once to the Webhook block\'s address by POST /webhook/test, signed like every webhook, never retried. `order_id` is null.',
};

/** Webhook events as OpenAPI 3.0 `callbacks` (3.0.3 has no top-level `webhooks`): the order events on POST /orders. */
function webhookCallbacks(events: string[]) {
  const headers = [
    ['X-Signature', 'hex HMAC-SHA256 of the raw body with webhook_secret'],
    ['X-Timestamp', 'send time, unix seconds, new for each attempt'],
    ['X-Signature-V2', 'hex HMAC-SHA256 of `X-Timestamp + "." + raw body` with webhook_secret'],
    ['X-Signature-Version', '2'],
    ['X-Webhook-Event', 'the event kind, as `event` in the body'],
    ['X-Webhook-Id', '24 hex characters, the same on every retry of one webhook (and on a manual redelivery)'],
    ['X-Webhook-Attempt', '1, 2, …: the 6 scheduled attempts, and manual redeliveries counted with them'],
  ].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));
  const cb = (event: string, schema: string) => ({
    // (a test webhook goes to the Webhook block's address; the key is the same so tools find every event alike)
    '{$request.body#/webhook_url}': {
      post: {
        summary: `${event} webhook`,
        description: `${EVENT_SENT[event] ?? EVENT_SENT.order} The body has a space after ":" and "," and non-ASCII unescaped: verify the signature over the raw bytes. Any 2xx within 10 s is delivered. Redirects are not followed.`,
        parameters: headers,
        requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
        responses: {
          '200': { description: 'Any 2xx: delivered (the body is not read).' },
          '4XX': { description: 'A failure, as is any answer other than 2xx (5xx, a redirect, a timeout, a refused connection): retried on the schedule.' },
        },
      },
    },
  });
  return Object.fromEntries(events.map((e) => [e, cb(e, EVENT_SCHEMAS[e])]));
}

export function buildOpenApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of PARTNER_ENDPOINTS) {
    paths[e.path] ??= {};
    paths[e.path][e.method] = operation(e);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Partner Ordering API',
      version: '1.0',
      // no open licence: the document is for partners; its url (relative to the server) is the documentation
      license: { name: 'Proprietary: for partners of the service, under their partner agreement', url: '/docs' },
      description: [
        'Wholesale, prepaid ordering of Telegram Stars, Premium and collectible NFT gifts.',
        '',
        '**Errors** come in two formats: order-processing errors are flat `{code, detail}`; request-level errors (authentication, rate limit, unknown type, missing idempotency_key, malformed JSON) nest it: `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root.',
        '',
        '**Unknown fields** in a request body (at the root or in `params`) are accepted and ignored, so that a client written for a later version keeps working; the request schemas say so by not forbidding additional properties. The idempotency comparison covers `type`, `params` as sent (unknown fields in it included: the same `idempotency_key` with other `params` is `idempotency_key_reuse`) and `webhook_url`.',
        '',
        '**Retry-After** (seconds, the same as `retry_after` in the body) comes with 429 `rate_limited`, 502 `resolver_error` and 503 `product_unavailable` with reason `upstream_unavailable`.',
        '',
        '**Webhooks** are described as `callbacks` on `POST /orders` (the order events and the opt-in `balance.low`) and on `POST /webhook/test` (`webhook.test`); OpenAPI 3.0.3 has no top-level `webhooks`. The Webhook block (set in the dashboard, the bot\'s /webhook or by support) has an `events` list, by default the three order events, so a receiver never gets a kind it did not ask for.',
        '',
        '**Choices this service makes where the contract is open:** `GET /orders` answers `{items, count, next_cursor}`, newest first, `limit` 1–200 (default 50), `from`/`to` as ISO 8601 date or date-time (offset optional) or unix seconds, unknown query parameters 400 `bad_param`; `GET /nft/gifts` page size `limit` 1–100 (default 20), attribute filters `model`, `backdrop`, `symbol` (also `attr_model` …), an unknown `attr_*` is 400 `bad_attr`, other unknown parameters are ignored and listed in `ignored_params`; `POST /validate/recipient` answers `{ok, type, username, name, already_premium?, can_receive_gifts?}`; `POST /validate/game` answers `{ok, username, found, name}`; `GET /nft/collections` answers `{currency, items: [{collection, name, count, floor_price_ton, floor_partner_price, currency}], count}`.',
      ].join('\n'),
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Account', description: 'Balances and prices' },
      { name: 'Orders', description: 'Creating and reading orders' },
      { name: 'Validation', description: 'Checking recipients before ordering' },
      { name: 'NFT', description: 'The gift catalog' },
      { name: 'Webhooks', description: 'The delivery log, redelivery and test webhooks' },
    ],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'The partner API key, `pk_live_…`' } },
      schemas: componentSchemas(),
    },
  };
}
