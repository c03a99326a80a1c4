import crypto from 'node:crypto';
import { checkFragment } from './fragment-checks.js';
import type { World } from './world.js';
import { addCredit, expectedBalance, expectedEvents, isFinal, keyOf, refundReasons, saw, type Currency, type Model, type OrderM, type OrderType } from './model.js';

/**
 * The invariants, checked after every step of a history: the service's database (read with plain SQL, not
 * through its repositories) and the suppliers' books against the model and the contract.
 *
 *  - every balance equals the sum of its entries, is never negative, and equals what the model expects (its
 *    credits, less every order it knows, plus the refunds made);
 *  - every chain transaction is credited at most once, only to a partner the model allows (the one whose
 *    request it pays, or nobody);
 *  - every order is debited once, refunded at most once and `refunded` says so; there is one order per key
 *    and every order the model knows is still there (a crash loses nothing committed);
 *  - an order the supplier was paid for or sent (maybe) is never refunded without an operator; a completed
 *    order was delivered (or an operator said so); nothing is bought above the price the order fixed;
 *  - a final order never changes again and has exactly the events of the contract; an unfinished one has none
 *    and a job that will move it on;
 *  - every event of a partner with a webhook has its delivery, pending (with its job), delivered, or failed
 *    after the last attempt: none vanishes across a restart; every request the receiver got verifies.
 */
export function checkInvariants(w: World, m: Model): string[] {
  const v: string[] = [];
  adoptUnknownKeys(w, m);
  const orders = new Map(w.sql<DbOrder>('select order_id, partner_id, type, status, amount, currency, refunded, idempotency_key, recipient, review_stage, gift from orders').map((o) => [o.order_id, o]));
  judgeDeposits(w, m, v);
  if (w.fragment) checkFragment(w, m, v);
  checkLedger(w, m, orders, v);
  checkOrders(w, m, orders, v);
  checkSupplied(w, m, orders, v);
  checkEvents(w, m, orders, v);
  checkWebhooks(w, m, v);
  return v;
}

interface DbOrder {
  order_id: string;
  partner_id: number;
  type: OrderType;
  status: string;
  amount: number;
  currency: Currency;
  refunded: number;
  idempotency_key: string;
  recipient: string;
  review_stage: string | null;
  gift: string | null;
}

/** A key whose answer was lost to a crash: the order it made, if any, is the model's now (a replay would return it). */
function adoptUnknownKeys(w: World, m: Model): void {
  for (const k of m.keys.values()) {
    if (!k.unknown) continue;
    k.unknown = false;
    const row = w.sql<DbOrder>('select order_id, partner_id, type, status, amount, currency, refunded, idempotency_key, recipient, review_stage, gift from orders where partner_id = ? and idempotency_key = ?', k.partner, k.key)[0];
    if (!row) {
      if (!k.orderId) k.body = null;
      continue;
    }
    if (k.orderId) continue; // bound already: the checks below say whether it is the same order
    k.orderId = row.order_id;
    if (!m.orders.has(row.order_id)) m.orders.set(row.order_id, orderFromRow(row, k.key));
  }
}

function orderFromRow(row: DbOrder, key: string): OrderM {
  const gift = row.gift ? (JSON.parse(row.gift) as { price_ton?: string }) : null;
  return {
    id: row.order_id,
    partner: row.partner_id,
    type: row.type,
    currency: row.currency,
    amount: row.amount,
    key,
    recipient: row.recipient,
    capNano: gift?.price_ton ? nanoOf(gift.price_ton) : null,
    operatorRefund: 'no',
    operatorDelivered: false,
    final: null,
  };
}

export function nanoOf(ton: string): bigint {
  const [i, f = ''] = ton.split('.');
  return BigInt(i) * 1_000_000_000n + BigInt(f.padEnd(9, '0').slice(0, 9) || '0');
}

/** The top-ups of one chain transaction, whatever spelling each path stored. */
function topupsOfTx(w: World, hash: string): { topup_id: string; partner_id: number; currency: Currency; amount: number }[] {
  return w.sql('select topup_id, partner_id, currency, amount from topups where instr(lower(tx_hash), ?) > 0', hash);
}

/** Each deposit reported since the last check: credited to a partner it may go to, or to nobody. */
function judgeDeposits(w: World, m: Model, v: string[]): void {
  for (const d of m.pendingDeposits.splice(0)) {
    const rows = topupsOfTx(w, d.tx.hash);
    const before = d.tx.creditedTo === null ? 0 : 1;
    if (rows.length > 1) {
      v.push(`transaction ${d.tx.network}:${d.tx.hash} credited ${rows.length} times (${rows.map((r) => `partner ${r.partner_id}`).join(', ')})`);
      continue;
    }
    if (rows.length === before) {
      if (before === 0) saw(m, 'deposit: left to manual handling');
      if (before === 0 && !d.allowed.has(null)) v.push(`transfer ${d.tx.hash} meant for ${d.meantFor} was not credited; expected partner ${[...d.allowed].join(' or ')}`);
      continue;
    }
    const to = rows[0].partner_id;
    if (!d.allowed.has(to))
      v.push(`transfer ${d.tx.hash} (${d.tx.amount} minor ${d.tx.currency}, meant for ${d.meantFor ?? 'no request'}) credited to partner ${to}; allowed: ${[...d.allowed].map((p) => p ?? 'nobody').join(', ')}`);
    if (rows[0].amount !== d.tx.amount || rows[0].currency !== d.tx.currency)
      v.push(`transfer ${d.tx.hash} of ${d.tx.amount} ${d.tx.currency} credited as ${rows[0].amount} ${rows[0].currency}`);
    d.tx.creditedTo = to;
    saw(m, 'deposit: credited');
    addCredit(m, to, d.tx.currency, d.tx.amount);
    const paid = w.sql<{ request_id: string | null }>('select request_id from deposits where instr(lower(tx_hash), ?) > 0 and status = ?', d.tx.hash, 'credited')[0];
    const r = paid?.request_id ? m.requests.find((x) => x.id === paid.request_id) : undefined;
    if (r && r.partner === to) r.state = 'paid';
  }
  // every transaction the model knows: at most one top-up, to the partner the model says
  for (const t of m.txs) {
    const rows = topupsOfTx(w, t.hash);
    if (rows.length > 1) v.push(`transaction ${t.network}:${t.hash} credited ${rows.length} times (${rows.map((r) => `partner ${r.partner_id}`).join(', ')})`);
    else if (rows.length === 1 && rows[0].partner_id !== t.creditedTo) v.push(`transaction ${t.hash} credited to partner ${rows[0].partner_id}, expected ${t.creditedTo ?? 'nobody'}`);
    else if (rows.length === 0 && t.creditedTo !== null) v.push(`transaction ${t.hash} credited to partner ${t.creditedTo} has no top-up any more`);
  }
}

function checkLedger(w: World, m: Model, orders: Map<string, DbOrder>, v: string[]): void {
  const sums = new Map(w.sql<{ partner_id: number; currency: string; s: number }>('select partner_id, currency, sum(amount) as s from ledger_entries group by partner_id, currency').map((r) => [`${r.partner_id}:${r.currency}`, r.s]));
  const balances = w.sql<{ partner_id: number; currency: Currency; balance: number }>('select partner_id, currency, balance from accounts');
  for (const a of balances) {
    const sum = sums.get(`${a.partner_id}:${a.currency}`) ?? 0;
    if (a.balance !== sum) v.push(`partner ${a.partner_id} ${a.currency}: balance ${a.balance} but its entries sum to ${sum}`);
    if (a.balance < 0) v.push(`partner ${a.partner_id} ${a.currency}: negative balance ${a.balance}`);
  }
  const refunded = (id: string) => Boolean(orders.get(id)?.refunded);
  for (const p of m.partners) {
    for (const c of ['USD', 'TON'] as const) {
      const actual = balances.find((a) => a.partner_id === p.id && a.currency === c)?.balance ?? 0;
      const expected = expectedBalance(m, p.id, c, refunded);
      if (actual !== expected) v.push(`partner ${p.id} ${c}: balance ${actual}, the model expects ${expected} (credits ${m.credits.get(`${p.id}:${c}`) ?? 0})`);
    }
  }
}

function checkOrders(w: World, m: Model, orders: Map<string, DbOrder>, v: string[]): void {
  const entries = w.sql<{ order_id: string; kind: string; amount: number; currency: string; partner_id: number }>('select order_id, kind, amount, currency, partner_id from ledger_entries where order_id is not null');
  const byOrder = new Map<string, typeof entries>();
  for (const e of entries) byOrder.set(e.order_id, [...(byOrder.get(e.order_id) ?? []), e]);
  for (const id of byOrder.keys()) if (!orders.has(id)) v.push(`ledger entries for order ${id}, which does not exist`);
  const perKey = new Map<string, string[]>();
  for (const o of orders.values()) {
    const es = byOrder.get(o.order_id) ?? [];
    const debits = es.filter((e) => e.amount < 0);
    const refunds = es.filter((e) => e.amount > 0);
    if (debits.length !== 1 || debits[0].amount !== -o.amount || debits[0].partner_id !== o.partner_id || debits[0].currency !== o.currency)
      v.push(`order ${o.order_id} debited ${debits.length} times (${debits.map((d) => d.amount).join(', ')}) for ${o.amount}`);
    if (refunds.length > 1) v.push(`order ${o.order_id} refunded ${refunds.length} times`);
    if (refunds.length === 1 && (refunds[0].amount !== o.amount || refunds[0].partner_id !== o.partner_id)) v.push(`order ${o.order_id} refunded ${refunds[0].amount} for ${o.amount}`);
    if (Boolean(o.refunded) !== (refunds.length === 1)) v.push(`order ${o.order_id}: refunded=${Boolean(o.refunded)} with ${refunds.length} refund entries`);
    const k = keyOf(o.partner_id, o.idempotency_key);
    perKey.set(k, [...(perKey.get(k) ?? []), o.order_id]);
    const known = m.orders.get(o.order_id);
    if (!known) v.push(`order ${o.order_id} (key ${o.idempotency_key}) exists but no answer made it`);
    else if (known.amount !== o.amount || known.currency !== o.currency) v.push(`order ${o.order_id}: debited ${o.amount} ${o.currency}, its answer said ${known.amount} ${known.currency}`);
  }
  for (const [k, ids] of perKey) if (ids.length > 1) v.push(`key ${k.replace('\u0000', '/')} has ${ids.length} orders: ${ids.join(', ')}`);
  for (const o of m.orders.values()) if (!orders.has(o.id)) v.push(`order ${o.id} was answered but is gone`);
  // an unfinished order outside review has a job that moves it on, or it waits forever
  const jobs = new Set(w.sql<{ ref: string }>("select ref from jobs where kind = 'order.process'").map((j) => j.ref));
  for (const o of orders.values()) {
    const known = m.orders.get(o.order_id);
    if (known && o.review_stage !== null && !known.reviewed) {
      known.reviewed = true;
      saw(m, `order in review: ${o.type}`);
    }
    if (o.status === 'processing' && o.review_stage === null && !jobs.has(o.order_id)) v.push(`order ${o.order_id} is processing with no job to move it on`);
  }
}

/** The suppliers' books against the orders: what was (maybe) paid or sent is never refunded by itself. */
function checkSupplied(w: World, m: Model, orders: Map<string, DbOrder>, v: string[]): void {
  for (const o of orders.values()) {
    const known = m.orders.get(o.order_id);
    const events = w.supplied.get(o.order_id) ?? [];
    const sent = events.some((e) => e.kind === 'goods' || e.kind === 'gift_payment' || e.kind === 'gift_transfer');
    if (o.refunded && sent && (known?.operatorRefund ?? 'no') === 'no')
      v.push(`order ${o.order_id} (${o.type} to ${o.recipient}) refunded without an operator although the supplier ${events.map((e) => (e.kind === 'goods' ? `sent ${e.outcome}` : e.kind === 'gift_payment' ? `took a payment${e.confirmed ? '' : ' (unconfirmed)'}` : 'sent the transfer')).join(', ')}`);
    const payments = events.filter((e) => e.kind === 'gift_payment');
    if (payments.length > 1) v.push(`order ${o.order_id}: the gift was paid ${payments.length} times`);
    for (const p of payments) {
      if (p.kind !== 'gift_payment') continue;
      if (known?.capNano != null && BigInt(p.amountNano) > known.capNano) v.push(`order ${o.order_id}: paid ${p.amountNano} nanoTON for a gift the order fixed at ${known.capNano}`);
    }
    if (o.status === 'completed' && !known?.operatorDelivered) {
      const delivered = events.some((e) => (e.kind === 'goods' && e.outcome === 'delivered') || (e.kind === 'gift_transfer' && e.confirmed));
      if (!delivered) v.push(`order ${o.order_id} (${o.type}) completed but the supplier delivered nothing and no operator said so`);
    }
  }
}

function checkEvents(w: World, m: Model, orders: Map<string, DbOrder>, v: string[]): void {
  const rows = w.sql<{ order_id: string; event: string; body: string }>("select order_id, event, body from events where order_id != '' order by event_id");
  const byOrder = new Map<string, typeof rows>();
  for (const r of rows) byOrder.set(r.order_id, [...(byOrder.get(r.order_id) ?? []), r]);
  for (const o of orders.values()) {
    const refunded = Boolean(o.refunded);
    const got = (byOrder.get(o.order_id) ?? []).map((r) => r.event).sort();
    const want = expectedEvents(o.status, refunded);
    if (got.join() !== want.join()) v.push(`order ${o.order_id} (${o.type}, ${o.status}${refunded ? ', refunded' : ''}) has events [${got.join(', ')}], the contract gives [${want.join(', ')}]`);
    const known = m.orders.get(o.order_id);
    for (const r of byOrder.get(o.order_id) ?? []) {
      const body = JSON.parse(r.body) as { event: string; order_id: string; data: Record<string, any> };
      if (body.event !== r.event || body.order_id !== o.order_id) v.push(`event ${r.event} of ${o.order_id} has the body of ${body.event} for ${body.order_id}`);
      if (r.event === 'order.refunded') {
        const op = known?.operatorRefund ?? 'no';
        const reasons = op === 'maybe' ? [...refundReasons(o.type, true), ...refundReasons(o.type, false)] : refundReasons(o.type, op === 'done');
        if (!reasons.includes(body.data.reason)) v.push(`order ${o.order_id} (${o.type}) refunded with reason ${body.data.reason}, expected ${reasons.join(' or ')}`);
        const amount = o.currency === 'USD' ? o.amount / 100 : o.amount / 1000;
        if (body.data.refund_amount !== amount || body.data.currency !== o.currency) v.push(`order ${o.order_id}: order.refunded says ${body.data.refund_amount} ${body.data.currency} for ${amount} ${o.currency}`);
      }
      if (r.event === 'order.completed' && body.data.status !== 'completed') v.push(`order ${o.order_id}: order.completed carries status ${body.data.status}`);
      if (r.event === 'order.failed' && (!['failed', 'canceled'].includes(body.data.status) || body.data.refunded !== true))
        v.push(`order ${o.order_id}: order.failed carries status ${body.data.status}, refunded ${body.data.refunded}`);
    }
    // a final order keeps its outcome
    if (known) {
      if (known.final && (known.final.status !== o.status || known.final.refunded !== refunded))
        v.push(`order ${o.order_id} was final (${known.final.status}${known.final.refunded ? ', refunded' : ''}) and is now ${o.status}${refunded ? ', refunded' : ''}`);
      if (!known.final && isFinal(o.status, refunded)) {
        known.final = { status: o.status, refunded };
        const by = known.operatorDelivered || known.operatorRefund !== 'no' ? ' by an operator' : '';
        saw(m, `order final: ${o.type} ${refunded ? 'refunded' : o.status}${by}`);
      }
    }
  }
}

function checkWebhooks(w: World, m: Model, v: string[]): void {
  const withHook = new Set(m.partners.filter((p) => p.webhook).map((p) => p.id));
  const events = w.sql<{ event_id: number; partner_id: number; order_id: string; event: string; body: string }>("select event_id, partner_id, order_id, event, body from events where order_id != '' and event like 'order.%'");
  const deliveries = new Map(
    w.sql<{ webhook_id: string; event_id: number; status: string; attempts: number; rejected_reason: string | null }>('select webhook_id, event_id, status, attempts, rejected_reason from webhook_deliveries').map((d) => [d.event_id, d]),
  );
  const jobs = new Set(w.sql<{ ref: string }>("select ref from jobs where kind = 'webhook.deliver'").map((j) => j.ref));
  for (const e of events) {
    if (!withHook.has(e.partner_id)) continue;
    const d = deliveries.get(e.event_id);
    if (!d) {
      v.push(`event ${e.event} of ${e.order_id} has no webhook delivery`);
      continue;
    }
    if (d.status === 'pending' && !jobs.has(d.webhook_id)) v.push(`webhook ${d.webhook_id} (${e.event} of ${e.order_id}) is pending with no job: it would never be sent`);
    if (d.status === 'failed' && d.attempts < 6 && d.rejected_reason === null) v.push(`webhook ${d.webhook_id} (${e.event} of ${e.order_id}) failed after ${d.attempts} attempts`);
    // the delivery log against what the receiver got: delivered means answered 2xx, with the event's own body
    const got = w.receivedById.get(d.webhook_id);
    if (d.status === 'delivered' && !got?.answered2xx) v.push(`webhook ${d.webhook_id} (${e.event} of ${e.order_id}) is delivered but the receiver never answered it 2xx`);
    if (got && [...got.bodies].some((b) => b !== e.body)) v.push(`webhook ${d.webhook_id} (${e.event} of ${e.order_id}) was sent a body other than its event's`);
  }
  // every request the receiver got verifies with its partner's secret
  const secrets = m.partners.filter((p) => p.secret).map((p) => p.secret!);
  for (const r of w.received.splice(0)) {
    const sig = r.headers['X-Signature'] ?? r.headers['x-signature'];
    if (!secrets.some((s) => crypto.createHmac('sha256', s).update(r.body).digest('hex') === sig)) v.push(`a webhook (${r.headers['X-Webhook-Event'] ?? '?'}) does not verify with any partner's secret`);
  }
}

/**
 * The service's own audit (GET /ledger/check) finds nothing where the invariants above found nothing: the
 * check operators run must not cry wolf, and must agree with an independent reading of the same ledger.
 */
export async function auditAgrees(w: World): Promise<string[]> {
  const a = await w.admin('GET', '/ledger/check');
  if (a.status !== 200) return [`GET /ledger/check answered ${a.status} ${a.raw.slice(0, 200)}`];
  return a.body.ok === true ? [] : [`GET /ledger/check reports problems the simulation does not: ${JSON.stringify(a.body.problems).slice(0, 500)}`];
}
