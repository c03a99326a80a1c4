import { fail } from '../domain/errors.js';
import { NETWORKS_BY_CURRENCY, topupMinimum } from '../domain/ledger-rules.js';
import { formatAmount, isCurrency, parseAmount, type Currency } from '../domain/money.js';
import type { Tx } from '../store/db.js';
import { unitOfWork, type AfterCommit } from './unit-of-work.js';
import { audit } from '../store/audit-repo.js';
import { balanceOf, postEntry } from '../store/ledger-repo.js';
import { getPartner, setPartnerStatus } from '../store/partners-repo.js';
import { canonicalTxHash, txAliases } from '../domain/tx-hash.js';
import { insertTopup, topupByTx } from '../store/topups-repo.js';
import type { Deps } from './deps.js';
import { requirePartner } from './partners.js';

/** Crediting a confirmed deposit (operator-api.md POST /partners/{id}/topups). */

export interface TopupInput {
  currency: unknown;
  amount: unknown;
  network: unknown;
  tx_hash: unknown;
}

export interface TopupResult {
  status: 201 | 200;
  body: { topup_id: string; currency: Currency; amount: string; balance: string; status: 'active' | 'inactive' };
}

export function parseTopup(input: TopupInput) {
  if (!isCurrency(input.currency)) fail('validation_error', 'currency must be USD or TON.');
  const currency = input.currency;
  const amount = parseAmount(input.amount, currency);
  if (amount === null || amount <= 0)
    fail('bad_amount', `amount must be a positive decimal with at most ${currency === 'USD' ? 2 : 3} places.`);
  const network = input.network ?? 'ton';
  if (typeof network !== 'string' || !['ton', 'trc20', 'bep20'].includes(network))
    fail('validation_error', 'network must be ton, trc20 or bep20.');
  if (!NETWORKS_BY_CURRENCY[currency].includes(network)) fail('bad_network', 'TON is accepted only on network ton.');
  if (typeof input.tx_hash !== 'string' || input.tx_hash.trim() === '' || input.tx_hash.length > 200)
    fail('validation_error', 'tx_hash must be a non-empty string.');
  // written as an explorer shows it (with or without 0x, either case, hex or base64): stored canonical
  return { currency, amount, network, txHash: canonicalTxHash(network, input.tx_hash) };
}

/** The top-up minimums (partner-api.md "Activation and top-up rules"): 400 topup_below_minimum below them. */
export function requireTopupMinimum(currency: Currency, amount: number, firstTopup: boolean): void {
  const min = topupMinimum(currency, firstTopup);
  if (amount < min)
    fail('topup_below_minimum', `The ${firstTopup ? 'first ' : ''}${currency} top-up is at least ${formatAmount(min, currency)}.`, {
      minimum: formatAmount(min, currency),
      currency,
    });
}

/**
 * Credits inside an open transaction (also used by deposit matching and resolving). Applies the minimums,
 * activates the partner on the first top-up, and is idempotent by the transaction (network and canonical
 * hash, `txHash` already canonical): the same transaction again, for the same partner and amount, answers
 * 200 with the first top-up and credits nothing; for another partner or amount it is 409
 * tx_already_credited. The unique index of topups (and of the ledger's credit per top-up) refuses a second
 * credit even if this check were skipped.
 */
export function creditInTx(
  tx: Tx,
  deps: Pick<Deps, 'clock' | 'ids' | 'bus'>,
  after: AfterCommit,
  args: { partnerId: number; currency: Currency; amount: number; network: string; txHash: string; source: string; actor: string; requestId?: string },
): TopupResult {
  const existing = topupByTx(tx, txAliases(args));
  if (existing) {
    // (under another network it is the same 32-byte hash: the same transfer, src/domain/tx-hash.ts txAliases)
    const same = existing.partnerId === args.partnerId && existing.currency === args.currency && existing.amount === args.amount;
    if (!same)
      fail('tx_already_credited', `This transaction was already credited as top-up ${existing.topupId}: ${formatAmount(existing.amount, existing.currency)} ${existing.currency} to partner ${existing.partnerId} (network ${existing.network}).`, {
        topup_id: existing.topupId,
        partner_id: existing.partnerId,
        network: existing.network,
        currency: existing.currency,
        amount: formatAmount(existing.amount, existing.currency),
      });
    const p = getPartner(tx, existing.partnerId)!;
    return {
      status: 200,
      body: {
        topup_id: existing.topupId,
        currency: existing.currency,
        amount: formatAmount(existing.amount, existing.currency),
        balance: formatAmount(balanceOf(tx, existing.partnerId, existing.currency), existing.currency),
        status: p.status,
      },
    };
  }
  const partner = getPartner(tx, args.partnerId);
  if (!partner) fail('not_found', 'No such partner.');
  const first = partner.status === 'inactive';
  requireTopupMinimum(args.currency, args.amount, first);
  const now = deps.clock.now();
  const topupId = `tp_${deps.ids.hex(8)}`;
  insertTopup(tx, { topupId, partnerId: args.partnerId, currency: args.currency, amount: args.amount, network: args.network, txHash: args.txHash, source: args.source, createdAt: now });
  const entry = postEntry(tx, { partnerId: args.partnerId, currency: args.currency, kind: 'topup', amount: args.amount, topupId, now });
  if (first) setPartnerStatus(tx, args.partnerId, 'active');
  // The owner hears of every new credit, whoever made it (a repeated tx_hash above credits nothing).
  const event = { partnerId: args.partnerId, topupId, currency: args.currency, amount: formatAmount(args.amount, args.currency), activated: first, ...(args.requestId ? { requestId: args.requestId } : {}) };
  after(() => deps.bus.emit('topup_credited', event));
  audit(tx, now, args.actor, 'topup.credit', String(args.partnerId), { topup_id: topupId, currency: args.currency, amount: args.amount, tx_hash: args.txHash, network: args.network });
  return {
    status: 201,
    body: {
      topup_id: topupId,
      currency: args.currency,
      amount: formatAmount(args.amount, args.currency),
      balance: formatAmount(entry.balanceAfter, args.currency),
      status: 'active',
    },
  };
}

/** What creditTopup uses of the service. */
export type CreditTopupDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'bus'>;

export function creditTopup(deps: CreditTopupDeps, partnerId: number, input: TopupInput, actor: string): TopupResult {
  requirePartner(deps, partnerId);
  const t = parseTopup(input);
  return unitOfWork(deps, (tx, after) =>
    creditInTx(tx, deps, after, { partnerId, currency: t.currency, amount: t.amount, network: t.network, txHash: t.txHash, source: 'operator', actor }),
  );
}
