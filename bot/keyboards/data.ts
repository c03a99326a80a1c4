/**
 * Callback data of every inline button (at most 64 bytes each):
 * - `c:<nonce>:<action>`  a button of one conversation instance (the nonce is fresh per conversation);
 *   the order confirmation is `c:<nonce>:ok:<idempotency key>`
 * - `ol:<page>`            a page of /orders
 * - `os:<order id>`        the status of one order
 * - `rv:d|r:<order id>`    an operator's review outcome (deliver / refund), asked to be confirmed;
 *   `rv:D|R:<order id>` the confirmed outcome, `rv:n:<order id>` "no" (the alert's buttons again)
 * - `dp:c|x:<deposit id>`  an operator's handling of an unmatched deposit (credit to a partner / close)
 */
export const convData = (nonce: string, action: string) => `c:${nonce}:${action}`;
export const CONV_DATA = /^c:([0-9a-f]+):(.+)$/;
export const CONFIRM_ACTION = /^ok:(.+)$/;

export const ordersPageData = (page: number) => `ol:${page}`;
export const ORDERS_PAGE_DATA = /^ol:(\d{1,4})$/;

export const orderStatusData = (orderId: string) => `os:${orderId}`;
export const ORDER_STATUS_DATA = /^os:(.{1,60})$/;

export const reviewData = (outcome: 'delivered' | 'refunded' | 'no', orderId: string, confirmed = false) =>
  `rv:${outcome === 'no' ? 'n' : confirmed ? (outcome === 'delivered' ? 'D' : 'R') : outcome === 'delivered' ? 'd' : 'r'}:${orderId}`;
export const REVIEW_DATA = /^rv:([drDRn]):(.{1,58})$/;

export const depositData = (action: 'credit' | 'close', depositId: string) => `dp:${action === 'credit' ? 'c' : 'x'}:${depositId}`;
export const DEPOSIT_DATA = /^dp:([cx]):(.{1,58})$/;
