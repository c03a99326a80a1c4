import { fail } from '../../domain/errors.js';
import { orderNumber } from '../../domain/order-number.js';
import { InsufficientBalance } from '../../domain/ledger-rules.js';
import { formatAmount } from '../../domain/money.js';
import { orderView } from '../../domain/order-view.js';
import { checkWebhookUrl } from '../../domain/webhook-url-policy.js';
import type { Tx } from '../../store/db.js';
import { audit } from '../../store/audit-repo.js';
import { scheduleJob } from '../../store/jobs-repo.js';
import { postEntry } from '../../store/ledger-repo.js';
import { getOrder, insertBoundIdem, insertOrder, nextOrderSeq, type OrderRow } from '../../store/orders-repo.js';
import { isHostBlocked } from '../../store/webhooks-repo.js';
import type { Recipient } from '../../suppliers/types.js';
import { noteDebit } from '../balance-alerts.js';
import type { Deps } from '../deps.js';
import { requireOrderingAllowed } from '../partners.js';
import { ParamsObject } from '../requests/orders.js';
import { isJsonObject, ORDER_PARAMS_RULES, parseRequest } from '../requests/parse.js';
import { unitOfWorkGrouped, type AfterCommit } from '../unit-of-work.js';
import { urlPolicy } from '../webhooks/config.js';
import { OrderKey, orderHead } from './idempotency.js';
import { ORDER_JOB } from './jobs.js';
import { ORDER_KINDS } from './kinds/index.js';
import type { OrderKind, PricedOrder } from './kinds/kind.js';
import { committedOrderView } from './query.js';
import { resolveRecipient } from './recipient.js';

export interface CreateResult {
  order: Record<string, unknown>;
  replayed: boolean;
}

/** What createOrder uses of the service. */
export type CreateOrderDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'suppliers' | 'keyLedger' | 'settings' | 'bus' | 'commits' | 'wake' | 'inFlight'>;

/**
 * Order creation (partner-api.md "Rules of order creation"), shared by POST /orders and the bot. Each kind
 * of order (src/app/orders/kinds/) supplies its params, price and reservation; the order of the checks is
 * the contract's, since the first failing rule names the error. `opts.actor`, a person placing the order
 * (the bot, the Mini App), is written to the audit log in the order's transaction.
 */
export async function createOrder(deps: CreateOrderDeps, partnerId: number, body: unknown, opts: { actor?: string } = {}): Promise<CreateResult> {
  return replayOrCreate(deps, partnerId, body, opts);
}

/**
 * createOrder, with a replay answered at once: everything up to the idempotency check runs without an
 * await, so a replay (or a refusal before it) is returned (or thrown) synchronously, and only a new order
 * is a promise. POST /orders sends a partner's retries without a promise and its microtasks.
 */
export function replayOrCreate(deps: CreateOrderDeps, partnerId: number, body: unknown, opts: { actor?: string } = {}): CreateResult | Promise<CreateResult> {
  // 0. who orders: an activated partner of a running program (the API's auth hook has checked it already)
  requireOrderingAllowed(deps, partnerId);

  // 1. the request's shape around params: idempotency_key, type, client_reference (src/app/requests/)
  const parsedHead = orderHead(body);
  const head = parsedHead.head;
  // the idempotency fingerprint is of the body as sent (an object: the parse said so)
  const raw = isJsonObject(body) ? body : fail('bad_request', 'The body must be a JSON object.');

  // 2. idempotency, before anything else is judged: a replay answers with the stored order
  if (!deps.keyLedger.available()) fail('ledger_unavailable');
  const orderKey = new OrderKey(deps, partnerId, parsedHead, raw);
  const replayed = orderKey.replayedOrderId();
  if (replayed) return replayOf(deps, replayed);
  return createNew(deps, ORDER_KINDS[head.type], head.client_reference ?? null, orderKey, raw, opts);
}

/** Steps 3 to 5 for a key not bound yet. */
async function createNew(deps: CreateOrderDeps, kind: OrderKind, clientReference: string | null, orderKey: OrderKey, raw: Record<string, unknown>, opts: { actor?: string }): Promise<CreateResult> {
  // 3. the params, webhook_url, the product's availability (nothing claimed yet)
  const params = parseRequest(ParamsObject, raw.params ?? {}, ORDER_PARAMS_RULES);
  const webhookUrl = checkOrderWebhookUrl(deps, raw.webhook_url);
  const parsed = kind.parseParams(deps, params);

  // 4. claim the key, resolve the recipient and price the order (outside any transaction)
  const raced = orderKey.recheck();
  if (raced) return replayOf(deps, raced);
  return orderKey.whileClaimed(async () => {
    try {
      const recipient = await resolveRecipient(deps, parsed.recipient);
      const priced = await kind.priceFor(deps, parsed, recipient);
      // 5. one transaction: reservation, debit, order row, first job, key bound to the order
      const order = await unitOfWorkGrouped(deps, (tx, after) => persistOrder(tx, deps, after, { orderKey, kind, priced, recipient, rawRecipient: parsed.recipient, webhookUrl, clientReference, actor: opts.actor }));
      // frozen like every committed order view: its JSON text is made once (src/http/frozen-json.ts)
      return { order: Object.freeze(orderView(order)), replayed: false };
    } catch (e) {
      if (e instanceof InsufficientBalance)
        fail('insufficient_balance', `The ${e.currency} balance is too low for this order.`, { currency: e.currency, balance: formatAmount(e.balance, e.currency) });
      throw e;
    }
  });
}

function replayOf(deps: Pick<Deps, 'db'>, orderId: string): CreateResult {
  return { order: committedOrderView(getOrder(deps.db, orderId)!), replayed: true };
}

function checkOrderWebhookUrl(deps: Pick<Deps, 'db' | 'config'>, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const r = checkWebhookUrl(v, urlPolicy(deps.config));
  if (!r.ok) fail('bad_webhook_url', r.detail, { reason: r.reason });
  if (isHostBlocked(deps.db, r.host)) fail('bad_webhook_url', `The host ${r.host} resolved into a private network.`, { reason: 'private_host' });
  return r.url;
}

interface NewOrder {
  orderKey: OrderKey;
  kind: OrderKind;
  priced: PricedOrder;
  recipient: Recipient;
  rawRecipient: string;
  webhookUrl: string | null;
  clientReference: string | null;
  /** A person who placed the order (the bot, the Mini App: `telegram:<id>`), audited with it; none for an API key. */
  actor?: string;
}

/** Step 5. A refusal (reservation, balance) rolls it all back; the key stays unbound. */
function persistOrder(tx: Tx, deps: Pick<Deps, 'clock' | 'config' | 'ids' | 'suppliers' | 'settings' | 'bus' | 'wake'>, after: AfterCommit, n: NewOrder): OrderRow {
  const { orderKey, kind, priced } = n;
  const partnerId = orderKey.partnerId;
  const now = deps.clock.now();
  const seq = nextOrderSeq(tx);
  const orderId = priced.orderId ?? orderNumber(seq);
  kind.reserve(tx, deps, priced, orderId, n.recipient);
  const debit = postEntry(tx, { partnerId, currency: priced.currency, kind: 'order_debit', amount: -priced.amount, orderId, now });
  noteDebit(tx, deps, after, { partnerId, currency: priced.currency, before: debit.balanceAfter - debit.amount, after: debit.balanceAfter, orderId });
  const first = kind.firstRun(deps);
  const order = insertOrder(tx, {
    seq,
    orderId,
    partnerId,
    type: kind.type,
    status: 'processing',
    amount: priced.amount,
    currency: priced.currency,
    priceUsdRef: priced.priceUsdRef,
    supplierCost: priced.supplierCost,
    quantity: priced.quantity,
    recipient: n.rawRecipient,
    account: n.recipient.username,
    refunded: false,
    stage: first.stage,
    gift: priced.gift,
    giftId: priced.fixedGift?.id ?? null,
    giftCollection: priced.fixedGift?.collection ?? null,
    giftPriceMilli: priced.fixedGift?.priceMilli ?? null,
    webhookUrl: n.webhookUrl,
    idempotencyKey: orderKey.key,
    clientReference: n.clientReference,
    createdAt: now,
    updatedAt: now,
  });
  scheduleJob(tx, ORDER_JOB, orderId, now + first.afterMs, now);
  insertBoundIdem(tx, partnerId, orderKey.key, orderKey.fingerprint, orderId, now);
  if (n.actor) audit(tx, now, n.actor, 'order.create', orderId, { partner_id: partnerId, type: kind.type, amount: formatAmount(priced.amount, priced.currency), currency: priced.currency });
  after(() => deps.wake());
  after(() => deps.bus.emit('ops', { kind: 'order_created', orderId, partnerId, type: kind.type, status: 'processing' }));
  return order;
}
