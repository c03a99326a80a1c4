import { orderOrigin } from '../domain/order-origin.js';
import {
  allBotUsers,
  botUsersInChat,
  botUsersOfPartner,
  getBotUser,
  getDigestAt,
  getMutedNotices,
  getTeamNoticeMode,
  getWebhookNoticeAt,
  setDigestAt,
  setMutedNotices,
  setTeamNoticeMode,
  setWebhookNoticeAt,
} from '../store/bot-repo.js';
import { getOrder } from '../store/orders-repo.js';
import type { Deps } from './deps.js';
import { normaliseLanguage } from './invites.js';

/**
 * Which notices a partner's linked chat receives: the rule of who hears of what, and each chat's own
 * setting (the bot's /notices).
 *
 * - Order outcomes: `completed`, and `failed` (a failure and its refund are one message). An order placed
 *   from the chat itself is told by those two alone; orders of others also need `staff` (placed by another
 *   team member in the bot or in the dashboard) or `api` (placed over the partner API).
 * - Owners' news, for owners' chats only: `topup` (a top-up credited) and `webhook` (their webhook server
 *   did not take an event after its last retry; told at most once a day per partner, so that a server that
 *   is down does not bring one message per order).
 *
 * - Low balance: owners' chats, whenever an order takes a balance below its threshold
 *   (src/app/balance-alerts.ts); the threshold itself (/alerts) is the switch, so it is not in this list.
 *
 * A chat stores the notices it switched off: a chat that never changed anything, and a notice added later,
 * get everything, as before the setting existed. Orders of other team members (`staff`) have three ways,
 * `TeamMode`: each one told (the default for staff), a daily digest of the completed ones (the default for
 * owners; their failures are still told one by one), or none.
 */

export const NOTICES = ['completed', 'failed', 'staff', 'api', 'topup', 'webhook'] as const;
export type Notice = (typeof NOTICES)[number];
/** The notices only owners get (and may switch). */
export const OWNER_NOTICES: readonly Notice[] = ['topup', 'webhook'];
/** The shortest pause between two "your webhook gave up" notices of one partner. */
export const WEBHOOK_NOTICE_EVERY_MS = 24 * 3600_000;

export type NoticeSettings = Record<Notice, boolean>;
export const TEAM_MODES = ['each', 'digest', 'off'] as const;
export type TeamMode = (typeof TEAM_MODES)[number];
export const isTeamMode = (s: string): s is TeamMode => (TEAM_MODES as readonly string[]).includes(s);
export interface NoticeChat {
  chatId: number;
  language: 'ru' | 'en';
}

export function isNotice(s: string): s is Notice {
  return (NOTICES as readonly string[]).includes(s);
}

export function chatNotices(deps: Pick<Deps, 'db'>, chatId: number): NoticeSettings {
  const muted = new Set(getMutedNotices(deps.db, chatId));
  return Object.fromEntries(NOTICES.map((n) => [n, !muted.has(n)])) as NoticeSettings;
}

/** Switches one notice of a chat on or off; answers the chat's settings after the change. */
export function setChatNotice(deps: Pick<Deps, 'db' | 'clock'>, chatId: number, notice: Notice, on: boolean): NoticeSettings {
  const muted = new Set(getMutedNotices(deps.db, chatId));
  if (on) muted.delete(notice);
  else muted.add(notice);
  setMutedNotices(deps.db, chatId, NOTICES.filter((n) => muted.has(n)), deps.clock.now());
  return chatNotices(deps, chatId);
}

/**
 * How a chat hears of orders by other team members: as chosen in /notices; else `off` when `staff` was
 * switched off before the modes existed; else a daily digest for an owner's chat and each one for staff.
 */
export function teamMode(deps: Pick<Deps, 'db'>, chatId: number, owner: boolean): TeamMode {
  const stored = getTeamNoticeMode(deps.db, chatId);
  if (stored !== undefined && isTeamMode(stored)) return stored;
  if (getMutedNotices(deps.db, chatId).includes('staff')) return 'off';
  return owner ? 'digest' : 'each';
}

/** Sets how a chat hears of other team members' orders (/notices). */
export function setTeamMode(deps: Pick<Deps, 'db' | 'clock'>, chatId: number, mode: TeamMode): void {
  setTeamNoticeMode(deps.db, chatId, mode, deps.clock.now());
  // the list of switched-off notices agrees with it
  const muted = new Set(getMutedNotices(deps.db, chatId));
  if (mode === 'off') muted.add('staff');
  else muted.delete('staff');
  setMutedNotices(deps.db, chatId, NOTICES.filter((n) => muted.has(n)), deps.clock.now());
}

/** Whether the chat's account is an owner (its team mode's default). */
export function chatHasOwner(deps: Pick<Deps, 'db'>, chatId: number, partnerId: number): boolean {
  return botUsersOfPartner(deps.db, partnerId).some((u) => u.chatId === chatId && u.role === 'owner');
}

/** The partner's linked chats: each once, with its language, whether an owner is linked there, and who. */
function linkedChats(deps: Pick<Deps, 'db'>, partnerId: number) {
  const chats = new Map<number, NoticeChat & { owner: boolean; users: number[] }>();
  for (const u of botUsersOfPartner(deps.db, partnerId)) {
    const c = chats.get(u.chatId) ?? { chatId: u.chatId, language: normaliseLanguage(u.language), owner: false, users: [] };
    c.owner ||= u.role === 'owner';
    c.users.push(u.telegramUserId);
    chats.set(u.chatId, c);
  }
  return [...chats.values()];
}

const plain = (c: NoticeChat): NoticeChat => ({ chatId: c.chatId, language: c.language });

/**
 * The chats to tell about an order event. One message per outcome: `order.refunded` comes with
 * `order.failed` for every refund (domain/order-machine.ts), and the failure message says that the money is
 * back, so the refund itself is told to nobody.
 */
export function orderNoticeChats(deps: Pick<Deps, 'db'>, partnerId: number, orderId: string, event: 'order.completed' | 'order.failed' | 'order.refunded'): NoticeChat[] {
  if (event === 'order.refunded') return [];
  const order = getOrder(deps.db, orderId);
  if (!order || order.partnerId !== partnerId) return [];
  const kind: Notice = event === 'order.completed' ? 'completed' : 'failed';
  const origin = orderOrigin(order.idempotencyKey);
  return linkedChats(deps, partnerId)
    .filter((c) => {
      const s = chatNotices(deps, c.chatId);
      if (!s[kind]) return false;
      const own = origin.by === 'bot' && origin.telegramUserId !== null && c.users.includes(origin.telegramUserId);
      if (own) return true;
      if (origin.by === 'api') return s.api;
      // another member's: one by one, or (completions) in the daily digest
      const mode = teamMode(deps, c.chatId, c.owner);
      return mode === 'each' || (mode === 'digest' && kind === 'failed');
    })
    .map(plain);
}

/**
 * The chats to tell that an order went to a manual check by support: the chat it was placed from, whatever
 * its settings (it was promised word of the outcome), and owners' chats that hear of failed orders of
 * this origin (`failed`, and `staff` or `api` for an order placed by someone else). The bot tells the same
 * chats the outcome.
 */
export function reviewNoticeChats(deps: Pick<Deps, 'db'>, partnerId: number, orderId: string): NoticeChat[] {
  const order = getOrder(deps.db, orderId);
  if (!order || order.partnerId !== partnerId) return [];
  const origin = orderOrigin(order.idempotencyKey);
  return linkedChats(deps, partnerId)
    .filter((c) => {
      const own = origin.by === 'bot' && origin.telegramUserId !== null && c.users.includes(origin.telegramUserId);
      if (own) return true;
      if (!c.owner) return false;
      const s = chatNotices(deps, c.chatId);
      return s.failed && (origin.by === 'api' ? s.api : s.staff);
    })
    .map(plain);
}

/** The owners' chats to tell that a top-up was credited. */
export function topupNoticeChats(deps: Pick<Deps, 'db'>, partnerId: number): NoticeChat[] {
  return linkedChats(deps, partnerId)
    .filter((c) => c.owner && chatNotices(deps, c.chatId).topup)
    .map(plain);
}

/**
 * The owners' chats to tell that the partner's webhook gave up on an event; none when they were told less
 * than a day ago (the next one is due a day after the last). Claims the notice: call it once per give-up.
 */
export function webhookNoticeChats(deps: Pick<Deps, 'db' | 'clock'>, partnerId: number): NoticeChat[] {
  const now = deps.clock.now();
  const last = getWebhookNoticeAt(deps.db, partnerId);
  if (last !== undefined && now - last < WEBHOOK_NOTICE_EVERY_MS) return [];
  const chats = linkedChats(deps, partnerId).filter((c) => c.owner && chatNotices(deps, c.chatId).webhook);
  if (chats.length) setWebhookNoticeAt(deps.db, partnerId, now);
  return chats.map(plain);
}

/** The owners' chats to tell that an order took a balance below its low-balance threshold. */
export function balanceLowNoticeChats(deps: Pick<Deps, 'db'>, partnerId: number): NoticeChat[] {
  return linkedChats(deps, partnerId)
    .filter((c) => c.owner)
    .map(plain);
}

/** A chat that hears of other team members' completed orders in a daily digest, for one partner. */
export interface DigestChat extends NoticeChat {
  partnerId: number;
  /** The accounts linked in it (their own orders are told one by one, not in the digest). */
  users: number[];
}

/** Every chat whose team mode is `digest`, per partner linked there. */
export function digestChats(deps: Pick<Deps, 'db'>): DigestChat[] {
  const chats = new Map<string, DigestChat & { owner: boolean }>();
  for (const u of allBotUsers(deps.db)) {
    const key = `${u.chatId}:${u.partnerId}`;
    const c = chats.get(key) ?? { chatId: u.chatId, partnerId: u.partnerId, language: normaliseLanguage(u.language), users: [], owner: false };
    c.owner ||= u.role === 'owner';
    c.users.push(u.telegramUserId);
    chats.set(key, c);
  }
  return [...chats.values()].filter((c) => teamMode(deps, c.chatId, c.owner) === 'digest').map(({ owner: _, ...c }) => c);
}

/** A digest is sent at most this often per chat. */
export const DIGEST_EVERY_MS = 24 * 3600_000;

/**
 * Claims a chat's daily digest when it is due (a day after the last, or after the chat was linked): the start
 * of the window it covers (it ends now), or null. Claimed before it is sent: two runs never send one twice.
 */
export function claimDigest(deps: Pick<Deps, 'db' | 'clock'>, chatId: number): number | null {
  const now = deps.clock.now();
  const last = getDigestAt(deps.db, chatId) ?? Math.min(...botUsersInChat(deps.db, chatId).map((u) => u.linkedAt), now);
  if (now - last < DIGEST_EVERY_MS) return null;
  setDigestAt(deps.db, chatId, now);
  return last;
}

/** The owners' chats to tell that someone joined the team: every owner's but the newcomer's own. */
export function joinNoticeChats(deps: Pick<Deps, 'db'>, partnerId: number, joinedUserId: number): NoticeChat[] {
  const chats = new Map<number, NoticeChat>();
  for (const u of botUsersOfPartner(deps.db, partnerId))
    if (u.role === 'owner' && u.telegramUserId !== joinedUserId) chats.set(u.chatId, { chatId: u.chatId, language: normaliseLanguage(u.language) });
  return [...chats.values()];
}

/**
 * Who placed an order, for its notices: a person in the bot (by the name the team list shows; null when
 * they are no longer linked), the dashboard (its orders name no person in their key), or the partner API.
 */
export type OrderPlacer = { via: 'bot'; telegramUserId: number | null; name: string | null } | { via: 'app' } | { via: 'api' };

export function orderPlacer(deps: Pick<Deps, 'db'>, orderId: string): OrderPlacer {
  const order = getOrder(deps.db, orderId);
  const origin = order ? orderOrigin(order.idempotencyKey) : { by: 'api' as const };
  if (origin.by !== 'bot') return { via: origin.by };
  const u = origin.telegramUserId === null ? undefined : getBotUser(deps.db, origin.telegramUserId);
  return { via: 'bot', telegramUserId: origin.telegramUserId, name: u && u.partnerId === order?.partnerId ? u.displayName : null };
}
