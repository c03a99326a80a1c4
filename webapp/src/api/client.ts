import type * as A from '../../../src/http/app-api/types';
import { initData } from '../tg';
import type { components } from './partner-api';

/**
 * The typed client of the Mini App API (/api/app/v1): one function per route. The app's own answers are the
 * server's types (src/http/app-api/types.ts); the partner API's shapes (orders, products, ledger entries,
 * webhook deliveries) are generated from the OpenAPI document (partner-api.ts). initData goes in the header
 * inside Telegram, the session cookie outside.
 */
type S = components['schemas'];
export type Order = S['Order'];
export type OrderList = { items: Order[]; next_cursor: string | null };
export type Products = S['ProductsResponse'];
export type Catalog = S['Catalog'];
export type LedgerEntry = S['LedgerEntry'];
export type LedgerList = S['LedgerList'];
export type Delivery = S['WebhookDelivery'];
export type DeliveryList = S['WebhookDeliveryList'];
export type OrderDetail = A.OrderDetailAnswer<Order, Delivery>;
export type Session = A.SessionAnswer;
export type RecipientCheck = A.RecipientCheckAnswer;
export type MarketGift = A.MarketGift;
export type {
  DepositItem,
  FundingAnswer,
  OperatorPartnerItem,
  OverviewAnswer,
  ProductSwitch,
  TopupRequestAnswer,
  TimelineStep,
} from '../../../src/http/app-api/types';

/** A refusal of the service: status, the contract's error code and detail, and the body's extra fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: Record<string, unknown>,
  ) {
    super(detail);
  }
}

const BASE = '/api/app/v1';
type Query = Record<string, string | number | undefined | null>;

function qs(q?: Query): string {
  if (!q) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const data = initData();
  if (data) headers.authorization = `tma ${data}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'network', {});
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    // both error formats of the contract: nested {detail: {code, detail}} or flat {code, detail}
    const e = isObject(json) ? (isObject(json.detail) ? json.detail : json) : {};
    throw new ApiError(res.status, String(e.code ?? 'http_' + res.status), String(e.detail ?? res.statusText), e);
  }
  return json as T;
}

const get = <T>(path: string, q?: Query) => request<T>('GET', path + qs(q));
const enc = encodeURIComponent;

/**
 * Reads the first screen needs, started at boot together with the session check (one round trip instead of
 * two before the balances show); each is used once, later reads go to the server.
 */
const early = new Map<string, Promise<unknown>>();
function once<T>(path: string): Promise<T> {
  const r = early.get(path) as Promise<T> | undefined;
  early.delete(path);
  return r ?? get<T>(path);
}
const FIRST_SCREEN = { balances: '/balances', recent: '/orders?limit=5' } as const;
export function prefetchFirstScreen(): void {
  for (const p of Object.values(FIRST_SCREEN)) {
    const r = get(p);
    r.catch(() => {});
    early.set(p, r);
  }
}

/** Whom a one-time sign-in link signs in as (POST /sign-in/preview), asked before the link is spent. */
export interface SignInPreview {
  user: { telegram_id: number; name: string | null };
  partner: { name: string } | null;
}

export const api = {
  session: () => get<Session>('/session'),
  /** Whom a sign-in link signs in as, without spending it. */
  signInPreview: (token: string) => request<SignInPreview>('POST', '/sign-in/preview', { token }),
  signIn: (token: string) => request<Session>('POST', '/sign-in', { token }),

  balances: () => once<A.BalancesAnswer>(FIRST_SCREEN.balances),
  recentOrders: () => once<OrderList>(FIRST_SCREEN.recent),
  spend: () => get<A.SpendAnswer>('/spend'),
  products: () => get<Products>('/products'),
  orders: (q: Query) => get<OrderList>('/orders', q),
  order: (id: string) => get<OrderDetail>(`/orders/${enc(id)}`),
  recipientCheck: (body: Record<string, unknown>) => request<RecipientCheck>('POST', '/recipient-check', body),
  createOrder: (body: Record<string, unknown>) => request<Order>('POST', '/orders', body),
  gifts: (q: Query) => get<A.GiftSearchAnswer>('/gifts', q),
  giftFilters: (collection: string) => get<A.GiftFacetsAnswer>('/gifts/filters', { collection }),

  ledger: (q: Query) => get<LedgerList>('/ledger', q),
  alerts: () => get<A.AlertsAnswer>('/alerts'),
  saveAlerts: (body: Partial<Record<'USD' | 'TON', string | null>>) => request<A.AlertsAnswer>('PUT', '/alerts', body),
  funding: () => get<A.FundingAnswer>('/funding'),
  createTopupRequest: (body: { currency: string; amount: string }) => request<A.TopupRequestAnswer>('POST', '/topup-requests', body),
  topupRequest: (id: string) => get<A.TopupRequestAnswer>(`/topup-requests/${enc(id)}`),
  openTopupRequests: () => get<A.OpenTopupRequestsAnswer>('/topup-requests'),
  cancelTopupRequest: (id: string) => request<A.TopupRequestAnswer>('DELETE', `/topup-requests/${enc(id)}`),
  apiKey: () => get<{ key: A.ApiKeyView | null }>('/api-key'),
  issueKey: (ip_whitelist: string[]) => request<{ key_id: string; api_key: string; ip_whitelist: string[] }>('POST', '/api-key', { ip_whitelist }),
  webhook: () => get<A.WebhookView>('/webhook'),
  saveWebhook: (body: { url: string; events?: string[] }) => request<A.WebhookSaved>('PUT', '/webhook', body),
  regenerateSecret: () => request<A.WebhookSaved>('POST', '/webhook/regenerate', {}),
  deliveries: (q: Query) => get<DeliveryList>('/webhook-deliveries', q),
  redeliver: (id: string) => request<Delivery>('POST', `/webhook-deliveries/${enc(id)}/redeliver`, {}),
  testWebhook: () => request<Delivery>('POST', '/webhook/test', {}),
  team: () => get<A.TeamAnswer>('/team'),
  invite: (role: 'owner' | 'staff') => request<A.InviteAnswer>('POST', '/team/invites', { role }),
  unlink: (telegramId: number) => request<{ unlinked: number }>('DELETE', `/team/${telegramId}`),

  // the operator's console (operators only)
  overview: () => get<A.OverviewAnswer>('/operator/overview'),
  partners: (q: Query) => get<A.OperatorPartnersAnswer>('/operator/partners', q),
  createPartner: (name: string) => request<A.OperatorPartnerCreated>('POST', '/operator/partners', { name }),
  partnerInvite: (id: number, role: 'owner' | 'staff') => request<A.InviteAnswer>('POST', `/operator/partners/${id}/invites`, { role }),
  partner: (id: number) => get<OperatorPartnerView>(`/operator/partners/${id}`),
  partnerOrders: (id: number, q: Query) => get<OrderList>(`/operator/partners/${id}/orders`, q),
  partnerLedger: (id: number, q: Query) => get<{ items: LedgerEntry[]; next_cursor: string | null }>(`/operator/partners/${id}/ledger`, q),
  adjust: (id: number, body: { currency: 'USD' | 'TON'; amount: string; note: string }) => request<A.LedgerEntryAnswer>('POST', `/operator/partners/${id}/adjustments`, body),
  exportLink: (id: number, what: 'orders' | 'ledger', filters: Record<string, string> = {}) =>
    request<A.ExportLink>('POST', `/operator/partners/${id}/exports`, { what, filters }),
  reviews: () => get<{ items: ReviewItem[] }>('/operator/reviews'),
  resolve: (orderId: string, body: { outcome: 'delivered' | 'refunded'; transfer_hash?: string }) => request<Order>('POST', `/operator/orders/${enc(orderId)}/resolve`, body),
  deposits: (status: string) => get<{ items: A.DepositItem[] }>('/operator/deposits', { status }),
  resolveDeposit: (id: string, body: { action: 'credit'; partner_id: number } | { action: 'close'; note: string }) =>
    request<A.DepositItem>('POST', `/operator/deposits/${enc(id)}/resolve`, body),
  operatorProducts: () => get<A.OperatorProductsAnswer>('/operator/products'),
  switchProduct: (product: string, enabled: boolean) => request<A.ProductSwitch>('PUT', `/operator/products/${product}`, { enabled }),
};

/** An order waiting for manual review (the operator API's GET /reviews). */
export type ReviewItem = Order & { partner_id: number; review: { stage: string; since: string } | null; ledger: LedgerEntry[]; evidence: A.ReviewEvidence };
export interface OperatorPartnerView {
  partner_id: number;
  name: string;
  status: string;
  balances: A.Money2;
  keys: A.ApiKeyView[];
  webhook: A.WebhookView;
  created_at: string;
}

/** One idempotency key per confirmation screen: a double tap or a retry sends the same key. */
export function newKey(): string {
  const a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}
