import { z } from 'zod';
import { BOT_ROLES } from '../../domain/enums.js';
import { formatAmount } from '../../domain/money.js';
import { offsetIso } from '../../domain/time-format.js';
import { partnersPage } from '../../store/console-repo.js';
import { inTx } from '../../store/db.js';
import { createInvite } from '../invites.js';
import { decodeCursor, encodeCursor, parseLimit } from '../paging.js';
import { createPartner, partnerNameOf } from '../partners.js';
import { parseOrFail } from '../requests/parse.js';
import type { Deps } from '../deps.js';

/** The console's partners: a searchable list, and onboarding (a partner with its owner's invite). */

export function listPartnersForOperator(deps: Pick<Deps, 'db'>, q: Record<string, unknown>) {
  const needle = typeof q.q === 'string' ? q.q.trim().slice(0, 200) : undefined;
  const before = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'p');
  const limit = parseLimit(q.limit, 50, 200);
  const rows = partnersPage(deps.db, needle || undefined, before, limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({
      partner_id: r.partnerId,
      name: r.name,
      status: r.status,
      balances: { USD: formatAmount(Number(r.usd ?? 0), 'USD'), TON: formatAmount(Number(r.ton ?? 0), 'TON') },
      created_at: offsetIso(r.createdAt),
    })),
    next_cursor: rows.length > limit ? encodeCursor('p', page[page.length - 1].partnerId) : null,
  };
}

/**
 * A new partner (inactive, zero balances, as the operator API's POST /partners makes it) and a single-use
 * owner invite for it, in one transaction: the operator hands the invite's t.me link (or its QR code) to
 * the partner's owner, who links their Telegram account with it in the bot.
 */
export function onboardPartner(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, body: Record<string, unknown>, actor: string) {
  const name = partnerNameOf(body);
  return inTx(deps.db, () => {
    const p = createPartner(deps, name, actor);
    const invite = createInvite(deps, p.partner_id, 'owner', actor);
    return { partner_id: p.partner_id, name: p.name, status: p.status, invite };
  });
}

const inviteSchema = z.object({ role: z.enum(BOT_ROLES) }).strict();

/** One more invite for a partner (the operator API's POST /partners/{id}/invites). */
export function inviteForPartner(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, partnerId: number, body: Record<string, unknown>, actor: string) {
  const { role } = parseOrFail(inviteSchema, body);
  return createInvite(deps, partnerId, role, actor);
}
