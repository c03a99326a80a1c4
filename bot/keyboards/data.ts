import { createHash } from 'node:crypto';

/**
 * Callback data of every inline button. Telegram refuses a keyboard with a button whose data is over
 * 64 bytes (BUTTON_DATA_INVALID), so every builder below goes through `fit`, and each part is bounded:
 * - `c:<nonce>:<action>`  a button of one conversation instance (nonce: 8 hex, fresh per conversation);
 *   actions are fixed words, numbers, `ok:<idempotency key>` (the bot's own key, `bot-<Telegram user id>-
 *   <20 hex>`: at most 4 + 16 + 1 + 20 = 41 characters, user ids being below 2^53) and `gg:<gift token>`
 *   (12 characters, never the gift id itself: `giftToken`)
 * - `ol:<page>`            a page of /orders
 * - `os:<order id>`        the status of one order (order ids are the service's: `PA-<seq>` or `pa_<uuid>`)
 * - `rv:d|r:<order id>`    an operator's review outcome (deliver / refund), asked to be confirmed;
 *   `rv:D|R:<order id>` the confirmed outcome, `rv:n:<order id>` "no" (the alert's buttons again)
 * - `dp:c|x|a:<deposit id>` an operator's handling of an unmatched deposit (credit to a partner / close /
 *   correct a partner's balance with an adjustment)
 * - `cl:r|d:<page>[:<id>]` a page of /reviews or /deposits (with the case whose card it leaves)
 * - `co:r|d:<page>:<id>`   a case of that page opened as its card
 * - `nt:<notice>:1|0`      a notice of the chat switched on / off (/notices); `nt:done` closes the settings
 * - `sd`                   "saved it" under a shown key or secret: deletes that message
 * - `rc:a|d|r:<order id>`  a receipt's "Order again", "Details", and back from the details to the receipt
 * - `os:<order id>:<page>` an order of /orders opened in place of its page (◀ Back returns to the page)
 * The longest is a confirmation: `c:` + 8 + `:ok:` + 41 = 55 bytes.
 */
export const CALLBACK_DATA_MAX_BYTES = 64;

/** The data as is; a button that Telegram would refuse is a bug here, not a message that silently fails. */
export function fit(data: string): string {
  const n = Buffer.byteLength(data, 'utf8');
  if (n > CALLBACK_DATA_MAX_BYTES) throw new Error(`callback data of ${n} bytes (at most ${CALLBACK_DATA_MAX_BYTES}): ${data.slice(0, 24)}…`);
  return data;
}

export const convData = (nonce: string, action: string) => fit(`c:${nonce}:${action}`);
export const CONV_DATA = /^c:([0-9a-f]+):(.+)$/;
export const CONFIRM_ACTION = /^ok:(.+)$/;

/**
 * A gift's short token for its button: a gift identifier comes from the market and has no length limit
 * (partner-api.md: "taken from the catalog"), so the button carries 12 characters of its SHA-256 instead,
 * and the press is resolved against the listings of the collection on screen (bot/conversations/gift.ts).
 * 72 bits: two gifts of one collection sharing a token is not a practical concern.
 */
export function giftToken(gift: string): string {
  return createHash('sha256').update(gift).digest('base64url').slice(0, 12);
}
export const GIFT_ACTION = /^gg:([A-Za-z0-9_-]{12})$/;

/** A gift the TON balance cannot pay: its button only answers with a toast (the price in milli-TON). */
export const giftLockedData = (priceMilli: number) => `gl:${priceMilli}`;
export const GIFT_LOCKED_DATA = /^gl:(\d{1,15})$/;

export const ordersPageData = (page: number) => fit(`ol:${page}`);
export const ORDERS_PAGE_DATA = /^ol:(\d{1,4})$/;

/** An order opened from a page of /orders (`page` to go back to; none for /status). */
export const orderStatusData = (orderId: string, page?: number) => fit(`os:${orderId}${page === undefined ? '' : `:${page}`}`);
export const ORDER_STATUS_DATA = /^os:([^:]{1,55})(?::(\d{1,4}))?$/;

export const receiptData = (what: 'again' | 'details' | 'receipt', orderId: string) => fit(`rc:${what[0]}:${orderId}`);
export const RECEIPT_DATA = /^rc:([adr]):(.{1,58})$/;

export const reviewData = (outcome: 'delivered' | 'refunded' | 'no', orderId: string, confirmed = false) =>
  fit(`rv:${outcome === 'no' ? 'n' : confirmed ? (outcome === 'delivered' ? 'D' : 'R') : outcome === 'delivered' ? 'd' : 'r'}:${orderId}`);
export const REVIEW_DATA = /^rv:([drDRn]):(.{1,58})$/;

export type DepositAction = 'credit' | 'close' | 'adjust';
const DEPOSIT_LETTER: Record<DepositAction, string> = { credit: 'c', close: 'x', adjust: 'a' };
export const depositData = (action: DepositAction, depositId: string) => fit(`dp:${DEPOSIT_LETTER[action]}:${depositId}`);
export const DEPOSIT_DATA = /^dp:([cxa]):(.{1,58})$/;
export const depositActionOf = (letter: string): DepositAction => (letter === 'c' ? 'credit' : letter === 'a' ? 'adjust' : 'close');

export const caseListData = (kind: 'r' | 'd', page: number, leaving?: string) => fit(`cl:${kind}:${page}${leaving ? `:${leaving}` : ''}`);
export const CASE_LIST_DATA = /^cl:([rd]):(\d{1,4})(?::(.{1,50}))?$/;
export const caseOpenData = (kind: 'r' | 'd', id: string, page: number) => fit(`co:${kind}:${page}:${id}`);
export const CASE_OPEN_DATA = /^co:([rd]):(\d{1,4}):(.{1,50})$/;

/**
 * `to`: what pressing asks for (so a press on an older copy of the menu sets, rather than flips, the notice):
 * on or off, or for the team's orders `each`, `digest` or `off`.
 */
export const noticeData = (notice: string, to?: boolean | string) => fit(to === undefined ? `nt:${notice}` : `nt:${notice}:${typeof to === 'string' ? to : to ? 1 : 0}`);
export const NOTICE_DATA = /^nt:([a-z]{1,20})(?::([01]|each|digest|off))?$/;

/** Under a shown API key or webhook secret (private chats only): deletes the message once it is saved. */
export const SECRET_SAVED_DATA = 'sd';
