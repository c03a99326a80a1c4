/**
 * The narrow interface between the Telegram gift market adapter (telegram-market.ts) and MTProto: the few
 * calls it makes, in plain values. mtcute-gateway.ts implements it over an mtcute client with the real TL
 * shapes; the tests drive the adapter through a stateful fake of it.
 */

export interface GatewayAttributes {
  model: string;
  backdrop: string;
  /** the pattern ("symbol" in the contract) */
  symbol: string;
}

/** A unique (collectible) gift as the market shows it. */
export interface GatewayGift {
  /** `PlushPepe-1234`: the gift id of the contract */
  slug: string;
  title: string;
  num: number;
  attributes: GatewayAttributes;
  /** its resale price in TON (nanoTON) when it is listed for TON, else null (not for sale, or Stars only) */
  tonPriceNano: bigint | null;
  /** the NFT's address on TON when the gift was exported there */
  giftAddress: string | null;
  /** the owner's user id when it is a user */
  ownerUserId: string | null;
}

/** A gift type with collectibles on resale (one per collection). */
export interface GatewayCollection {
  /** the base gift's id (`gift_id` of payments.getResaleStarGifts) */
  giftId: string;
  title: string;
  /** listings on resale, as Telegram counts them */
  resale: number;
}

export interface GatewayUser {
  userId: string;
  displayName: string;
  /** false when the account's privacy settings refuse unique gifts */
  acceptsUniqueGifts: boolean;
}

/** payments.getPaymentForm's answer, reduced to what the checks read. */
export interface GatewayForm {
  formId: string;
  /** true for payments.paymentFormStarGift (any other form kind is refused) */
  starGift: boolean;
  currency: string;
  /** the invoice's prices (LabeledPrice amounts) */
  prices: bigint[];
}

/**
 * What Telegram's answer to the paid call identifies: the gift's own service message (messageService with
 * messageActionStarGiftUnique for the slug, in the account's chat with the recipient), carried by the
 * answer's updates (payments.paymentResult). null when the answer carried none.
 */
export interface GatewayPayment {
  messageId: number | null;
}

/**
 * One of the account's outgoing TON payments for a resold gift (payments.getStarsTransactions, ton). It names
 * the gift but not the form or the message of the purchase: evidence for an operator, never proof that a
 * given order's paid call went through (an earlier order may have bought the same gift).
 */
export interface GatewayPurchase {
  /** Telegram's transaction id */
  id: string;
  slug: string;
  /** the amount paid, nanoTON */
  tonNano: bigint;
  date: number;
}

/**
 * An RPC error by its Telegram name (`FORM_EXPIRED`, `BALANCE_TOO_LOW`…). `FLOOD_WAIT` carries `seconds`.
 * Anything else a gateway throws (a timeout, a lost connection) means the outcome is unknown.
 */
export class GatewayError extends Error {
  constructor(
    readonly code: string,
    readonly seconds?: number,
  ) {
    super(`Telegram: ${code}${seconds === undefined ? '' : ` (${seconds} s)`}`);
  }
}

export interface GiftGateway {
  /** The account itself (gifts:check). */
  me(): Promise<{ userId: string; name: string; username: string | null }>;
  /** Gift types with collectibles on resale. */
  collections(): Promise<GatewayCollection[]>;
  /** One page of a collection's resale listings, cheapest first; `next` is the offset of the next page. */
  listings(giftId: string, offset: string, limit: number): Promise<{ gifts: GatewayGift[]; next: string | null }>;
  /** A unique gift by slug, or null when there is none. */
  gift(slug: string): Promise<GatewayGift | null>;
  /** A user by username, or null. */
  user(username: string): Promise<GatewayUser | null>;
  /** payments.getPaymentForm for inputInvoiceStarGiftResale{ton: true, slug, to_id: the recipient}. */
  paymentForm(slug: string, recipientUsername: string): Promise<GatewayForm>;
  /** payments.sendStarsForm for that form and invoice: the paid call, and what its answer identifies. */
  sendForm(formId: string, slug: string, recipientUsername: string): Promise<GatewayPayment>;
  /** The account's TON balance (nanoTON) and Stars balance. */
  balances(): Promise<{ tonNano: bigint; stars: string }>;
  /** The account's latest outgoing TON payments for resold gifts. */
  recentPurchases(): Promise<GatewayPurchase[]>;
}
