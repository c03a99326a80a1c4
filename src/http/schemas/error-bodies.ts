import { z } from 'zod';
import { reg, tonAmt } from './fields.js';

/** The bodies of errors: the two formats, and one schema for each code that adds fields. */

export const ErrorObject = reg(
  'ErrorObject',
  z.looseObject({
    code: z.string(),
    detail: z.string(),
  }),
  'An error: a machine code and a human text. Some codes add fields (insufficient_balance: currency and balance; price_changed: current_price; product_unavailable and bad_webhook_url: reason; rate_limited: scope, limit, window_seconds, retry_after).',
);
export const FlatError = reg(
  'FlatError',
  z.looseObject({ code: z.string(), detail: z.string() }),
  'Order-processing errors: `{code, detail, ...}` at the root.',
  { code: 'insufficient_balance', detail: 'The USD balance is too low for this order.', currency: 'USD', balance: '3.20' },
);
export const NestedError = reg(
  'NestedError',
  z.looseObject({ detail: ErrorObject }),
  'Request-level errors (authentication, rate limit, unknown type, missing idempotency_key, malformed request, unknown route): the error object nested in `detail`. Its extra fields are repeated at the root.',
  { detail: { code: 'unauthorized', detail: 'Missing or invalid API key.' } },
);

/** The error body shapes of the codes that add fields; each code gets its own schema (document.ts uses them). */
const flatErr = <C extends string, S extends z.ZodRawShape>(code: C, extra: S) => z.object({ code: z.literal(code), detail: z.string(), ...extra });
export const InsufficientBalanceError = reg(
  'InsufficientBalanceError',
  flatErr('insufficient_balance', { currency: z.enum(['USD', 'TON']), balance: z.string().regex(/^-?\d+\.\d{2,3}$/).meta({ description: 'the balance of that currency now (2 decimals USD, 3 TON)' }) }),
  '402 insufficient_balance: the balance the order needed, and what it holds.',
);
export const PriceChangedError = reg('PriceChangedError', flatErr('price_changed', { current_price: tonAmt.meta({ description: 'the partner price of the gift now' }), currency: z.literal('TON') }), '409 price_changed: the gift costs more than max_price.');
export const BadQuantityError = reg('BadQuantityError', flatErr('bad_quantity', { min: z.number().int(), max: z.number().int() }), '400 bad_quantity: the bounds of a Stars order.');
export const BadParamError = reg(
  'BadParamError',
  z.object({ code: z.enum(['bad_param', 'bad_attr']), detail: z.string(), param: z.string().meta({ description: 'the query parameter at fault' }) }),
  '400 bad_param / bad_attr: names the query parameter.',
);
export const BadWebhookUrlError = reg(
  'BadWebhookUrlError',
  flatErr('bad_webhook_url', { reason: z.enum(['bad_url', 'bad_scheme', 'bad_host', 'bad_port', 'credentials_in_url', 'private_host', 'too_long']) }),
  '400 bad_webhook_url: the machine reason.',
);
export const ProductUnavailableError = reg(
  'ProductUnavailableError',
  flatErr('product_unavailable', {
    reason: z.enum(['upstream_unavailable', 'product_disabled']),
    retry_after: z.number().int().optional().meta({ description: 'upstream_unavailable: seconds before a sensible retry (also the Retry-After header)' }),
  }),
  '503 product_unavailable: `upstream_unavailable` (with retry_after and Retry-After) or `product_disabled`.',
);
export const ResolverError = reg(
  'ResolverError',
  flatErr('resolver_error', { retry_after: z.number().int().meta({ description: 'seconds before a sensible retry (also the Retry-After header)' }) }),
  '502 resolver_error: recipient resolution failed; retry later.',
);
export const ValidationError = reg(
  'ValidationError',
  flatErr('validation_error', { field: z.string().optional().meta({ description: 'the body field at fault, when one is (for example client_reference)' }) }),
  '400 validation_error: the request body is invalid; `field` names the field when one is at fault.',
);
const storageReason = z.enum(['disk_full', 'io_error', 'read_only', 'busy']).meta({ description: 'what the database answered' });
export const StorageUnavailableError = reg(
  'StorageUnavailableError',
  z.object({ detail: z.object({ code: z.literal('storage_unavailable'), detail: z.string(), reason: storageReason }), reason: storageReason }),
  '503 storage_unavailable (nested): the database cannot take a write now; nothing was written, retry after Retry-After seconds. Its reason is repeated at the root.',
);
const rateLimitFields = {
  scope: z.enum(['key', 'validate_recipient', 'nft_catalog', 'nft_orders', 'wait', 'not_found']).meta({ description: 'not_found: unknown URLs, counted per client address with the budget of a key' }),
  limit: z.number().int().meta({ description: 'requests per window_seconds; for scope wait: the waiting requests a key may have open at once (window_seconds is then the longest wait)' }),
  window_seconds: z.number().int(),
  retry_after: z.number().int().meta({ description: 'seconds; also the Retry-After header' }),
};
export const RateLimitedError = reg(
  'RateLimitedError',
  z.object({ detail: z.object({ code: z.literal('rate_limited'), detail: z.string(), ...rateLimitFields }), ...rateLimitFields }),
  '429 rate_limited (nested): the limit that was hit; its fields are repeated at the root.',
  { detail: { code: 'rate_limited', detail: 'Rate limit exceeded for scope key. Retry in 1 s.', scope: 'key', limit: 120, window_seconds: 60, retry_after: 1 }, scope: 'key', limit: 120, window_seconds: 60, retry_after: 1 },
);
