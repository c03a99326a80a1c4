import type { DepositView } from '../../src/app/deposits/view.js';
import type { FundingInfo } from '../../src/app/funding.js';

/** The fields of an order (partner-api.md "Order") that messages show. */
export interface OrderInfo {
  order_id: string;
  /** The short number people see and type (`PA-100005`), for gift orders too (src/domain/order-number.ts). */
  number: string;
  type: string;
  status: string;
  partner_price: string;
  currency: string;
  quantity: number;
  recipient: string;
  created_at: string;
  completed_at: string | null;
  refunded: boolean;
  /** A gift order's gift as "Name #num". */
  gift: string | null;
  /** A delivered gift's public page (t.me/nft/…). */
  giftUrl: string | null;
  /** Why a gift order failed (partner-api.md `failure.reason`). */
  failureReason: string | null;
  /** Support is checking it now (manual review): it reads so in every list, not "in progress". */
  inReview: boolean;
}

/** An order as its receipt shows it: also the balance after its debit and after its refund, and whether support checked it. */
export interface ReceiptInfo extends OrderInfo {
  balanceAfter: string | null;
  balanceAfterRefund: string | null;
  /** It went through a manual check by support. */
  checked: boolean;
}

export function orderInfo(o: Record<string, unknown>, number?: string, inReview = false): OrderInfo {
  return {
    inReview,
    order_id: String(o.order_id),
    number: number ?? String(o.order_id),
    type: String(o.type),
    status: String(o.status),
    partner_price: String(o.partner_price),
    currency: String(o.currency),
    quantity: Number(o.quantity),
    recipient: String(o.recipient),
    created_at: String(o.created_at),
    completed_at: o.completed_at == null ? null : String(o.completed_at),
    refunded: o.refunded === true,
    gift: isObj(o.gift) ? `${String(o.gift.name)} #${String(o.gift.num)}` : null,
    giftUrl: isObj(o.delivery) && typeof o.delivery.nft_public_url === 'string' ? o.delivery.nft_public_url : null,
    failureReason: isObj(o.failure) && typeof o.failure.reason === 'string' ? o.failure.reason : null,
  };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** An API error as the bot explains it (ApiError's code, detail and extra). */
export interface ErrorInfo {
  code: string;
  detail: string;
  extra: Record<string, unknown>;
}

/** What the confirmation message shows. */
export interface Quote {
  product: 'stars' | 'premium';
  quantity: number;
  recipient: string;
  price: string;
  currency: string;
  balance: string;
  balanceAfter: string;
  /** How much the balance lacks ("0.00" when enough). */
  shortBy: string;
  enough: boolean;
  alreadyPremium: boolean;
}

export type { DepositView, FundingInfo };

/** A deposit as operators read it: with its short number (bot/deposit-numbers.ts) instead of its id. */
export type DepositShown = DepositView & { number: string };

/** A gift in the bot's catalog pages. */
export interface GiftItem {
  gift: string;
  name: string;
  num: number;
  partner_price: string;
  attributes: { model: string; backdrop: string; symbol: string };
  /** The TON balance covers its price. */
  affordable: boolean;
}

/** One page of a collection in the gift browser (page from 0). */
export interface GiftPage {
  collection: string;
  page: number;
  pages: number;
  items: GiftItem[];
  hasNext: boolean;
  /** The TON balance, to mark what is out of reach. */
  balance: string;
  /** Only the gifts the TON balance covers ("only what I can afford"). */
  affordOnly: boolean;
  /** The cheapest gift's price (null when none is on sale): said when nothing is affordable. */
  cheapest: string | null;
}

/** A collection with its floor price. */
export interface GiftCollectionInfo {
  collection: string;
  name: string;
  count: number;
  floor_partner_price: string | null;
  /** False when the TON balance is below even the cheapest gift of it. */
  affordable?: boolean;
}

/** What the gift confirmation shows: the exact TON price, confirmed as max_price. */
export interface GiftQuote {
  gift: string;
  name: string;
  num: number;
  attributes: { model: string; backdrop: string; symbol: string };
  recipient: string;
  price: string;
  balance: string;
  balanceAfter: string;
  shortBy: string;
  enough: boolean;
}

/** How an operator case was handled (bot/cases.ts): by whom (a name, or null outside the bot), when, and what came of it. */
export interface Handled {
  outcome: 'delivered' | 'refunded' | 'credited' | 'closed';
  by: string | null;
  at: number;
  /** The partner credited, or the note of a closed deposit. */
  detail?: string;
}
