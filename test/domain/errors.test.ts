import { describe, expect, it } from 'vitest';
import { ApiError, ERRORS, errorBody, fail, failUpstreamUnavailable, type ErrorCode } from '../../src/domain/errors.js';

/**
 * The error table against partner-api.md "Errors" (and operator-api.md): HTTP status per code, and the two
 * body formats: order-processing errors flat `{code, detail}`; request-level errors (authentication, rate
 * limit, unknown type, missing idempotency_key) nested `{detail: {code, detail}}`.
 */
const CONTRACT: [ErrorCode, number, 'flat' | 'nested'][] = [
  // partner-api.md error table: request level (nested)
  ['unauthorized', 401, 'nested'],
  ['ip_not_allowed', 403, 'nested'],
  ['partner_inactive', 403, 'nested'],
  ['partner_program_unavailable', 403, 'nested'],
  ['idempotency_required', 400, 'nested'],
  ['bad_type', 400, 'nested'],
  ['rate_limited', 429, 'nested'],
  // partner-api.md error table: order processing (flat)
  ['bad_quantity', 400, 'flat'],
  ['bad_months', 400, 'flat'],
  ['bad_gift', 400, 'flat'],
  ['collection_required', 400, 'flat'],
  ['bad_cursor', 400, 'flat'],
  ['bad_max_price', 400, 'flat'],
  ['bad_sort', 400, 'flat'],
  ['bad_attr', 400, 'flat'],
  ['bad_param', 400, 'flat'],
  ['recipient_required', 400, 'flat'],
  ['recipient_not_found', 400, 'flat'],
  ['bad_webhook_url', 400, 'flat'],
  ['gift_not_for_sale', 409, 'flat'],
  ['gift_reserved', 409, 'flat'],
  ['price_changed', 409, 'flat'],
  ['idempotency_key_reuse', 409, 'flat'],
  ['order_in_progress', 409, 'flat'],
  ['deferred_order_exists', 409, 'flat'],
  ['insufficient_balance', 402, 'flat'],
  ['not_found', 404, 'flat'],
  ['resolver_error', 502, 'flat'],
  ['product_unavailable', 503, 'flat'],
  ['ledger_unavailable', 503, 'flat'],
  // operator-api.md (flat "unless said otherwise")
  ['topup_below_minimum', 400, 'flat'],
  ['not_in_review', 409, 'flat'],
  ['not_cancelable', 409, 'flat'],
  ['topups_not_configured', 503, 'flat'],
  // README: operator bodies that fail validation
  ['validation_error', 400, 'flat'],
];

/** "Reliable parsing: take detail; if it is an object read code from it, otherwise read code from the root." */
function codeOf(body: Record<string, unknown>): unknown {
  const d = body.detail;
  return d !== null && typeof d === 'object' ? (d as Record<string, unknown>).code : body.code;
}

describe('status and format of every code the contract names', () => {
  it.each(CONTRACT)('%s → %d, %s', (code, status, format) => {
    expect(ERRORS[code]).toMatchObject({ status, format });
    const e = new ApiError(code);
    expect({ status: e.status, format: e.format }).toEqual({ status, format });
    const body = errorBody(e);
    expect(codeOf(body)).toBe(code);
    if (format === 'flat') {
      expect(body).toEqual({ code, detail: expect.any(String) });
    } else {
      expect(body).toEqual({ detail: { code, detail: expect.any(String) } });
    }
  });
});

describe('every code of the table', () => {
  it.each(Object.keys(ERRORS) as ErrorCode[])('%s: a 4xx/5xx status, a known format, a text, readable by the parsing rule', (code) => {
    const spec = ERRORS[code];
    expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(spec.status >= 400 && spec.status <= 599).toBe(true);
    expect(['flat', 'nested']).toContain(spec.format);
    expect(spec.detail.length).toBeGreaterThan(0);
    expect(codeOf(errorBody(new ApiError(code)))).toBe(code);
  });
});

describe('errorBody with extra fields', () => {
  it.each([
    [
      'flat: insufficient_balance with currency and balance',
      new ApiError('insufficient_balance', 'Too low.', { currency: 'USD', balance: '0.50' }),
      402,
      { code: 'insufficient_balance', detail: 'Too low.', currency: 'USD', balance: '0.50' },
    ],
    [
      'flat: price_changed with current_price in TON',
      new ApiError('price_changed', 'Above max_price.', { current_price: '10.558', currency: 'TON' }),
      409,
      { code: 'price_changed', detail: 'Above max_price.', current_price: '10.558', currency: 'TON' },
    ],
    [
      'flat: bad_webhook_url with reason',
      new ApiError('bad_webhook_url', 'Private host.', { reason: 'private_host' }),
      400,
      { code: 'bad_webhook_url', detail: 'Private host.', reason: 'private_host' },
    ],
    [
      // nested; the extra fields are also repeated at the root (errors.ts: either way of reading works)
      'nested: rate_limited with scope, limit, window_seconds, retry_after',
      new ApiError('rate_limited', 'Slow down.', { scope: 'key', limit: 120, window_seconds: 60, retry_after: 1 }),
      429,
      {
        detail: { code: 'rate_limited', detail: 'Slow down.', scope: 'key', limit: 120, window_seconds: 60, retry_after: 1 },
        scope: 'key',
        limit: 120,
        window_seconds: 60,
        retry_after: 1,
      },
    ],
    [
      'nested without extras',
      new ApiError('unauthorized', 'No key.'),
      401,
      { detail: { code: 'unauthorized', detail: 'No key.' } },
    ],
    [
      // operator-api.md POST /partners/{id}/keys: "409 partner_inactive before the first top-up" (flat)
      'override: partner_inactive as the operator API answers it',
      new ApiError('partner_inactive', 'No API key before the first top-up.', {}, {}, { status: 409, format: 'flat' }),
      409,
      { code: 'partner_inactive', detail: 'No API key before the first top-up.' },
    ],
  ])('%s', (_name, e, status, body) => {
    expect(e.status).toBe(status);
    expect(errorBody(e)).toStrictEqual(body);
  });
});

describe('fail helpers', () => {
  it.each([
    ['bad_months', 400, 'flat'],
    ['unauthorized', 401, 'nested'],
    ['deferred_order_exists', 409, 'flat'],
  ] as const)('fail(%s) throws an ApiError with %d, %s', (code, status, format) => {
    let err: unknown;
    try {
      fail(code, 'Said why.', { x: 1 }, { 'X-H': 'v' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect({ code: e.code, status: e.status, format: e.format, detail: e.detail, extra: e.extra, headers: e.headers }).toEqual({
      code,
      status,
      format,
      detail: 'Said why.',
      extra: { x: 1 },
      headers: { 'X-H': 'v' },
    });
  });

  it.each([1, 30, 120])('failUpstreamUnavailable(%d): 503 product_unavailable, reason upstream_unavailable, Retry-After equal to retry_after', (sec) => {
    let err: unknown;
    try {
      failUpstreamUnavailable('The stars supplier is down.', sec);
    } catch (e) {
      err = e;
    }
    const e = err as ApiError;
    expect(e.status).toBe(503);
    expect(e.headers).toEqual({ 'Retry-After': String(sec) });
    expect(errorBody(e)).toStrictEqual({ code: 'product_unavailable', detail: 'The stars supplier is down.', reason: 'upstream_unavailable', retry_after: sec });
  });
});
