import type { Texts } from '../texts/index.js';
import { roleName } from './common.js';

/** /team, the joined notice, and who placed an order (src/app/notices.ts orderPlacer). */

export interface Member {
  telegramId: number;
  name: string | null;
  role: string;
  linkedAt: string;
}

export type Placer = { via: 'bot'; name: string | null } | { via: 'app' } | { via: 'api' };

export const memberName = (t: Texts, m: { name: string | null; telegramId: number }) => m.name ?? t.team.unnamed(m.telegramId);

export function list(t: Texts, partner: string, members: Member[], me: number): string {
  const w = t.team;
  const lines = members.map((m, i) => w.line(i + 1, memberName(t, m), m.telegramId === me ? w.you(roleName(t, m.role)) : roleName(t, m.role), m.linkedAt.slice(0, 10)));
  const others = members.some((m) => m.telegramId !== me);
  return [w.title(partner, members.length), ...lines, '', ...(others ? [w.removeHint] : []), w.inviteHint].join('\n');
}

/** A one-time invite link, made in a private chat. */
export const inviteMade = (t: Texts, partner: string, role: string, link: string) => t.team.inviteMade(partner, roleName(t, role), link);

export const btnRemove = (t: Texts, m: Member) => t.team.btnRemove(memberName(t, m));
export const confirmRemove = (t: Texts, m: Member) => t.team.confirmRemove(memberName(t, m), roleName(t, m.role));
export const removed = (t: Texts, m: Member) => t.team.removed(memberName(t, m));
export const joined = (t: Texts, who: string, partner: string, role: string) => t.team.joined(who, t.common.quoted(partner), roleName(t, role));
export const nowRole = (t: Texts, who: string, partner: string, role: string) => t.team.nowRole(who, t.common.quoted(partner), roleName(t, role));
export const leftForOther = (t: Texts, who: string, partner: string) => t.team.leftForOther(who, t.common.quoted(partner));

export function orderedBy(t: Texts, p: Placer): string {
  if (p.via === 'api') return t.team.placedOverApi;
  if (p.via === 'app') return t.team.placedInApp;
  return t.team.orderedBy(p.name ?? t.team.formerMember);
}
