import { fail } from '../../domain/errors.js';
import { displayAmount } from '../../domain/deposit-matching.js';
import { offsetIso } from '../../domain/time-format.js';
import { getDeposit, listDepositRows, type DepositRow } from '../../store/deposits-repo.js';
import { DEPOSIT_STATUSES, type DepositStatus } from '../../domain/enums.js';
import type { Deps } from '../deps.js';
import type { DepositItem } from '../../domain/deposit-item.js';


/** Deposits as the operator sees them (the operator API and the console). */

export interface DepositView extends DepositItem {
  status: DepositStatus;
  to: string;
  confirmations: number;
  reason: string | null;
  request_id: string | null;
  topup_id: string | null;
  note: string | null;
  resolved_at: string | null;
}

export function depositView(r: DepositRow): DepositView {
  return {
    deposit_id: r.depositId,
    network: r.network,
    asset: r.asset,
    amount: displayAmount(r.amount, r.currency),
    tx_hash: r.txHash,
    from: r.fromAddress,
    comment: r.comment,
    status: r.status,
    partner_id: r.partnerId,
    created_at: offsetIso(r.createdAt),
    to: r.toAddress,
    confirmations: r.confirmations,
    reason: r.reason,
    request_id: r.requestId,
    topup_id: r.topupId,
    note: r.note,
    resolved_at: r.resolvedAt === null ? null : offsetIso(r.resolvedAt),
  };
}

/** One deposit as the operator sees it, or null (the bot's deposit conversation). */
export function findDeposit(deps: Pick<Deps, 'db'>, depositId: string): DepositView | null {
  const row = getDeposit(deps.db, depositId);
  return row ? depositView(row) : null;
}

export function listDeposits(deps: Pick<Deps, 'db'>, query: Record<string, unknown>): { items: DepositView[] } {
  const status = query.status;
  if (status !== undefined && !(typeof status === 'string' && (DEPOSIT_STATUSES as readonly string[]).includes(status)))
    fail('validation_error', `status must be one of ${DEPOSIT_STATUSES.join(', ')}.`);
  return { items: listDepositRows(deps.db, status as DepositStatus | undefined, 1000).map(depositView) };
}
