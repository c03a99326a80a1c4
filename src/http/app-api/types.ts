/**
 * The answers of the Mini App's own routes (/api/app/v1), shared by the server and the webapp: the routes
 * are annotated with them (so the compiler holds the server to them) and webapp/src/api/client.ts imports
 * them as types. Shapes that are the partner API's (orders, products, ledger entries, webhook deliveries)
 * come to the webapp from the OpenAPI document instead (webapp/src/api/partner-api.ts); here they are type
 * parameters. Pure types: this file imports only pure types of src/domain, so the webapp's type check can read it.
 */

export type Money2 = { USD: string; TON: string };

export interface SessionAnswer {
  user: { telegram_id: number; role: 'owner' | 'staff' | null; operator: boolean };
  partner: { partner_id: number; name: string; status: string } | null;
}

export interface BalancesAnswer {
  balances: Money2;
}

/** GET /spend: the partner API's GET /stats totals over the last `days` days. */
export interface SpendAnswer {
  days: number;
  from: string;
  to: string;
  totals: { currency: 'USD' | 'TON'; count: number; spend: string; refunded_count: number; refunded_amount: string; net_spend: string }[];
}

export interface RecipientCheckAnswer {
  recipient: { username: string; name: string | null; already_premium?: boolean; can_receive_gifts?: boolean };
  price: string | null;
  currency: string;
  available: boolean;
  balance: string;
  balance_after: string | null;
  enough: boolean | null;
}

export interface TimelineStep {
  kind: string;
  name: string;
  at: string | null;
  state: 'done' | 'current' | 'pending' | 'failed';
}

export interface OrderDetailAnswer<O = unknown, D = unknown> {
  order: O;
  timeline: TimelineStep[];
  refund: { refunded: boolean; in_review: boolean };
  deliveries?: D[];
}

export interface GiftFacetsAnswer {
  collections: { collection: string; name: string }[];
  models: string[];
  backdrops: string[];
  symbols: string[];
}

export interface TeamAnswer {
  items: { telegram_id: number; name: string | null; role: string; language: string | null; linked_at: string }[];
  count: number;
}

export interface InviteAnswer {
  code: string;
  link: string;
}

export interface FundingAnswer {
  activated: boolean;
  balances: Money2;
  minimums: Money2;
  currencies: ('USD' | 'TON')[];
  options: { currency: 'USD' | 'TON'; network: string; asset: 'USDT' | 'TON'; address: string }[];
}

export interface TopupRequestAnswer {
  request_id: string;
  currency: 'USD' | 'TON';
  amount: string;
  amount_to_send: string;
  addresses: { network: string; address: string }[];
  comment_code?: string;
  status: 'open' | 'paid' | 'expired' | 'canceled';
  created_at: string;
  expires_at: string;
  seconds_left: number;
  canceled_at?: string;
}

export interface OpenTopupRequestsAnswer {
  items: TopupRequestAnswer[];
  max_open: number;
  /** How many more requests each currency may have now. */
  room: { USD: number; TON: number };
}

export interface ApiKeyView {
  key_id: string;
  prefix: string;
  ip_whitelist: string[];
  created_at: string;
  revoked_at: string | null;
}

export interface WebhookView {
  url: string | null;
  has_secret: boolean;
  events: string[];
}

export interface WebhookSaved {
  url: string;
  events: string[];
  secret?: string;
}

export type AlertsAnswer = Record<'USD' | 'TON', string | null>;

// ---- the operator's console (/operator/*) ----

export interface OverviewAnswer {
  liabilities: Money2;
  supplier_funds: { supplier: string; currency: string; amount: string; updated_at: string }[];
  /** What a supplier account holds against what partners may order through it (the console's warning). */
  coverage: { supplier: string; currency: string; funds: string; liabilities: string; covered: boolean }[];
  reviews_waiting: number;
  deposits_unmatched: number;
  webhooks_gave_up_24h: number;
  orders_24h: { by_status: Record<string, number>; by_type: Record<string, number> };
  /** Partner price less the supplier cost stored with each order, of the orders completed in the last 24 h. */
  margin_24h: Money2;
  /** Orders completed in the last 24 h without a stored cost (made before costs were stored): left out of the margin. */
  margin_24h_without_cost: number;
  /** Orders created in each of the last 24 hours, oldest first (`hour`: the hour's start, UTC with offset). */
  orders_per_hour: { hour: string; count: number }[];
}

/**
 * What the supplier side recorded for an order in review (the console's review list adds it to the
 * operator API's review item). TON amounts with nine places: evidence, not prices.
 */
export interface ReviewEvidence {
  gift_purchase: {
    state: string;
    cap_ton: string;
    form: { ref: string; currency: string | null; amount: string | null; amount_ton?: string } | null;
    receipt: string | null;
    supplier_answer: string | null;
    attempts: number;
    paying_since: string | null;
    updated_at: string;
  } | null;
  fragment_payment: {
    state: string;
    amount_ton: string;
    ref: string | null;
    tx_hash: string | null;
    supplier_answer: string | null;
    attempts: number;
    confirmed_at: string | null;
    updated_at: string;
  } | null;
  /** The TON cost the order was fixed at (Fragment), null when none was recorded. */
  cost_ton: string | null;
  /** NFT orders: the gift market's record of the transfer; null for other orders. */
  transfer: { status: 'sent'; transfer_hash: string } | { status: 'none' } | { status: 'unavailable' } | null;
}

/** POST /operator/partners/{id}/exports: a link to the CSV, valid until `expires_at` (no header needed). */
export interface ExportLink {
  url: string;
  filename: string;
  expires_at: string;
}

/**
 * An entry of a partner's ledger as the operator API shows it (GET /partners/{id}/ledger): the answer of
 * POST /operator/partners/{id}/adjustments, `kind: "adjustment"` with the operator's `note`.
 */
export interface LedgerEntryAnswer {
  entry_id: number;
  currency: 'USD' | 'TON';
  /** signed */
  amount: string;
  kind: string;
  order_id?: string;
  topup_id?: string;
  note?: string;
  balance_after: string;
  created_at: string;
}

export interface OperatorPartnerItem {
  partner_id: number;
  name: string;
  status: string;
  balances: Money2;
  created_at: string;
}

export interface OperatorPartnersAnswer {
  items: OperatorPartnerItem[];
  next_cursor: string | null;
}

export interface OperatorPartnerCreated {
  partner_id: number;
  name: string;
  status: string;
  invite: InviteAnswer;
}

/** A deposit in the console's list: the fields of the operator API's deposit view that the Mini App shows. */
export type { DepositItem } from '../../domain/deposit-item.js';

export interface ProductSwitch {
  product: 'stars' | 'premium' | 'nft';
  enabled: boolean;
  /** What the supplier charges and what partners pay (USD for Stars per 1000 and Premium per term; TON for gifts: none fixed). */
  costs: Record<string, string>;
  prices: Record<string, string>;
}

export interface OperatorProductsAnswer {
  items: ProductSwitch[];
}

/** A gift of the whole-market search: the partner API's gift item plus its attributes. */
export interface MarketGift {
  gift: string;
  name: string;
  num: number;
  collection: string;
  image: string;
  price_ton: string;
  partner_price: string;
  currency: 'TON';
  price_usd_ref: string;
  attributes: { model: string; backdrop: string; symbol: string };
}

export interface GiftSearchAnswer {
  currency: 'TON';
  items: MarketGift[];
  count: number;
  total: number;
  next_cursor: string | null;
}
