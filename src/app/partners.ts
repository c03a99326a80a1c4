import { fail } from '../domain/errors.js';
import { formatAmount } from '../domain/money.js';
import { eventsTaken } from '../domain/webhook-delivery.js';
import { offsetIso } from '../domain/time-format.js';
import { inTx } from '../store/db.js';
import { audit } from '../store/audit-repo.js';
import { balancesOf } from '../store/ledger-repo.js';
import { findPartnersByName, getPartner, insertPartner, listKeys, type PartnerRow } from '../store/partners-repo.js';
import type { Deps } from './deps.js';

/** Operator use cases for partner accounts. */

/** A new partner's name from a request body (the operator API's POST /partners and the console's). */
export function partnerNameOf(body: Record<string, unknown>): string {
  const name = body.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) fail('validation_error', 'name must be a non-empty string.');
  return name.trim();
}

export function createPartner(deps: Pick<Deps, 'db' | 'clock'>, name: string, actor: string) {
  const now = deps.clock.now();
  const row = inTx(deps.db, (tx) => {
    const p = insertPartner(tx, name, now);
    audit(tx, now, actor, 'partner.create', String(p.partnerId), { name });
    return p;
  });
  return partnerView(deps, row.partnerId);
}

export function requirePartner(deps: Pick<Deps, 'db'>, partnerId: number): PartnerRow {
  const p = Number.isSafeInteger(partnerId) ? getPartner(deps.db, partnerId) : undefined;
  if (!p) fail('not_found', 'No such partner.');
  return p;
}

/**
 * What every partner action needs besides a valid key (partner-api.md Authentication): an activated account
 * (`partner_inactive`) and the program switched on (`partner_program_unavailable`). The API's auth hook and
 * the bot both call this.
 */
export function requirePartnerAccess(deps: Pick<Deps, 'db' | 'settings'>, partnerId: number): void {
  if (getPartner(deps.db, partnerId)?.status !== 'active') fail('partner_inactive');
  if (!deps.settings.get().program_available) fail('partner_program_unavailable');
}

/**
 * The checks the partner API's authentication makes, for a partner known by other means (the bot's linked
 * account): the partner exists (`not_found`), is activated and the program is on. Every ordering use case
 * (createOrder, the quotes) makes it itself.
 */
export function requireOrderingAllowed(deps: Pick<Deps, 'db' | 'settings'>, partnerId: number): void {
  requirePartner(deps, partnerId);
  requirePartnerAccess(deps, partnerId);
}

/** Whether the partner's account is activated (first top-up made). */
export function partnerActive(deps: Pick<Deps, 'db'>, partnerId: number): boolean {
  return requirePartner(deps, partnerId).status === 'active';
}

export function partnerView(deps: Pick<Deps, 'db'>, partnerId: number) {
  const p = requirePartner(deps, partnerId);
  const balances = balancesOf(deps.db, partnerId);
  return {
    partner_id: p.partnerId,
    name: p.name,
    status: p.status,
    balances: { USD: formatAmount(balances.USD, 'USD'), TON: formatAmount(balances.TON, 'TON') },
    keys: listKeys(deps.db, partnerId).map((k) => ({
      key_id: k.keyId,
      prefix: k.prefix,
      ip_whitelist: k.ipWhitelist,
      created_at: offsetIso(k.createdAt),
      revoked_at: k.revokedAt === null ? null : offsetIso(k.revokedAt),
    })),
    webhook: { url: p.webhookUrl, has_secret: p.webhookSecretEnc !== null, events: [...eventsTaken(p.webhookEvents)] },
    created_at: offsetIso(p.createdAt),
  };
}

export const PARTNER_SEARCH_MAX = 8;

export interface PartnerMatch {
  partner_id: number;
  name: string;
  status: 'active' | 'inactive';
}

/**
 * Partners for an operator who knows part of the name (or the number, as `42`, `#42` or `№42`): the
 * partner with that number first, then names containing the text in any case, those starting with it
 * first. At most `limit`; `more` says that others match too (the operator should type more of the name).
 */
export function searchPartners(deps: Pick<Deps, 'db'>, query: string, limit = PARTNER_SEARCH_MAX): { items: PartnerMatch[]; more: boolean } {
  const q = query.trim();
  if (!q || q.length > 100) fail('validation_error', 'query: 1 to 100 characters.', { field: 'query' });
  const found: PartnerRow[] = [];
  const byId = /^(?:#|№)?\s*(\d{1,9})$/.exec(q);
  const exact = byId ? getPartner(deps.db, Number(byId[1])) : undefined;
  if (exact) found.push(exact);
  for (const p of findPartnersByName(deps.db, q, limit + 1)) if (p.partnerId !== exact?.partnerId) found.push(p);
  return {
    items: found.slice(0, limit).map((p) => ({ partner_id: p.partnerId, name: p.name, status: p.status })),
    more: found.length > limit,
  };
}
