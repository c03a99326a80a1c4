import { InlineKeyboard } from 'grammy';
import type { Texts } from '../texts/index.js';
import { reviewData } from './data.js';

export function reviewKeyboard(t: Texts, orderId: string): InlineKeyboard {
  return new InlineKeyboard().text(t.operator.btnDeliver, reviewData('delivered', orderId)).text(t.operator.btnRefund, reviewData('refunded', orderId));
}
