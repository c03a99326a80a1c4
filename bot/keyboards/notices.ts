import { InlineKeyboard } from 'grammy';
import { TEAM_MODES, type TeamMode } from '../../src/app/notices.js';
import type { Texts } from '../texts/index.js';
import type { NoticeItem } from '../views/common.js';
import { noticeButton } from '../views/common.js';
import { noticeData } from './data.js';

/** The team's orders go each one → a daily digest → off → each one. */
export const nextTeamMode = (mode: TeamMode): TeamMode => TEAM_MODES[(TEAM_MODES.indexOf(mode) + 1) % TEAM_MODES.length];

/** One button per notice the user may switch (its state first; pressing asks for the next), then Done. */
export function noticesKeyboard(t: Texts, items: NoticeItem[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const i of items) kb.text(noticeButton(t, i), i.mode ? noticeData(i.notice, nextTeamMode(i.mode as TeamMode)) : noticeData(i.notice, !i.on)).row();
  return kb.text(t.notices.btnDone, noticeData('done'));
}
