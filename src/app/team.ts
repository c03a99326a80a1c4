import { fail } from '../domain/errors.js';
import { offsetIso } from '../domain/time-format.js';
import { audit } from '../store/audit-repo.js';
import { deleteBotUser } from '../store/app-repo.js';
import { botUsersOfPartner, getBotUser } from '../store/bot-repo.js';
import { endConversationsOf } from './bot-state.js';
import { inTx } from '../store/db.js';
import type { Deps } from './deps.js';

/** The people linked to a partner (owners and staff), and taking someone off the team. */

export function listTeam(deps: Pick<Deps, 'db'>, partnerId: number) {
  const items = botUsersOfPartner(deps.db, partnerId)
    .sort((a, b) => a.linkedAt - b.linkedAt || a.telegramUserId - b.telegramUserId)
    .map((u) => ({ telegram_id: u.telegramUserId, name: u.displayName, role: u.role, language: u.language, linked_at: offsetIso(u.linkedAt) }));
  return { items, count: items.length };
}

/** Unlinks `telegramUserId` from the partner (ending their open bot flows): 404 for someone not on this team, 409 for oneself. */
export function unlinkMember(deps: Pick<Deps, 'db' | 'clock'>, partnerId: number, telegramUserId: number, actorTelegramId: number) {
  if (!Number.isSafeInteger(telegramUserId) || telegramUserId <= 0) fail('not_found', 'No such team member.');
  if (telegramUserId === actorTelegramId) fail('cannot_unlink_self');
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    const u = getBotUser(tx, telegramUserId);
    if (!u || u.partnerId !== partnerId) fail('not_found', 'No such team member.');
    deleteBotUser(tx, telegramUserId);
    // Their open bot flows end with the link: an old menu of theirs can no longer issue a key or order.
    endConversationsOf(tx, telegramUserId);
    audit(tx, now, `telegram:${actorTelegramId}`, 'team.unlink', String(partnerId), { telegram_id: telegramUserId, role: u.role });
  });
  return { unlinked: telegramUserId };
}
