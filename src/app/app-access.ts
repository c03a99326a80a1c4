import { fail } from '../domain/errors.js';
import { validateInitData } from '../domain/init-data.js';
import { grantKey } from '../domain/secret-hash.js';
import { audit } from '../store/audit-repo.js';
import { inTx } from '../store/db.js';
import { putGrant, readGrant, sweepGrants, takeGrant, dropGrant } from '../store/app-repo.js';
import { findLink, rememberProfile, type BotLink } from './bot-users.js';
import { requirePartner } from './partners.js';
import { displayName } from '../domain/display-name.js';
import type { Deps } from './deps.js';
import { isOperator } from './operator/access.js';

/**
 * Who is calling the Mini App API: a Telegram user proven by signed initData, or by a session cookie from
 * a one-time sign-in link that the bot gave (for a desktop browser). The user maps to a partner and role
 * exactly as in the bot (`findLink`), on every request, so an unlinked user loses access at once.
 */

export const SIGNIN_TTL_MS = 10 * 60_000;
export const SESSION_TTL_MS = 12 * 3600_000;
const SIGNIN_PREFIX = 'app.signin:';
const SESSION_PREFIX = 'app.session:';

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

export interface AppCaller {
  telegramUserId: number;
  via: 'tma' | 'cookie';
  languageCode?: string;
  /** How Telegram names the user (initData only: a cookie session carries no profile). */
  displayName?: string | null;
}

/** The caller of `Authorization: tma <initData>`; 401 unauthorized for missing, tampered, expired or foreign data. */
export function callerFromInitData(deps: Pick<Deps, 'clock' | 'config'>, raw: string): AppCaller {
  const token = deps.config.TELEGRAM_BOT_TOKEN;
  if (!token) fail('unauthorized', 'The Mini App needs TELEGRAM_BOT_TOKEN.');
  const r = validateInitData(raw, token, deps.clock.now(), deps.config.APP_INIT_DATA_MAX_AGE_SECONDS);
  if (!r.ok) {
    const why = { malformed: 'Malformed init data.', bad_hash: 'The init data signature does not verify.', expired: 'The init data is too old: reopen the app.', no_user: 'The init data names no user.' };
    fail('unauthorized', why[r.reason]);
  }
  return { telegramUserId: r.user.id, via: 'tma', languageCode: r.user.language_code, displayName: displayName(r.user) };
}

/** The caller of a session cookie; 401 when unknown or expired. */
export function callerFromSession(deps: Pick<Deps, 'db' | 'clock'>, token: string): AppCaller {
  if (!TOKEN.test(token)) fail('unauthorized', 'Invalid session. Sign in again.');
  const g = readGrant(deps.db, grantKey(SESSION_PREFIX, token));
  if (!g || g.expiresAt <= deps.clock.now()) fail('unauthorized', 'The session has expired. Sign in again.');
  return { telegramUserId: g.telegramUserId, via: 'cookie' };
}

/** The linked partner and role of a caller; 403 not_linked for a user who is not linked. */
export function linkOf(deps: Pick<Deps, 'db'>, caller: AppCaller): BotLink {
  const link = findLink(deps, caller.telegramUserId);
  if (!link) fail('not_linked');
  return link;
}

/** A one-time sign-in link for a linked user (the bot's /app): single use, valid 10 minutes. */
export function createSignInLink(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'ids'>, telegramUserId: number): { token: string; url: string; expiresAt: number } {
  const now = deps.clock.now();
  const token = deps.ids.token(24);
  inTx(deps.db, (tx) => {
    sweepGrants(tx, SIGNIN_PREFIX, now);
    putGrant(tx, grantKey(SIGNIN_PREFIX, token), { telegramUserId, expiresAt: now + SIGNIN_TTL_MS }, now);
    audit(tx, now, `telegram:${telegramUserId}`, 'app.signin_link', null, {});
  });
  // In the fragment: never sent to a server, so link previews and logs cannot spend or see it.
  return { token, url: `${deps.config.publicBaseUrl}/app/#signin=${token}`, expiresAt: now + SIGNIN_TTL_MS };
}

/**
 * Whom a sign-in link signs in as, without spending it: the page asks "Sign in as <name>?" before it
 * redeems, so that a link someone else sent cannot quietly put the reader in that person's account.
 * 401 for an unknown, used or expired link, as redeeming.
 */
export function previewSignIn(deps: Pick<Deps, 'db' | 'clock'>, token: unknown): { telegramUserId: number; displayName: string | null; partnerName: string | null } {
  if (typeof token !== 'string' || !TOKEN.test(token)) fail('unauthorized', 'The sign-in link is invalid, used or expired.');
  const g = readGrant(deps.db, grantKey(SIGNIN_PREFIX, token));
  if (!g || g.expiresAt <= deps.clock.now()) fail('unauthorized', 'The sign-in link is invalid, used or expired.');
  const link = findLink(deps, g.telegramUserId);
  return { telegramUserId: g.telegramUserId, displayName: link?.displayName ?? null, partnerName: link ? requirePartner(deps, link.partnerId).name : null };
}

/** Spends a sign-in link and opens a 12 h session; 401 for an unknown, used or expired link. */
export function redeemSignIn(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, token: unknown): { session: string; telegramUserId: number; expiresAt: number } {
  if (typeof token !== 'string' || !TOKEN.test(token)) fail('unauthorized', 'The sign-in link is invalid, used or expired.');
  const now = deps.clock.now();
  const session = deps.ids.token(32);
  const r = inTx(deps.db, (tx) => {
    const g = takeGrant(tx, grantKey(SIGNIN_PREFIX, token));
    if (!g || g.expiresAt <= now) return null;
    sweepGrants(tx, SESSION_PREFIX, now);
    putGrant(tx, grantKey(SESSION_PREFIX, session), { telegramUserId: g.telegramUserId, expiresAt: now + SESSION_TTL_MS }, now);
    audit(tx, now, `telegram:${g.telegramUserId}`, 'app.signin', null, {});
    return g;
  });
  if (!r) fail('unauthorized', 'The sign-in link is invalid, used or expired.');
  return { session, telegramUserId: r.telegramUserId, expiresAt: now + SESSION_TTL_MS };
}

export function endSession(deps: Pick<Deps, 'db'>, token: string): void {
  if (TOKEN.test(token)) dropGrant(deps.db, grantKey(SESSION_PREFIX, token));
}

/**
 * GET /api/app/v1/session: who the caller is to the service. The app's first call, so it also keeps the
 * person's name current for the team list from what Telegram's initData says, as the bot's updates do.
 */
export function appSession(deps: Pick<Deps, 'db' | 'config'>, caller: AppCaller) {
  const operator = isOperator(deps.config, caller.telegramUserId);
  // an operator need not belong to a partner; anyone else must (403 not_linked)
  const link = operator ? findLink(deps, caller.telegramUserId) : linkOf(deps, caller);
  if (!link) return { user: { telegram_id: caller.telegramUserId, role: null, operator }, partner: null };
  const p = requirePartner(deps, link.partnerId);
  if (caller.via === 'tma') rememberProfile(deps, link, { languageCode: caller.languageCode, displayName: caller.displayName ?? null });
  return {
    user: { telegram_id: link.telegramUserId, role: link.role, operator },
    partner: { partner_id: p.partnerId, name: p.name, status: p.status },
  };
}
