import { ApiError } from '../../domain/errors.js';
import { ASSET_CURRENCY, ENDED_AMOUNT_HOLD_MS, commentTokens, displayAmount, exactMinor, knownAsset, matchDeposit, normalizeDecimal, type ObservedTransfer, type RequestLike } from '../../domain/deposit-matching.js';
import { type Currency } from '../../domain/money.js';
import type { Config } from '../../config/env.js';
import { audit } from '../../store/audit-repo.js';
import type { Tx } from '../../store/db.js';
import { candidateRequests, depositByTx, expireTopupRequests, getDeposit, insertDeposit, markRequestCredited, updateDeposit, type DepositRow, type TopupRequestRow } from '../../store/deposits-repo.js';
import { canonicalTxHash, txAliases } from '../../domain/tx-hash.js';
import { topupByTx } from '../../store/topups-repo.js';
import type { Deps } from '../deps.js';
import { depositAddresses } from '../../config/deposit-addresses.js';
import { creditInTx } from '../topups.js';
import { unitOfWork, type AfterCommit } from '../unit-of-work.js';
import { depositView, type DepositView } from './view.js';

/**
 * Chain deposits: recording what a watcher (or the sandbox) saw, matching it to a top-up request and
 * crediting it in the same transaction, and the operator's manual handling of what did not match.
 *
 * One deposit per (network, tx_hash), the hash in its network's canonical form (src/domain/tx-hash.ts,
 * whoever reports it): a repeated report of the same transfer is answered with the deposit already
 * recorded and never credits twice. The ledger credit itself goes through creditInTx, keyed by the same
 * network and hash as support's credits (minimums, activation, idempotency of src/app/topups.ts).
 */

export type DepositSource = 'watcher' | 'sandbox';

export function requiredConfirmations(config: Pick<Config, 'TON_CONFIRMATIONS' | 'TRON_CONFIRMATIONS' | 'BSC_CONFIRMATIONS'>, network: string): number {
  if (network === 'ton') return config.TON_CONFIRMATIONS;
  if (network === 'trc20') return config.TRON_CONFIRMATIONS;
  return config.BSC_CONFIRMATIONS;
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
    canceledAt: r.canceledAt,
  };
}

/**
 * When the transfer was made, as far as the service can tell: its chain time when the watcher reported
 * one, but never later than when the service first saw it (nor in the service's future: a chain clock
 * ahead of ours must not make a payment look late).
 */
export function madeAt(row: Pick<DepositRow, 'chainTime' | 'createdAt'>, now: number): number {
  return Math.min(row.chainTime ?? Number.POSITIVE_INFINITY, row.createdAt, now);
}

/**
 * Records one observed transfer in an open transaction and, once it has the confirmations its network
 * requires, matches and credits it. Returns the deposit and whether this report created it.
 */
export function recordDepositInTx(tx: Tx, deps: Pick<Deps, 'clock' | 'config' | 'ids' | 'bus'>, observed: ObservedTransfer, source: DepositSource, after: AfterCommit): { row: DepositRow; created: boolean } {
  const t = { ...observed, txHash: canonicalTxHash(observed.network, observed.txHash) };
  const now = deps.clock.now();
  const required = requiredConfirmations(deps.config, t.network);
  const confirmations = Math.max(0, Math.floor(t.confirmations));
  const existing = depositByTx(tx, t.network, t.txHash);
  if (existing) {
    if (existing.status !== 'pending') return { row: existing, created: false };
    const conf = Math.max(existing.confirmations, confirmations);
    if (conf === existing.confirmations && conf < required) return { row: existing, created: false };
    const chainTime = existing.chainTime ?? chainTimeOf(t);
    const row = updateDeposit(tx, existing.depositId, { confirmations: conf, chainTime, updatedAt: now });
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
    chainTime: chainTimeOf(t),
    status: 'pending',
    source,
    createdAt: now,
    updatedAt: now,
  });
  const row = getDeposit(tx, depositId)!;
  return { row: confirmations >= required ? processInTx(tx, deps, row, source, after) : row, created: true };
}

const chainTimeOf = (t: ObservedTransfer): number | null => (typeof t.chainTime === 'number' && Number.isFinite(t.chainTime) && t.chainTime > 0 ? Math.floor(t.chainTime) : null);

/** What recordDeposit uses of the service. */
export type RecordDepositDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'bus'>;

/** Records a transfer in its own transaction (the sandbox route, which audits the report as `auditActor`). */
export function recordDeposit(deps: RecordDepositDeps, t: ObservedTransfer, source: DepositSource, auditActor?: string): { deposit: DepositView; created: boolean } {
  const r = unitOfWork(deps, (tx, after) => {
    const res = recordDepositInTx(tx, deps, t, source, after);
    if (auditActor)
      audit(tx, deps.clock.now(), auditActor, 'deposit.report', res.row.depositId, {
        network: t.network,
        tx_hash: res.row.txHash,
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

  // Already credited by support (POST /partners/{id}/topups, in whatever spelling of this transaction's hash).
  if (asset) {
    const prior = topupByTx(tx, txAliases({ network: row.network, txHash: row.txHash }));
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
  const at = madeAt(row, now);
  const requests = currency ? candidateRequests(tx, currency, commentTokens(row.comment), at - ENDED_AMOUNT_HOLD_MS).map(toRequestLike) : [];
  const m = matchDeposit({ network: row.network, asset: row.asset, amount: row.amount, to: row.toAddress, comment: row.comment }, requests, depositAddresses(deps.config), at);

  if (m.kind === 'ignored')
    return updateDeposit(tx, row.depositId, { status: 'ignored', note: m.note, resolvedAt: now, updatedAt: now });

  if (m.kind === 'credit') {
    try {
      const r = creditInTx(tx, deps, after, {
        partnerId: m.request.partnerId,
        currency: m.currency,
        amount: m.amountMinor,
        network: row.network,
        txHash: row.txHash,
        source,
        actor: source,
        requestId: m.request.requestId,
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
  // a late payment of a request that ended unpaid names that request's partner for support (never credited)
  const owner = m.reason === 'expired_request' ? (m.request?.partnerId ?? null) : null;
  return markUnmatched(tx, deps, row, m.reason, m.note, m.request?.requestId ?? null, after, owner);
}

function markUnmatched(tx: Tx, deps: Pick<Deps, 'clock' | 'bus'>, row: DepositRow, reason: string, note: string, requestId: string | null, after: AfterCommit, partnerId: number | null = null): DepositRow {
  const now = deps.clock.now();
  const updated = updateDeposit(tx, row.depositId, { status: 'unmatched', reason, note, requestId, partnerId, updatedAt: now });
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
