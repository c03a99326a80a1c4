import { InlineKeyboard } from 'grammy';
import type { Notice, NoticeSettings } from '../../src/app/notices.js';
import type { Texts } from '../texts/index.js';
import { noticeData } from './data.js';

/** One button per notice the user may switch (its state first; pressing asks for the other), then Done. */
export function noticesKeyboard(t: Texts, shown: readonly Notice[], s: NoticeSettings): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const n of shown) kb.text(`${s[n] ? '🔔' : '🔕'} ${t.notices.name[n]}`, noticeData(n, !s[n])).row();
  return kb.text(t.notices.btnDone, noticeData('done'));
}
