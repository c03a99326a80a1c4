import type { InlineKeyboardButton } from 'grammy/types';
import type { Texts } from '../texts/index.js';
import { receiptData } from './data.js';

/** Under a receipt: "Order again" and "Details" (in the details: "Order again" and back to the receipt). */
export function receiptRows(t: Texts, orderId: string, details = false): InlineKeyboardButton[][] {
  return [
    [
      { text: t.notify.btnOrderAgain, callback_data: receiptData('again', orderId) },
      details ? { text: t.notify.btnReceipt, callback_data: receiptData('receipt', orderId) } : { text: t.notify.btnDetails, callback_data: receiptData('details', orderId) },
    ],
  ];
}
