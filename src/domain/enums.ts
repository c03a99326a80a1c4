/**
 * The enumerations of the contract, in one place: the database schema (`text(..., { enum })`), the zod
 * schemas of the API and the hand-written validators all read these lists.
 */
export const ORDER_TYPES = ['stars', 'premium', 'nft'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const ORDER_STATUSES = ['processing', 'completed', 'partial', 'canceled', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CURRENCIES = ['USD', 'TON'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const PARTNER_STATUSES = ['inactive', 'active'] as const;

export const LEDGER_ENTRY_KINDS = ['topup', 'order_debit', 'order_refund', 'adjustment'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

export const BOT_ROLES = ['owner', 'staff'] as const;
export type BotRole = (typeof BOT_ROLES)[number];

/**
 * Stored states of a top-up request: `credited` is the one the operator API, the bot and the Mini App call
 * `paid`; `expired` is written lazily (an `open` request past its expiry is expired too).
 */
export const TOPUP_REQUEST_STATUSES = ['open', 'credited', 'expired', 'canceled'] as const;
export type TopupRequestStatus = (typeof TOPUP_REQUEST_STATUSES)[number];
export const DEPOSIT_STATUSES = ['pending', 'unmatched', 'credited', 'closed', 'ignored'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

export function isOrderType(x: unknown): x is OrderType {
  return typeof x === 'string' && (ORDER_TYPES as readonly string[]).includes(x);
}

export function isOrderStatus(x: unknown): x is OrderStatus {
  return typeof x === 'string' && (ORDER_STATUSES as readonly string[]).includes(x);
}

export function isCurrency(x: unknown): x is Currency {
  return x === 'USD' || x === 'TON';
}
