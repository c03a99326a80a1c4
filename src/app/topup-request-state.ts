import { z } from 'zod';
import { depositAddresses } from '../config/deposit-addresses.js';
import { fail } from '../domain/errors.js';
import { CURRENCIES, type TopupRequestStatus } from '../domain/enums.js';
import { formatAmount, type Currency } from '../domain/money.js';
import { audit } from '../store/audit-repo.js';
import type { Conn } from '../store/db.js';
import { cancelOpenRequest, getTopupRequest, partnerTopupRequests, type TopupRequestRow } from '../store/deposits-repo.js';
import type { Deps } from './deps.js';
import { requirePartner } from './partners.js';
import { shownStatus, topupRequestView, type TopupRequestShownStatus, type TopupRequestView } from './topup-requests.js';
import { unitOfWork } from './unit-of-work.js';
import { parseOrFail } from './requests/parse.js';

/**
 * A partner's top-up requests after they are made: one request, the list by state, the open ones with the
 * room left for new ones, and canceling an open one (operator-api.md GET and DELETE
 * /partners/{id}/topup-requests). The operator API, the Mini App API and the bot's /topup all call these,
 * so a request looks and cancels the same everywhere.
 */

/** What the read services use of the service. */
export type TopupRequestReadDeps = Pick<Deps, 'db' | 'clock' | 'config'>;
/** What cancelTopupRequest uses of the service. */
export type CancelTopupRequestDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'log'>;

/** A list answers at most this many requests (newest first). */
const LIST_LIMIT = 1000;

const SHOWN_TO_STORED: Record<TopupRequestShownStatus, TopupRequestStatus> = { open: 'open', paid: 'credited', expired: 'expired', canceled: 'canceled' };

const listQuerySchema = z.object({
  status: z.enum(['open', 'paid', 'expired', 'canceled'], { error: 'must be open, paid, expired or canceled' }).optional(),
});

/** The partner's own request (404 not_found for an unknown id or another partner's). */
function ownRequest(conn: Conn, partnerId: number, requestId: unknown): TopupRequestRow {
  const row = typeof requestId === 'string' && requestId.length <= 64 ? getTopupRequest(conn, requestId) : undefined;
  if (!row || row.partnerId !== partnerId) fail('not_found', 'No such top-up request.');
  return row;
}

/** One of the partner's requests as it stands now. */
export function topupRequestState(deps: TopupRequestReadDeps, partnerId: number, requestId: string): TopupRequestView {
  return topupRequestView(ownRequest(deps.db, partnerId, requestId), depositAddresses(deps.config), deps.clock.now());
}

/**
 * The partner's requests in one state (query `status`: `open` by default, `paid`, `expired`, `canceled`),
 * newest first. 404 not_found for an unknown partner, 400 validation_error for another status.
 */
export function listTopupRequests(deps: TopupRequestReadDeps, partnerId: number, query: Record<string, unknown> = {}): { items: TopupRequestView[] } {
  const q = parseOrFail(listQuerySchema, query);
  requirePartner(deps, partnerId);
  const now = deps.clock.now();
  const addresses = depositAddresses(deps.config);
  const rows = partnerTopupRequests(deps.db, partnerId, SHOWN_TO_STORED[q.status ?? 'open'], now, LIST_LIMIT);
  return { items: rows.map((r) => topupRequestView(r, addresses, now)) };
}

export interface OpenTopupRequests {
  /** The open requests, newest first, each with its amount to send, addresses and seconds left. */
  items: TopupRequestView[];
  /** TOPUP_REQUESTS_MAX_OPEN: open requests allowed per partner and currency. */
  max_open: number;
  /** How many more requests each currency may have now (0: a new one would be 409 too_many_topup_requests). */
  room: Record<Currency, number>;
}

/** What /topup in the bot and the Mini App's top-up page show first: the open requests and the room left. */
export function openTopupRequests(deps: TopupRequestReadDeps, partnerId: number): OpenTopupRequests {
  const { items } = listTopupRequests(deps, partnerId, { status: 'open' });
  const max = deps.config.TOPUP_REQUESTS_MAX_OPEN;
  const room = Object.fromEntries(CURRENCIES.map((c) => [c, Math.max(0, max - items.filter((i) => i.currency === c).length)])) as Record<Currency, number>;
  return { items, max_open: max, room };
}

/**
 * Cancels one of the partner's open requests: it stops taking payment at once and frees its place under
 * TOPUP_REQUESTS_MAX_OPEN (its amount stays out of new requests for 30 days, like an expired one's).
 * 404 not_found for an unknown request or another partner's, 409 not_open for a paid, expired or canceled
 * one. Audited as `topup_request.cancel` with `actor`.
 */
export function cancelTopupRequest(deps: CancelTopupRequestDeps, partnerId: number, requestId: string, actor: string): TopupRequestView {
  return unitOfWork(deps, (tx) => {
    const row = ownRequest(tx, partnerId, requestId);
    const now = deps.clock.now();
    if (!cancelOpenRequest(tx, row.requestId, now)) {
      const shown = shownStatus(row, now);
      fail('not_open', `The top-up request is ${shown}: only an open request can be canceled.`, { status: shown });
    }
    audit(tx, now, actor, 'topup_request.cancel', String(partnerId), { request_id: row.requestId, currency: row.currency, amount_to_send: formatAmount(row.amountToSend, row.currency) });
    return topupRequestView(getTopupRequest(tx, row.requestId)!, depositAddresses(deps.config), now);
  });
}
