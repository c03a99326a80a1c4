import { z } from 'zod';
import { ApiError, fail } from '../domain/errors.js';
import {
  ASSET_CURRENCY,
  commentTokens,
  displayAmount,
  exactMinor,
  floorMinor,
  knownAsset,
  matchDeposit,
  normalizeDecimal,
  type ObservedTransfer,
  type RequestLike,
} from '../domain/deposit-matching.js';
import { NETWORKS_BY_CURRENCY } from '../domain/ledger-rules.js';
import { formatAmount, type Currency } from '../domain/money.js';
import { offsetIso } from '../domain/time-format.js';
import type { Config } from '../config/env.js';
import { audit } from '../store/audit-repo.js';
import type { Tx } from '../store/db.js';
import {
  candidateRequests,
  depositByTx,
  expireTopupRequests,
  getDeposit,
  getTopupRequest,
  insertDeposit,
  listDepositRows,
  markRequestCredited,
  updateDeposit,
  type DepositRow,
  type TopupRequestRow,
} from '../store/deposits-repo.js';
import { getPartner } from '../store/partners-repo.js';
import { getTopup, topupByEitherHash } from '../store/topups-repo.js';
import { DEPOSIT_STATUSES, type DepositStatus } from '../domain/enums.js';
import type { Deps } from './deps.js';
import { depositAddresses } from '../config/deposit-addresses.js';
import { creditInTx } from './topups.js';
import { unitOfWork, type AfterCommit } from './unit-of-work.js';
import { parseOrFail } from './validation.js';
import type { DepositItem } from '../domain/deposit-item.js';

/**
 * Chain deposits: recording what a watcher (or the sandbox) saw, matching it to a top-up request and
 * crediting it in the same transaction, and the operator's manual handling of what did not match.
 *
 * One deposit per (network, tx_hash): a repeated report of the same transfer is answered with the
 * deposit already recorded and never credits twice. The ledger credit itself goes through creditInTx
 * keyed by `${network}:${tx_hash}` (minimums, activation, idempotency of src/app/topups.ts).
 */

/** Expired requests older than this are not considered for `expired_request`. */
const EXPIRED_LOOKBACK_MS = 30 * 86_400_000;

export type DepositSource = 'watcher' | 'sandbox';

export function requiredConfirmations(config: Pick<Config, 'TON_CONFIRMATIONS' | 'TRON_CONFIRMATIONS' | 'BSC_CONFIRMATIONS'>, network: string): number {
  if (network === 'ton') return config.TON_CONFIRMATIONS;
  if (network === 'trc20') return config.TRON_CONFIRMATIONS;
  return config.BSC_CONFIRMATIONS;
}

export function creditKey(network: string, txHash: string): string {
  return `${network}:${txHash}`;
}

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

function toRequestLike(r: TopupRequestRow): RequestLike {
  return {
    requestId: r.requestId,
    partnerId: r.partnerId,
    currency: r.currency,
    amountToSend: r.amountToSend,
    commentCode: r.commentCode,
    status: r.status,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
  };
}

/**
 * Records one observed transfer in an open transaction and, once it has the confirmations its network
 * requires, matches and credits it. Returns the deposit and whether this report created it.
 */
export function recordDepositInTx(tx: Tx, deps: Pick<Deps, 'clock' | 'config' | 'ids' | 'bus'>, t: ObservedTransfer, source: DepositSource, after: AfterCommit): { row: DepositRow; created: boolean } {
  const now = deps.clock.now();
  const required = requiredConfirmations(deps.config, t.network);
  const confirmations = Math.max(0, Math.floor(t.confirmations));
  const existing = depositByTx(tx, t.network, t.txHash);
  if (existing) {
    if (existing.status !== 'pending') return { row: existing, created: false };
    const conf = Math.max(existing.confirmations, confirmations);
    if (conf === existing.confirmations && conf < required) return { row: existing, created: false };
    const row = updateDeposit(tx, existing.depositId, { confirmations: conf, updatedAt: now });
    return { row: conf >= required ? processInTx(tx, deps, row, source, after) : row, created: false };
  }
  const amount = normalizeDecimal(t.amount);
  if (amount === null) throw new Error(`transfer ${t.network}:${t.txHash} has a malformed amount ${t.amount}`);
  const asset = knownAsset(t.asset);
  const currency: Currency | null = asset ? ASSET_CURRENCY[asset] : null;
  const depositId = `dep_${deps.ids.hex(8)}`;
  insertDeposit(tx, {
    depositId,
    network: t.network,
    asset: asset ?? t.asset.trim(),
    amount,
    currency,
    amountMinor: currency ? exactMinor(amount, currency) : null,
    txHash: t.txHash,
    fromAddress: t.from,
    toAddress: t.to.trim(),
    comment: t.comment,
    confirmations,
    status: 'pending',
    source,
    createdAt: now,
    updatedAt: now,
  });
  const row = getDeposit(tx, depositId)!;
  return { row: confirmations >= required ? processInTx(tx, deps, row, source, after) : row, created: true };
}

/** What recordDeposit uses of the service. */
export type RecordDepositDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'bus'>;

/** Records a transfer in its own transaction (the sandbox route, which audits the report as `auditActor`). */
export function recordDeposit(deps: RecordDepositDeps, t: ObservedTransfer, source: DepositSource, auditActor?: string): { deposit: DepositView; created: boolean } {
  const r = unitOfWork(deps, (tx, after) => {
    const res = recordDepositInTx(tx, deps, t, source, after);
    if (auditActor)
      audit(tx, deps.clock.now(), auditActor, 'deposit.report', res.row.depositId, {
        network: t.network,
        tx_hash: t.txHash,
        confirmations: t.confirmations,
        status: res.row.status,
        created: res.created,
      });
    return res;
  });
  return { deposit: depositView(r.row), created: r.created };
}

/** Matches a confirmed pending deposit and credits, leaves unmatched (with an operator alert) or ignores it. */
function processInTx(tx: Tx, deps: Pick<Deps, 'clock' | 'config' | 'ids' | 'bus'>, row: DepositRow, source: DepositSource, after: AfterCommit): DepositRow {
  const now = deps.clock.now();
  const asset = knownAsset(row.asset);
  const key = creditKey(row.network, row.txHash);

  // Already credited by support through POST /partners/{id}/topups with this transaction's hash.
  if (asset) {
    const prior = topupByEitherHash(tx, key, row.txHash);
    if (prior)
      return updateDeposit(tx, row.depositId, {
        status: 'credited',
        partnerId: prior.partnerId,
        topupId: prior.topupId,
        note: `Already credited as top-up ${prior.topupId}.`,
        resolvedAt: now,
        updatedAt: now,
      });
  }

  expireTopupRequests(tx, now);
  const currency = asset ? ASSET_CURRENCY[asset] : null;
  const requests = currency ? candidateRequests(tx, currency, commentTokens(row.comment), now - EXPIRED_LOOKBACK_MS).map(toRequestLike) : [];
  const m = matchDeposit({ network: row.network, asset: row.asset, amount: row.amount, to: row.toAddress, comment: row.comment }, requests, depositAddresses(deps.config), now);

  if (m.kind === 'ignored')
    return updateDeposit(tx, row.depositId, { status: 'ignored', note: m.note, resolvedAt: now, updatedAt: now });

  if (m.kind === 'credit') {
    try {
      const r = creditInTx(tx, deps, after, {
        partnerId: m.request.partnerId,
        currency: m.currency,
        amount: m.amountMinor,
        network: row.network,
        txHash: key,
        source,
        actor: source,
      });
      markRequestCredited(tx, m.request.requestId, row.depositId);
      const updated = updateDeposit(tx, row.depositId, {
        status: 'credited',
        partnerId: m.request.partnerId,
        topupId: r.body.topup_id,
        requestId: m.request.requestId,
        note: `Paid request ${m.request.requestId} (matched by ${m.by === 'comment' ? 'the comment code' : 'the exact amount'}).`,
        resolvedAt: now,
        updatedAt: now,
      });
      return updated;
    } catch (e) {
      // creditInTx checks the minimum before writing anything, so the transaction is still clean.
      if (!(e instanceof ApiError) || e.code !== 'topup_below_minimum') throw e;
      return markUnmatched(tx, deps, row, 'below_minimum', `${e.detail} Request ${m.request.requestId} was not credited.`, m.request.requestId, after);
    }
  }
  return markUnmatched(tx, deps, row, m.reason, m.note, m.request?.requestId ?? null, after);
}

function markUnmatched(tx: Tx, deps: Pick<Deps, 'clock' | 'bus'>, row: DepositRow, reason: string, note: string, requestId: string | null, after: AfterCommit): DepositRow {
  const now = deps.clock.now();
  const updated = updateDeposit(tx, row.depositId, { status: 'unmatched', reason, note, requestId, updatedAt: now });
  const alert = {
    kind: 'unmatched_deposit' as const,
    depositId: updated.depositId,
    network: updated.network,
    asset: updated.asset,
    amount: displayAmount(updated.amount, updated.currency),
    reason,
  };
  after(() => deps.bus.emit('alert', alert));
  return updated;
}

// ---- operator API

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
    const credited = creditInTx(tx, deps, after, {
      partnerId: input.partner_id,
      currency,
      amount,
      network: row.network,
      txHash: creditKey(row.network, row.txHash),
      source: 'operator',
      actor,
    });
    const topup = getTopup(tx, credited.body.topup_id)!;
    if (topup.partnerId !== input.partner_id) fail('tx_hash_conflict', `This transaction was already credited to partner ${topup.partnerId}.`);
    // The request the deposit was meant for (same partner) is settled by this credit.
    if (row.requestId) {
      const req = getTopupRequest(tx, row.requestId);
      if (req && req.partnerId === input.partner_id && req.status !== 'credited') markRequestCredited(tx, req.requestId, row.depositId);
    }
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
