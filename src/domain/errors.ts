/**
 * Every error the service answers with, in one table: HTTP status, body format and default text.
 *
 * The contract keeps two body formats on purpose (partner-api.md, Errors):
 * - flat   `{code, detail, ...extra}`        for order-processing errors;
 * - nested `{detail: {code, detail, ...extra}}` for request-level errors (authentication, rate limit,
 *   unknown type, missing idempotency_key, malformed requests).
 * For nested errors the extra fields are also repeated at the root so either way of reading them works.
 */
export type ErrorFormat = 'flat' | 'nested';

interface ErrorSpec {
  status: number;
  format: ErrorFormat;
  detail: string;
}

const spec = (status: number, format: ErrorFormat, detail: string): ErrorSpec => ({ status, format, detail });

export const ERRORS = {
  // request level (nested)
  unauthorized: spec(401, 'nested', 'Missing or invalid API key.'),
  ip_not_allowed: spec(403, 'nested', 'The caller IP address is not in the key whitelist.'),
  partner_inactive: spec(403, 'nested', 'The partner account is not activated: make the first top-up.'),
  partner_program_unavailable: spec(403, 'nested', 'The partner program is temporarily unavailable.'),
  rate_limited: spec(429, 'nested', 'Too many requests.'),
  bad_type: spec(400, 'nested', 'type must be one of stars, premium, nft.'),
  idempotency_required: spec(400, 'nested', 'idempotency_key is required.'),
  bad_request: spec(400, 'nested', 'The request is malformed.'),
  bad_json: spec(400, 'nested', 'The request body is not valid JSON.'),
  unsupported_media_type: spec(415, 'nested', 'Send the body as application/json.'),
  payload_too_large: spec(413, 'nested', 'The request body is too large.'),
  route_not_found: spec(404, 'nested', 'No such endpoint.'),
  internal_error: spec(500, 'nested', 'Internal error. The request may be retried.'),
  storage_unavailable: spec(503, 'nested', 'Storage is temporarily unavailable: nothing was written. Retry later.'),
  // the Mini App API (README "The Mini App")
  not_linked: spec(403, 'nested', 'This Telegram account is not linked to a partner: open the invite link first.'),
  forbidden: spec(403, 'nested', 'Not allowed.'),

  // order processing and resources (flat)
  bad_quantity: spec(400, 'flat', 'quantity must be a whole number of stars within the limits.'),
  bad_months: spec(400, 'flat', 'months must be 3, 6 or 12.'),
  bad_params: spec(400, 'flat', 'params must be an object.'),
  bad_gift: spec(400, 'flat', 'The gift identifier is not recognised.'),
  collection_required: spec(400, 'flat', 'collection is required.'),
  bad_cursor: spec(400, 'flat', 'The cursor is invalid.'),
  bad_max_price: spec(400, 'flat', 'max_price must be a positive TON amount as a string.'),
  bad_sort: spec(400, 'flat', 'sort must be price_asc or price_desc.'),
  bad_attr: spec(400, 'flat', 'Unknown attribute filter.'),
  bad_param: spec(400, 'flat', 'Unknown or invalid query parameter.'),
  bad_status: spec(400, 'flat', 'status must be one of processing, completed, partial, canceled, failed.'),
  bad_limit: spec(400, 'flat', 'limit is out of range.'),
  bad_time: spec(400, 'flat', 'from/to must be an ISO 8601 date or date-time, or unix seconds.'),
  bad_range: spec(400, 'flat', 'from must not be after to, and the range may cover at most 366 days.'),
  recipient_required: spec(400, 'flat', 'recipient is required.'),
  recipient_not_found: spec(400, 'flat', 'The recipient was not found or cannot be reached.'),
  bad_webhook_url: spec(400, 'flat', 'The webhook address is not acceptable.'),
  gift_not_for_sale: spec(409, 'flat', 'The gift is sold or delisted. Nothing was debited.'),
  gift_reserved: spec(409, 'flat', 'An unfinished order exists for this gift.'),
  price_changed: spec(409, 'flat', 'The gift price is above max_price.'),
  idempotency_key_reuse: spec(409, 'flat', 'This idempotency_key was used with different parameters.'),
  order_in_progress: spec(409, 'flat', 'An order with this idempotency_key is still being created. Retry in a second.'),
  deferred_order_exists: spec(409, 'flat', 'The account already has an unfinished Premium order.'),
  insufficient_balance: spec(402, 'flat', 'The balance is too low for this order.'),
  not_found: spec(404, 'flat', 'Not found.'),
  resolver_error: spec(502, 'flat', 'Recipient resolution failed. Retry later.'),
  product_unavailable: spec(503, 'flat', 'The product is temporarily unavailable.'),
  ledger_unavailable: spec(503, 'flat', 'The idempotency check is unavailable. Retry the same request with the same key.'),
  webhook_not_configured: spec(409, 'flat', 'No webhook address and secret are saved: save the Webhook block first.'),

  // operator API (flat)
  validation_error: spec(400, 'flat', 'The request body is invalid.'),
  topup_below_minimum: spec(400, 'flat', 'The amount is below the minimum top-up.'),
  bad_network: spec(400, 'flat', 'This currency is not accepted on that network.'),
  bad_amount: spec(400, 'flat', 'amount must be a positive decimal string.'),
  tx_already_credited: spec(409, 'flat', 'This transaction was already credited to another partner or with another amount.'),
  not_in_review: spec(409, 'flat', 'The order is not waiting for manual review.'),
  transfer_hash_required: spec(409, 'flat', 'The gift supplier has no record of the transfer: send transfer_hash to resolve the order as delivered.'),
  transfer_hash_mismatch: spec(409, 'flat', "transfer_hash differs from the gift supplier's record of the transfer."),
  not_cancelable: spec(409, 'flat', 'Only an unfinished Premium order can be canceled.'),
  topups_not_configured: spec(503, 'flat', 'Top-ups are not configured: no deposit addresses.'),
  topup_amount_unavailable: spec(503, 'flat', 'No free exact amount near the requested one. Retry later or ask for another amount.'),
  too_many_topup_requests: spec(409, 'flat', 'Too many open top-up requests in this currency: pay one or let one expire first.'),
  deposit_not_unmatched: spec(409, 'flat', 'Only an unmatched deposit can be resolved.'),
  not_open: spec(409, 'flat', 'Only an open top-up request can be canceled.'),
  invite_invalid: spec(400, 'flat', 'The invite code is unknown, used or expired.'),
  invite_moves_account: spec(409, 'flat', 'This account is linked to a partner already: the invite takes it from there only when that is confirmed.'),
  last_owner: spec(409, 'flat', 'The only owner of a partner cannot leave it: another owner must join first.'),
  cannot_unlink_self: spec(409, 'flat', 'You cannot unlink yourself; another owner can.'),
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export class ApiError extends Error {
  readonly status: number;
  readonly format: ErrorFormat;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string = ERRORS[code].detail,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    /** For a code the contract answers differently on one endpoint (operator POST /keys: 409 partner_inactive, flat). */
    override: { status?: number; format?: ErrorFormat } = {},
  ) {
    super(`${code}: ${detail}`);
    this.status = override.status ?? ERRORS[code].status;
    this.format = override.format ?? ERRORS[code].format;
  }
}

/** Shorthand: `fail('bad_months')`, `fail('insufficient_balance', undefined, {currency, balance})`. */
export function fail(code: ErrorCode, detail?: string, extra?: Record<string, unknown>, headers?: Record<string, string>): never {
  throw new ApiError(code, detail ?? ERRORS[code].detail, extra ?? {}, headers ?? {});
}

/** 503 product_unavailable while a supplier is down: reason upstream_unavailable, retry_after and Retry-After. */
export function failUpstreamUnavailable(detail: string, retryAfterSec: number): never {
  fail('product_unavailable', detail, { reason: 'upstream_unavailable', retry_after: retryAfterSec }, { 'Retry-After': String(retryAfterSec) });
}

export function errorBody(e: ApiError): Record<string, unknown> {
  const inner = { code: e.code, detail: e.detail, ...e.extra };
  return e.format === 'flat' ? inner : { detail: inner, ...e.extra };
}
