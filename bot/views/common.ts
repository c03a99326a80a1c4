import type { Notice } from '../../src/app/notices.js';
import type { Texts } from '../texts/index.js';
import { amount } from './format.js';
import type { ErrorInfo } from './model.js';

/** Messages every chat meets: help, linking, left conversations, balances, /notices, refusals. */

export const roleName = (t: Texts, role: string) => t.shared.role[role] ?? role;

export function help(t: Texts, role: string | null, operator: boolean): string {
  const c = t.common;
  const lines: string[] = [];
  if (role) {
    lines.push(c.helpLinkedAs(roleName(t, role)), ...c.helpPartner);
    if (role === 'owner') lines.push(...c.helpOwner);
    lines.push(c.helpCancel);
  }
  if (operator) lines.push(...(lines.length ? [''] : []), c.helpOperatorTitle, ...c.helpOperator, ...(role ? [] : [c.helpCancel]));
  return lines.join('\n');
}

export const linked = (t: Texts, partner: string, role: string) => t.common.linked(partner, roleName(t, role));

const activity = (t: Texts, command: string) => t.common.activity[command] ?? command;
export const restarted = (t: Texts, command: string) => t.common.restarted(activity(t, command));
export const left = (t: Texts, command: string) => t.common.left(activity(t, command), command);
export const idle = (t: Texts, command: string) => t.common.idle(activity(t, command), command);

/**
 * A conversation stopped because the person lost what it needs (`why`: removed from the team, linked to
 * another partner, or another role), naming the partner; without its name, the general words.
 */
export function accessEnded(t: Texts, partnerName: string | null, command: string, why: 'removed' | 'moved' | 'role'): string {
  if (partnerName === null) return t.common.accessLost;
  const nothing = t.common.nothingDone[command] ?? t.common.nothingDoneOther;
  const say = why === 'removed' ? t.common.accessRemoved : why === 'moved' ? t.common.accessMoved : t.common.accessRole;
  return say(t.common.quoted(partnerName), activity(t, command), nothing);
}

/** A colleague pressed a button of someone else's conversation. */
export const someoneElses = (t: Texts, name: string, command: string) => t.common.someoneElses(name, activity(t, command));

export function balance(t: Texts, usd: string, ton: string, activated: boolean): string {
  return [t.balance.title, t.balance.usd(amount(t.lang, usd)), t.balance.ton(amount(t.lang, ton)), ...(activated ? [] : ['', t.balance.notActivated])].join('\n');
}

/** A notice's line in /notices: its mark and what it is (the team's orders: each one, a digest, or off). */
export interface NoticeItem {
  notice: Notice;
  on: boolean;
  /** For `staff`: how other members' orders are told. */
  mode?: string;
}

const noticeMark = (t: Texts, i: NoticeItem) => (i.mode ? (t.notices.teamMark[i.mode] ?? '🔔') : i.on ? '🔔' : '🔕');
const noticeName = (t: Texts, i: NoticeItem) => (i.mode ? `${t.notices.name[i.notice]} (${t.notices.teamMode[i.mode] ?? i.mode})` : t.notices.name[i.notice]);

/** `elsewhere`: asked in a group, about the caller's notices in the chat where they linked their account. */
export function noticesMenu(t: Texts, items: NoticeItem[], elsewhere = false): string {
  const n = t.notices;
  return [elsewhere ? n.menuTitleElsewhere : n.menuTitle, '', ...items.map((i) => n.menuLine(noticeMark(t, i), noticeName(t, i), n.hint[i.notice])), '', n.menuFooter].join('\n');
}

export const noticeButton = (t: Texts, i: NoticeItem) => `${noticeMark(t, i)} ${noticeName(t, i)}`;

export function noticesSummary(t: Texts, items: NoticeItem[]): string {
  const names = (on: boolean) => items.filter((i) => i.on === on).map((i) => noticeName(t, i)).join(', ') || t.notices.noneOfThem;
  return t.notices.summary(names(true), names(false));
}

/** The figures a refusal names (a minimum, a limit, a price), written as the language writes numbers. */
const FIGURES = ['minimum', 'min', 'max', 'current_price', 'balance'] as const;
function numbersOf(t: Texts, x: Record<string, unknown>): Record<string, unknown> {
  const out = { ...x };
  for (const k of FIGURES) if (typeof x[k] === 'string' || typeof x[k] === 'number') out[k] = amount(t.lang, String(x[k]));
  return out;
}

/** A refusal in words: the bot's own, else the words shared with the Mini App, else its code. */
export function errorText(t: Texts, e: ErrorInfo): string {
  const x = e.extra;
  switch (e.code) {
    case 'insufficient_balance':
      return t.errors.insufficientBalance(String(x.currency), amount(t.lang, String(x.balance)));
    case 'idempotency_key_reuse':
      return t.errors.idempotencyKeyReuse;
    case 'partner_inactive':
      return t.errors.partnerInactive;
    case 'access_lost':
      return t.common.accessLost;
    default:
      return t.shared.error(e.code, numbersOf(t, x)) ?? t.errors.other(e.code);
  }
}
