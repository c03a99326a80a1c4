import { fail } from '../domain/errors.js';
import { getTopupRequest } from '../store/app-repo.js';
import type { Deps } from './deps.js';
import { depositAddresses } from '../config/deposit-addresses.js';
import { topupRequestView } from './topup-requests.js';

/** A partner's own top-up request with its state now: `open`, `credited` or `expired` (open past expires_at). */
export function topupRequestState(deps: Pick<Deps, 'db' | 'clock' | 'config'>, partnerId: number, requestId: string) {
  const row = typeof requestId === 'string' && requestId.length <= 64 ? getTopupRequest(deps.db, requestId) : undefined;
  if (!row || row.partnerId !== partnerId) fail('not_found', 'No such top-up request.');
  const status = row.status === 'open' && row.expiresAt <= deps.clock.now() ? 'expired' : row.status;
  return { ...topupRequestView(row, depositAddresses(deps.config)), status };
}
