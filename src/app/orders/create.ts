import crypto from 'node:crypto';
import { fail } from '../../domain/errors.js';
import { InsufficientBalance } from '../../domain/ledger-rules.js';
import { formatAmount, type Currency } from '../../domain/money.js';
import type { OrderType } from '../../domain/order-machine.js';
import { orderView } from '../../domain/order-view.js';
import { PREMIUM_MONTHS, starsPrice, type PremiumMonths } from '../../domain/pricing.js';
import { serializeWebhookJson } from '../../domain/webhook-signing.js';
import { checkWebhookUrl } from '../../domain/webhook-url-policy.js';
import { postEntry } from '../../store/ledger-repo.js';
import { scheduleJob } from '../../store/jobs-repo.js';
import {
  getIdem,
  insertBoundIdem,
  getOrder,
  insertOrder,
  nextOrderSeq,
  openPremiumFor,
  type OrderRow,
} from '../../store/orders-repo.js';
import { isHostBlocked } from '../../store/webhooks-repo.js';
import type { Recipient } from '../../suppliers/types.js';
import { nftHandler } from './nft-create.js';
import { committedOrderView } from './query.js';
import { requireRecipientText, resolveRecipient } from './recipient.js';
import { currentPrices, requireProductAvailable } from '../catalog.js';
import type { Deps } from '../deps.js';
import { unitOfWorkGrouped, type AfterCommit } from '../unit-of-work.js';
import { urlPolicy } from '../webhooks/config.js';
import type { Tx } from '../../store/db.js';

export const ORDER_JOB = 'order.process';
const MAX_KEY_LENGTH = 255;

/**
 * Order creation (partner-api.md "Rules of order creation"), shared by POST /orders and the bot.
 *
 * 1. shape: idempotency_key, type                          (request-level errors)
 * 2. the idempotency check: replay, reuse, in progress     (before anything else is judged)
 * 3. parameters, webhook_url, product availability, price  (nothing claimed yet)
 * 4. claim the key, resolve the recipient (async, outside any transaction)
 * 5. one transaction: debit, order row, first job, key bound to the order; any refusal unclaims the key
 *
 * NFT orders plug in at steps 3–5 through `OrderKindHandler` (src/app/orders/nft-create.ts).
 */
export interface PlannedOrder {
  type: OrderType;
  currency: Currency;
  amount: number;
  quantity: number;
  recipient: string;
  priceUsdRef?: number | null;
  gift?: Record<string, unknown> | null;
  /** runs in the creating transaction before the debit (e.g. reserve a gift, the Premium rule) */
  inTx?: (tx: Tx, orderId: string) => void;
  orderId?: string;
  /** first processing stage (default `deliver`) */
  stage?: string;
  /** how long after the order its first processing step is worth running (default: at once) */
  firstRunAfterMs?: number;
}

export interface OrderKindHandler {
  /** Validates params (no I/O beyond the catalog) and returns what step 4 needs. */
  prepare(deps: Deps, params: Record<string, unknown>): Promise<(recipient: Recipient) => Promise<PlannedOrder> | PlannedOrder>;
  /** The recipient field of params: checked after prepare's syntax checks. */
  recipientFirst?: boolean;
}

/** SHA-256 of the canonical request (keys sorted at every level, Python json.dumps spacing). */
export function fingerprintOf(body: { type: string; params: unknown; webhook_url: unknown }): string {
  return crypto.hash('sha256', serializeWebhookJson(body, { sortKeys: true }), 'hex');
}

/**
 * The fingerprints of requests replayed lately, by the JSON text of the parsed body: a partner retrying
 * sends the same request again and again, and this skips canonicalising and hashing it. Only replays are
 * remembered (a first request is never seen again), only short texts (at most ~10 MB in all), and only
 * texts without `null`: JSON.stringify writes a number that parsed as Infinity as null, and such a body
 * must still be refused by fingerprintOf. Starts afresh when full.
 */
const replayedFingerprints = new Map<string, string>();
const MEMO_MAX_TEXT = 1024;

function requestFingerprint(body: Record<string, unknown>, type: string): { text: string | null; fingerprint: string } {
  const raw = JSON.stringify({ t: type, p: body.params, w: body.webhook_url });
  const text = raw.length <= MEMO_MAX_TEXT && !raw.includes('null') ? raw : null;
  const known = text === null ? undefined : replayedFingerprints.get(text);
  if (known !== undefined) return { text, fingerprint: known };
  try {
    return { text, fingerprint: fingerprintOf({ type, params: body.params ?? null, webhook_url: body.webhook_url ?? null }) };
  } catch {
    // JSON.parse turns a number like 1e400 into Infinity, which has no exact JSON form
    fail('bad_request', 'Numbers in the body must be finite.');
  }
}

function rememberReplay(text: string | null, fingerprint: string): void {
  if (text === null) return;
  if (replayedFingerprints.size >= 10_000) replayedFingerprints.clear();
  replayedFingerprints.set(text, fingerprint);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseQuantity(deps: Deps, v: unknown): number {
  const { STARS_MIN_PER_ORDER: min, STARS_MAX_PER_ORDER: max } = deps.config;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    fail('bad_quantity', `quantity must be a whole number from ${min} to ${max}.`, { min, max });
  return v;
}

function parseMonths(v: unknown): PremiumMonths {
  if (typeof v !== 'number' || !PREMIUM_MONTHS.includes(v as PremiumMonths)) fail('bad_months');
  return v as PremiumMonths;
}

/** Stars and Premium: prices from the catalog, debited in USD. */
const goodsHandler = (type: 'stars' | 'premium'): OrderKindHandler => ({
  async prepare(deps, params) {
    const qty = type === 'stars' ? parseQuantity(deps, params.quantity) : parseMonths(params.months);
    const rawRecipient = requireRecipientText(params.recipient);
    requireProductAvailable(deps, type);
    const prices = currentPrices(deps);
    if (!prices) fail('product_unavailable', 'Prices are temporarily unavailable.', { reason: 'upstream_unavailable', retry_after: 30 }, { 'Retry-After': '30' });
    const amount = type === 'stars' ? starsPrice(prices.starsPer1000, qty) : prices.premium[qty as PremiumMonths];
    return (recipient) => ({
      type,
      currency: 'USD',
      amount,
      quantity: qty,
      recipient: rawRecipient,
      // the first delivery call when the supplier can first have an outcome
      firstRunAfterMs: deps.suppliers.goods.firstCallDelayMs,
      inTx:
        type === 'premium'
          ? (tx) => {
              if (openPremiumFor(tx, recipient.username)) fail('deferred_order_exists');
            }
          : undefined,
    });
  },
});

export const ORDER_HANDLERS: Partial<Record<OrderType, OrderKindHandler>> = {
  stars: goodsHandler('stars'),
  premium: goodsHandler('premium'),
  nft: nftHandler,
};

function checkOrderWebhookUrl(deps: Deps, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const r = checkWebhookUrl(v, urlPolicy(deps.config));
  if (!r.ok) fail('bad_webhook_url', r.detail, { reason: r.reason });
  if (isHostBlocked(deps.db, r.host)) fail('bad_webhook_url', `The host ${r.host} resolved into a private network.`, { reason: 'private_host' });
  return r.url;
}

export interface CreateResult {
  order: Record<string, unknown>;
  replayed: boolean;
}

export async function createOrder(deps: Deps, partnerId: number, body: unknown): Promise<CreateResult> {
  if (!isObject(body)) fail('bad_request', 'The body must be a JSON object.');
  const key = body.idempotency_key;
  if (typeof key !== 'string' || key.trim() === '') fail('idempotency_required');
  if (key.length > MAX_KEY_LENGTH) fail('bad_request', `idempotency_key is at most ${MAX_KEY_LENGTH} characters.`);
  const type = body.type;
  const handler = typeof type === 'string' ? ORDER_HANDLERS[type as OrderType] : undefined;
  if (typeof type !== 'string' || !['stars', 'premium', 'nft'].includes(type)) fail('bad_type');
  if (!handler) fail('product_unavailable', `${type} ordering is not available.`, { reason: 'product_disabled' });

  // 2. idempotency
  if (deps.suppliers.faults.ledgerUnavailable()) fail('ledger_unavailable');
  const { text, fingerprint } = requestFingerprint(body, type);
  const claimKey = `${partnerId}\u0000${key}`;
  const replay = (): CreateResult | null => {
    const seen = getIdem(deps.db, partnerId, key);
    if (seen) {
      if (seen.fingerprint !== fingerprint) fail('idempotency_key_reuse');
      if (!seen.orderId) fail('order_in_progress');
      rememberReplay(text, fingerprint);
      return { order: committedOrderView(getOrder(deps.db, seen.orderId)!), replayed: true };
    }
    return replayInFlight();
  };
  const replayInFlight = (): null => {
    const inFlight = deps.inFlight.get(claimKey);
    if (inFlight !== undefined) fail(inFlight === fingerprint ? 'order_in_progress' : 'idempotency_key_reuse');
    return null;
  };
  const commitsAtCheck = deps.commits.commits;
  const replayed = replay();
  if (replayed) return replayed;

  // 3. parameters
  const params = body.params === undefined || body.params === null ? {} : body.params;
  if (!isObject(params)) fail('bad_params');
  const webhookUrl = checkOrderWebhookUrl(deps, body.webhook_url);
  const plan = await handler.prepare(deps, params);

  // 4. claim, resolve. The claim of a creation in flight lives in memory: it only has to last while this
  // process works on the request, and a crash forgets it exactly as it should. The durable record is the
  // bound key, written in the debiting transaction. Check again first: `prepare` awaited.
  // Only a commit binds a key: when none happened since the first check, the in-flight claims are all to see.
  const raced = deps.commits.commits === commitsAtCheck ? replayInFlight() : replay();
  if (raced) return raced;
  deps.inFlight.set(claimKey, fingerprint);
  try {
    const recipient = await resolveRecipient(deps, String(params.recipient));
    const planned = await plan(recipient);
    // 5. one transaction
    const order = await unitOfWorkGrouped(deps, (tx, after) => persistOrder(tx, deps, after, partnerId, key, fingerprint, planned, recipient, webhookUrl));
    return { order: orderView(order), replayed: false };
  } catch (e) {
    if (e instanceof InsufficientBalance)
      fail('insufficient_balance', `The ${e.currency} balance is too low for this order.`, { currency: e.currency, balance: formatAmount(e.balance, e.currency) });
    throw e;
  } finally {
    deps.inFlight.delete(claimKey);
  }
}

function persistOrder(
  tx: Tx,
  deps: Deps,
  after: AfterCommit,
  partnerId: number,
  key: string,
  fingerprint: string,
  p: PlannedOrder,
  recipient: Recipient,
  webhookUrl: string | null,
): OrderRow {
  const now = deps.clock.now();
  const seq = nextOrderSeq(tx);
  const orderId = p.orderId ?? `PA-${100000 + seq}`;
  p.inTx?.(tx, orderId);
  postEntry(tx, { partnerId, currency: p.currency, kind: 'order_debit', amount: -p.amount, orderId, now });
  const order = insertOrder(tx, {
    seq,
    orderId,
    partnerId,
    type: p.type,
    status: 'processing',
    amount: p.amount,
    currency: p.currency,
    priceUsdRef: p.priceUsdRef ?? null,
    quantity: p.quantity,
    recipient: p.recipient,
    account: recipient.username,
    refunded: false,
    stage: p.stage ?? 'deliver',
    gift: p.gift ?? null,
    webhookUrl,
    idempotencyKey: key,
    createdAt: now,
    updatedAt: now,
  });
  scheduleJob(tx, ORDER_JOB, orderId, now + (p.firstRunAfterMs ?? 0), now);
  insertBoundIdem(tx, partnerId, key, fingerprint, orderId, now);
  after(() => deps.wake());
  after(() => deps.bus.emit('ops', { kind: 'order_created', orderId, partnerId, type: p.type, status: 'processing' }));
  return order;
}
