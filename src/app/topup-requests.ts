import { CURRENCIES } from '../domain/enums.js';
import { z } from 'zod';
import { fail } from '../domain/errors.js';
import type { DepositNetwork } from '../domain/chain-address.js';
import { depositAddresses } from '../config/deposit-addresses.js';
import {
  CURRENCY_ASSET,
  ENDED_AMOUNT_HOLD_MS,
  TOPUP_REQUEST_TTL_MS,
  chooseAmountToSend,
  makeCommentCode,
  type DepositAddress,
} from '../domain/deposit-matching.js';
import { formatAmount, parseAmount, type Currency } from '../domain/money.js';
import { offsetIso } from '../domain/time-format.js';
import { audit } from '../store/audit-repo.js';
import { commentCodeTaken, endedRequestAmounts, expireTopupRequests, insertTopupRequest, openRequestAmounts, openRequestCount, type TopupRequestRow } from '../store/deposits-repo.js';
import { getPartner } from '../store/partners-repo.js';
import type { Deps } from './deps.js';
import { requireTopupMinimum } from './topups.js';
import { unitOfWork } from './unit-of-work.js';
import { parseOrFail } from './requests/parse.js';

/**
 * Top-up requests (operator-api.md POST /partners/{id}/topup-requests): the exact amount to send, where,
 * and for TON a comment code. The one place a request is made: the operator API, the bot's /topup and the
 * Mini App's Top up tab all call createTopupRequest (the partner API has no such route). Listing and
 * canceling them: src/app/topup-request-state.ts.
 */

/** Where to send a top-up of `currency`; 503 topups_not_configured when no address is configured for it. */
export function requestAddresses(addresses: readonly DepositAddress[], currency: Currency): { network: DepositNetwork; address: string }[] {
  const list = addresses.filter((a) => a.asset === CURRENCY_ASSET[currency]).map((a) => ({ network: a.network, address: a.address }));
  if (list.length === 0) fail('topups_not_configured', `Top-ups in ${currency} are not configured: no deposit address.`);
  return list;
}

/** How a request is shown to operators, owners (bot, Mini App): `credited` is called `paid`. */
export type TopupRequestShownStatus = 'open' | 'paid' | 'expired' | 'canceled';

export interface TopupRequestView {
  request_id: string;
  currency: Currency;
  /** The amount asked for. */
  amount: string;
  /** The exact amount to send: the asked amount plus the request's offset. */
  amount_to_send: string;
  /** Where to send it: every configured address of the currency's asset (USDT: one per network). */
  addresses: { network: DepositNetwork; address: string }[];
  comment_code?: string;
  status: TopupRequestShownStatus;
  created_at: string;
  expires_at: string;
  /** Whole seconds until it expires while open, else 0. */
  seconds_left: number;
  /** When it was canceled (only for a canceled request). */
  canceled_at?: string;
}

/** The status a request is shown with at `now` (an open request past its expiry is expired). */
export function shownStatus(row: Pick<TopupRequestRow, 'status' | 'expiresAt'>, now: number): TopupRequestShownStatus {
  if (row.status === 'credited') return 'paid';
  if (row.status === 'open' && row.expiresAt <= now) return 'expired';
  return row.status;
}

export function topupRequestView(row: TopupRequestRow, addresses: readonly DepositAddress[], now: number): TopupRequestView {
  const status = shownStatus(row, now);
  const view: TopupRequestView = {
    request_id: row.requestId,
    currency: row.currency,
    amount: formatAmount(row.amount, row.currency),
    amount_to_send: formatAmount(row.amountToSend, row.currency),
    addresses: addresses.filter((a) => a.asset === CURRENCY_ASSET[row.currency]).map((a) => ({ network: a.network, address: a.address })),
    status,
    created_at: offsetIso(row.createdAt),
    expires_at: offsetIso(row.expiresAt),
    seconds_left: status === 'open' ? Math.floor((row.expiresAt - now) / 1000) : 0,
  };
  if (row.commentCode) view.comment_code = row.commentCode;
  if (row.canceledAt !== null) view.canceled_at = offsetIso(row.canceledAt);
  return view;
}

const bodySchema = z
  .object({
    currency: z.enum(CURRENCIES, { error: 'must be USD or TON' }),
    amount: z.union([z.string(), z.number()], { error: 'must be a decimal string' }),
  })
  .strict();

const MAX_REQUEST_MINOR = 10_000_000_000; // 100 000 000.00 USD, 10 000 000.000 TON

/** Validates `{currency, amount}`: 400 validation_error for a malformed body. */
export function parseTopupRequest(body: unknown): { currency: Currency; amount: number } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('validation_error', 'The body must be a JSON object.');
  const data = parseOrFail(bodySchema, body);
  const { currency } = data;
  const amount = parseAmount(String(data.amount), currency);
  if (amount === null || amount <= 0 || amount > MAX_REQUEST_MINOR)
    fail('validation_error', `amount must be a positive ${currency} amount with at most ${currency === 'USD' ? 2 : 3} decimals.`);
  return { currency, amount };
}

/** What createTopupRequest uses of the service. */
export type CreateTopupRequestDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log'>;

/**
 * Creates a request for `partnerId`. 404 not_found for an unknown partner, 503 topups_not_configured
 * without an address for the currency, 400 topup_below_minimum under the minimum that applies (first
 * top-up 10 in either currency, later USD 5 and TON 10), 409 too_many_topup_requests when the partner
 * already has TOPUP_REQUESTS_MAX_OPEN open requests of the currency. The amount to send is the asked
 * amount plus a random offset (chooseAmountToSend) that no other open request of the currency has, and
 * no request that ended unpaid in the last 30 days unless nothing else is free.
 */
export function createTopupRequest(deps: CreateTopupRequestDeps, partnerId: number, body: unknown, actor: string): TopupRequestView {
  const input = parseTopupRequest(body);
  const addresses = depositAddresses(deps.config);
  return unitOfWork(deps, (tx) => {
    const partner = Number.isSafeInteger(partnerId) ? getPartner(tx, partnerId) : undefined;
    if (!partner) fail('not_found', 'No such partner.');
    requestAddresses(addresses, input.currency);
    requireTopupMinimum(input.currency, input.amount, partner.status === 'inactive');
    const now = deps.clock.now();
    expireTopupRequests(tx, now);
    // each open request holds one of the few offsets of its amount: a partner may not hoard them
    const maxOpen = deps.config.TOPUP_REQUESTS_MAX_OPEN;
    if (openRequestCount(tx, partnerId, input.currency, now) >= maxOpen)
      fail(
        'too_many_topup_requests',
        `There are already ${maxOpen} open top-up requests in ${input.currency}: pay or cancel one of them, or let one expire (24 hours after it was made), before asking for another.`,
        { currency: input.currency, max_open: maxOpen },
      );
    // modulo bias of 2^32 over at most 999 choices is negligible
    const randomInt = (n: number) => parseInt(deps.ids.hex(4), 16) % n;
    // offsets of requests that ended unpaid lately are given last: their late payments must not pay this one
    const held = endedRequestAmounts(tx, input.currency, now, now - ENDED_AMOUNT_HOLD_MS);
    const amountToSend = chooseAmountToSend(input.amount, input.currency, openRequestAmounts(tx, input.currency, now), randomInt, held);
    if (amountToSend === null) fail('topup_amount_unavailable');
    let commentCode: string | null = null;
    if (input.currency === 'TON') {
      for (let i = 0; i < 20 && commentCode === null; i++) {
        const c = makeCommentCode(randomInt);
        if (!commentCodeTaken(tx, c)) commentCode = c;
      }
      if (commentCode === null) fail('topup_amount_unavailable', 'Could not allocate a comment code. Retry.');
    }
    const row: TopupRequestRow = {
      requestId: `rq_${deps.ids.hex(8)}`,
      partnerId,
      currency: input.currency,
      amount: input.amount,
      amountToSend,
      commentCode,
      status: 'open',
      createdBy: actor,
      createdAt: now,
      expiresAt: now + TOPUP_REQUEST_TTL_MS,
      creditedDepositId: null,
      canceledAt: null,
    };
    insertTopupRequest(tx, row);
    audit(tx, now, actor, 'topup_request.create', String(partnerId), {
      request_id: row.requestId,
      currency: row.currency,
      amount: formatAmount(row.amount, row.currency),
      amount_to_send: formatAmount(row.amountToSend, row.currency),
      comment_code: row.commentCode,
    });
    return topupRequestView(row, addresses, now);
  });
}
