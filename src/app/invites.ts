import { fail } from '../domain/errors.js';
import { inTx, type Conn } from '../store/db.js';
import { audit } from '../store/audit-repo.js';
import { botUsersOfPartner, getBotUser, getBotUsername, getInvite, insertInvite, markInviteUsed, upsertBotUser } from '../store/bot-repo.js';
import { BOT_ROLES, type BotRole } from '../domain/enums.js';
import { sha256Hex } from '../domain/secret-hash.js';
import type { Deps } from './deps.js';
import { requirePartner } from './partners.js';

/**
 * Invite codes that link a messenger account to a partner in the bot (operator-api.md section 2 and 4).
 * Only a code's SHA-256 is stored (like API keys and sign-in links): the code is in the answer that made
 * it and nowhere else, not in the database, its WAL or a backup.
 */

export const INVITE_TTL_MS = 24 * 3600 * 1000;

export function isBotRole(v: unknown): v is BotRole {
  return typeof v === 'string' && (BOT_ROLES as readonly string[]).includes(v);
}

/** The deep link that opens the bot with `/start <code>`. */
export function inviteLink(deps: Pick<Deps, 'db'>, code: string): string {
  return `https://t.me/${getBotUsername(deps.db) ?? 'your_bot'}?start=${code}`;
}

/** A new one-time code for the partner, valid 24 h of service clock. */
export function createInvite(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, partnerId: number, role: BotRole, actor = 'operator'): { code: string; link: string } {
  if (!isBotRole(role)) fail('validation_error', 'role must be "owner" or "staff".');
  requirePartner(deps, partnerId);
  // 18 random bytes, base64url: 24 characters of [A-Za-z0-9_-], as Telegram deep links allow.
  const code = deps.ids.token(18);
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    insertInvite(tx, { codeHash: sha256Hex(code), partnerId, role, createdAt: now, expiresAt: now + INVITE_TTL_MS, usedAt: null, usedBy: null });
    // The code is a credential: the audit log names the invite by its first characters only.
    audit(tx, now, actor, 'invite.create', String(partnerId), { role, code_prefix: code.slice(0, 4) });
  });
  return { code, link: inviteLink(deps, code) };
}

export interface Linked {
  partnerId: number;
  role: BotRole;
  /** Where the person was linked before, when the invite took them from there (another partner or role). */
  left?: { partnerId: number; role: BotRole };
}

/**
 * What a code would link to, without spending it (to ask someone linked elsewhere before they redeem it);
 * null for an unknown, used or expired code, alike.
 */
export function previewInvite(deps: Pick<Deps, 'db' | 'clock'>, code: string): Linked | null {
  if (typeof code !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(code)) return null;
  const inv = getInvite(deps.db, sha256Hex(code));
  if (!inv || inv.usedAt !== null || deps.clock.now() >= inv.expiresAt) return null;
  return { partnerId: inv.partnerId, role: inv.role };
}

/**
 * Redeems a code: once, within 24 h of its creation by the service clock. Links (or re-links) the
 * Telegram user to the invite's partner and role. Unknown, used and expired codes all fail alike with
 * `invite_invalid`, so the answer does not tell which codes exist. Someone linked elsewhere (another partner,
 * or their partner with a lesser role) is moved only with `leave` (they were asked: 409
 * invite_moves_account otherwise), and a partner's last owner never leaves it (409 last_owner).
 */
export function redeemInvite(
  deps: Pick<Deps, 'db' | 'clock'>,
  code: string,
  telegramUserId: number,
  chatId: number,
  language: string,
  displayName: string | null = null,
  opts: { leave?: boolean } = {},
): Linked {
  if (typeof code !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(code)) fail('invite_invalid');
  const now = deps.clock.now();
  return inTx(deps.db, (tx) => {
    const hash = sha256Hex(code);
    const inv = getInvite(tx, hash);
    if (!inv || inv.usedAt !== null || now >= inv.expiresAt) fail('invite_invalid');
    const before = getBotUser(tx, telegramUserId);
    const change = before ? linkChange(tx, before, inv) : null;
    if (change?.lastOwner) fail('last_owner', undefined, { partner_id: before!.partnerId });
    if (change?.asks && !opts.leave) fail('invite_moves_account', undefined, { partner_id: before!.partnerId, role: before!.role });
    if (!markInviteUsed(tx, hash, telegramUserId, now)) fail('invite_invalid');
    upsertBotUser(tx, { telegramUserId, chatId, partnerId: inv.partnerId, role: inv.role, language: normaliseLanguage(language), linkedAt: now, displayName });
    audit(tx, now, `telegram:${telegramUserId}`, 'invite.redeem', String(inv.partnerId), {
      role: inv.role,
      code_prefix: code.slice(0, 4),
      ...(change ? { left_partner_id: before!.partnerId, left_role: before!.role } : {}),
    });
    return { partnerId: inv.partnerId, role: inv.role, ...(change ? { left: { partnerId: before!.partnerId, role: before!.role } } : {}) };
  });
}

/**
 * What an invite would change for someone linked already: nothing (the same partner and role: null); a
 * promotion to owner of their partner (taken without asking); or a move to another partner, or down to staff,
 * which is asked first (`asks`), and refused for the partner's last owner (`lastOwner`).
 */
function linkChange(conn: Conn, before: { partnerId: number; role: BotRole; telegramUserId: number }, inv: { partnerId: number; role: BotRole }) {
  if (before.partnerId === inv.partnerId && before.role === inv.role) return null;
  const promotion = before.partnerId === inv.partnerId && inv.role === 'owner';
  const leavesOwnership = before.role === 'owner' && !(before.partnerId === inv.partnerId && inv.role === 'owner');
  const otherOwners = botUsersOfPartner(conn, before.partnerId).filter((u) => u.role === 'owner' && u.telegramUserId !== before.telegramUserId).length;
  return { asks: !promotion, lastOwner: leavesOwnership && otherOwners === 0 };
}

/**
 * An invite as it would apply to this person, before it is used (the bot asks before a move): its partner
 * and role, and where they are linked now; null for an unknown, used or expired code.
 */
export function inviteFor(deps: Pick<Deps, 'db' | 'clock'>, code: string, telegramUserId: number): { partnerId: number; role: BotRole; from: { partnerId: number; role: BotRole } | null; asks: boolean; lastOwner: boolean } | null {
  const inv = previewInvite(deps, code);
  if (!inv) return null;
  const before = getBotUser(deps.db, telegramUserId);
  const change = before ? linkChange(deps.db, before, inv) : null;
  return { partnerId: inv.partnerId, role: inv.role, from: before ? { partnerId: before.partnerId, role: before.role } : null, asks: change?.asks ?? false, lastOwner: change?.lastOwner ?? false };
}

/** `ru…` → `ru`, anything else → `en`. */
export function normaliseLanguage(code: string | undefined | null): 'ru' | 'en' {
  return typeof code === 'string' && code.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}
