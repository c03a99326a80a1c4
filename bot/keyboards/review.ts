import { InlineKeyboard } from 'grammy';
import type { Texts } from '../texts/index.js';
import { depositData, reviewData } from './data.js';

export function reviewKeyboard(t: Texts, orderId: string): InlineKeyboard {
  return new InlineKeyboard().text(t.operator.btnDeliver, reviewData('delivered', orderId)).text(t.operator.btnRefund, reviewData('refunded', orderId));
}

/** "Are you sure?": the outcome moves money, so it is pressed twice. */
export function reviewConfirmKeyboard(t: Texts, outcome: 'delivered' | 'refunded', orderId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(outcome === 'delivered' ? t.operator.btnSureDeliver : t.operator.btnSureRefund, reviewData(outcome, orderId, true))
    .text(t.operator.btnNotSure, reviewData('no', orderId));
}

export function depositKeyboard(t: Texts, depositId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t.operator.btnCreditDeposit, depositData('credit', depositId))
    .text(t.operator.btnCloseDeposit, depositData('close', depositId))
    .row()
    .text(t.operator.btnAdjustDeposit, depositData('adjust', depositId));
}
