import { InlineKeyboard } from 'grammy';
import type { Texts } from '../texts/index.js';
import { depositData, reviewData } from './data.js';

export function reviewKeyboard(t: Texts, orderId: string): InlineKeyboard {
  return new InlineKeyboard().text(t.operator.btnDeliver, reviewData('delivered', orderId)).text(t.operator.btnRefund, reviewData('refunded', orderId));
}

export function depositKeyboard(t: Texts, depositId: string): InlineKeyboard {
  return new InlineKeyboard().text(t.operator.btnCreditDeposit, depositData('credit', depositId)).text(t.operator.btnCloseDeposit, depositData('close', depositId));
}
