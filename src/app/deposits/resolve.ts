import { z } from 'zod';
import { fail } from '../../domain/errors.js';
import { ASSET_CURRENCY, exactMinor, floorMinor, knownAsset } from '../../domain/deposit-matching.js';
import { NETWORKS_BY_CURRENCY } from '../../domain/ledger-rules.js';
import { formatAmount } from '../../domain/money.js';
import { audit } from '../../store/audit-repo.js';
import { getDeposit, getTopupRequest, markRequestCredited, updateDeposit } from '../../store/deposits-repo.js';
import { getPartner } from '../../store/partners-repo.js';
import type { Deps } from '../deps.js';
import { creditInTx } from '../topups.js';
import { unitOfWork } from '../unit-of-work.js';
import { parseOrFail } from '../requests/parse.js';

import { depositView, type DepositView } from './view.js';

const resolveSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('credit'), partner_id: z.number().int().positive(), note: z.string().max(1000).optional() }).strict(),
    z.object({ action: z.literal('close'), note: z.string().trim().min(1, 'must not be empty').max(1000) }).strict(),
  ],
  { error: 'action must be "credit" or "close"' },
);

/** What resolveDeposit uses of the service. */
export type ResolveDepositDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'bus'>;

/**
 * POST /deposits/{id}/resolve: credit an unmatched deposit to a partner (top-up rules apply: minimums,
 * activation, TON only on ton) or close it with a note. 409 deposit_not_unmatched for any other deposit.
 */
export function resolveDeposit(deps: ResolveDepositDeps, depositId: string, body: unknown, actor: string): DepositView {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('validation_error', 'The body must be a JSON object.');
  const input = parseOrFail(resolveSchema, body);
  return unitOfWork(deps, (tx, after) => {
    const row = getDeposit(tx, depositId);
    if (!row) fail('not_found', 'No such deposit.');
    if (row.status !== 'unmatched') fail('deposit_not_unmatched', `The deposit is ${row.status}; only an unmatched deposit can be resolved.`);
    const now = deps.clock.now();
    if (input.action === 'close') {
      const updated = updateDeposit(tx, row.depositId, { status: 'closed', note: input.note.trim(), resolvedAt: now, updatedAt: now });
      audit(tx, now, actor, 'deposit.close', row.depositId, { note: input.note.trim() });
      return depositView(updated);
    }

    if (!getPartner(tx, input.partner_id)) fail('not_found', 'No such partner.');
    const asset = knownAsset(row.asset);
    if (!asset) fail('validation_error', `${row.asset} is not credited.`);
    const currency = ASSET_CURRENCY[asset];
    if (!NETWORKS_BY_CURRENCY[currency].includes(row.network)) fail('bad_network', `${currency} is accepted only on network ton.`);
    const exact = exactMinor(row.amount, currency);
    const amount = exact ?? floorMinor(row.amount, currency);
    // The request the deposit was meant for (same partner) is settled by this credit (its event names it).
    const req = row.requestId ? getTopupRequest(tx, row.requestId) : undefined;
    const settles = req && req.partnerId === input.partner_id && req.status !== 'credited' ? req : undefined;
    const credited = creditInTx(tx, deps, after, {
      partnerId: input.partner_id,
      currency,
      amount,
      network: row.network,
      txHash: row.txHash,
      source: 'operator',
      actor,
      ...(settles ? { requestId: settles.requestId } : {}),
    });
    // (a transaction already credited to another partner or with another amount was 409 tx_already_credited)
    if (settles) markRequestCredited(tx, settles.requestId, row.depositId);
    const note =
      input.note?.trim() ||
      `Credited by ${actor}${exact === null ? ` (rounded down to ${formatAmount(amount, currency)} ${currency})` : ''}.`;
    const updated = updateDeposit(tx, row.depositId, {
      status: 'credited',
      partnerId: input.partner_id,
      topupId: credited.body.topup_id,
      note,
      resolvedAt: now,
      updatedAt: now,
    });
    audit(tx, now, actor, 'deposit.credit', row.depositId, { partner_id: input.partner_id, topup_id: credited.body.topup_id, currency, amount: formatAmount(amount, currency) });
    return depositView(updated);
  });
}
