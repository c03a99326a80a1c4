import type { ChainPayment } from './fragment-stand.js';
import { saw, type Model } from './model.js';
import type { World } from './world.js';

/**
 * The invariants of Fragment's batches, checked after every step of a Fragment history: the wallet's
 * transactions on the chain and the requests Fragment opened (the outside world's books) against the service's
 * database (read with plain SQL) and the model.
 *
 *  - nothing is paid twice: at most one message on chain per order (a bounced one included: its TON came back,
 *    and only an operator decides what follows), at most one per `Ref#`;
 *  - every message on chain pays a request Fragment opened for an order's own recipient (never the price probe's,
 *    never a request of no order), exactly the amount Fragment asked, and no more than the order's TON cost (as
 *    first fixed, never changed) plus the tolerance;
 *  - each order is matched to its own out-message: a payment `paid` carries the wallet transaction and the hash
 *    of the one message naming its `Ref#`, which Fragment's address took; one `bounced` in review is the one
 *    whose message came back, and one whose message was taken is not in review (unless its receipt could not be
 *    read within the bound); a batch proven `void` was never executed on chain; one batch in flight at most;
 *  - an order whose payment may have left (a live payment row) is not refunded without an operator.
 *
 * What the chain says each order was sent becomes the supplier's books of the general invariants (a completed
 * order was delivered, what was sent is not refunded without an operator).
 */

/** FRAGMENT_AMOUNT_TOLERANCE_PCT's default (2 %), in basis points. */
const TOLERANCE_BPS = 200n;

interface PaymentRow {
  order_id: string;
  batch_id: string;
  state: string;
  ref: string | null;
  amount_nano: string;
  tx_hash: string | null;
  out_hashes: string | null;
  detail: string | null;
  attempts: number;
}

interface OrderRow {
  order_id: string;
  type: 'stars' | 'premium' | 'nft';
  account: string;
  refunded: number;
}

export function checkFragment(w: World, m: Model, v: string[]): void {
  const stand = w.fragment!;
  const orders = w.sql<OrderRow>('select order_id, type, account, refunded from orders');
  const byAccount = new Map(orders.map((o) => [o.account, o]));
  const rows = new Map(w.sql<PaymentRow>('select order_id, batch_id, state, ref, amount_nano, tx_hash, out_hashes, detail, attempts from fragment_payments').map((r) => [r.order_id, r]));
  const costs = new Map(w.sql<{ order_id: string; cost_nano: string }>('select order_id, cost_nano from fragment_order_costs').map((c) => [c.order_id, BigInt(c.cost_nano)]));
  for (const [id, cost] of costs) {
    const first = m.fragmentCosts.get(id);
    if (first === undefined) m.fragmentCosts.set(id, cost);
    else if (first !== cost) v.push(`order ${id}: its TON cost was fixed at ${first} nanoTON and is now ${cost}`);
  }

  // the chain's books: each message of the wallet, to the order whose recipient's request it names
  const paid = new Map<string, ChainPayment[]>();
  const perRef = new Map<string, number>();
  for (const p of stand.payments()) {
    if (p.ref === null) {
      v.push(`a message of the wallet (${p.valueNano} nanoTON in ${p.txHash}) names no Ref#`);
      continue;
    }
    perRef.set(p.ref, (perRef.get(p.ref) ?? 0) + 1);
    const req = stand.request(p.ref);
    const account = req?.recipient.replace(/^rcp_/, '');
    const order = account === undefined ? undefined : byAccount.get(account);
    if (!req || !order) {
      v.push(`a message of the wallet (${p.valueNano} nanoTON, Ref#${p.ref}) pays ${req ? `a request for ${req.recipient}, no order's` : 'no request Fragment opened'}`);
      continue;
    }
    paid.set(order.order_id, [...(paid.get(order.order_id) ?? []), p]);
    if (p.valueNano !== req.amountNano) v.push(`order ${order.order_id}: paid ${p.valueNano} nanoTON for a request of ${req.amountNano}`);
    const cost = m.fragmentCosts.get(order.order_id);
    if (cost === undefined) v.push(`order ${order.order_id}: paid on chain with no TON cost fixed`);
    else if (p.valueNano * 10_000n > cost * (10_000n + TOLERANCE_BPS)) v.push(`order ${order.order_id}: paid ${p.valueNano} nanoTON, above its cost ${cost} plus the tolerance`);
  }
  for (const [ref, n] of perRef) if (n > 1) v.push(`Ref#${ref} paid ${n} times on chain`);
  for (const [id, ps] of paid) if (ps.length > 1) v.push(`order ${id} paid ${ps.length} times on chain (${ps.map((p) => `Ref#${p.ref}${p.taken ? '' : ' bounced'}`).join(', ')})`);

  // each payment the service settled against its own message
  for (const r of rows.values()) {
    const mine = paid.get(r.order_id) ?? [];
    if (r.state === 'paid') {
      const msg = mine.find((p) => p.ref === r.ref);
      const hashes = r.out_hashes ? (JSON.parse(r.out_hashes) as string[]) : [];
      if (!msg) v.push(`order ${r.order_id}: payment paid, but no message on chain names its Ref#${r.ref}`);
      else {
        if (!msg.taken) v.push(`order ${r.order_id}: payment paid, but its message bounced`);
        if (r.tx_hash !== msg.txHash || hashes.length !== 1 || hashes[0] !== msg.msgHash)
          v.push(`order ${r.order_id}: payment paid with transaction ${r.tx_hash} and messages ${JSON.stringify(hashes)}, its own message is ${msg.msgHash} in ${msg.txHash}`);
      }
    }
    if (r.state === 'review' && r.detail?.startsWith('bounced') && !mine.some((p) => p.ref === r.ref && !p.taken)) v.push(`order ${r.order_id}: in review as bounced, but no message of it came back`);
    // a message Fragment took sends its order to review only when its receipt could not be read in time (the
    // index down past the bound): never for another order's bounce in the same batch
    if (r.state === 'review' && mine.some((p) => p.ref === r.ref && p.taken) && !/within the bound/.test(r.detail ?? ''))
      v.push(`order ${r.order_id}: in review (${r.detail}) although Fragment took its message`);
  }

  const batches = w.sql<{ batch_id: string; norm_hash: string; state: string; orders: number }>('select batch_id, norm_hash, state, orders from fragment_batches');
  const inFlight = batches.filter((b) => b.state === 'signed' || b.state === 'sent');
  if (inFlight.length > 1) v.push(`${inFlight.length} batches in flight at once: ${inFlight.map((b) => b.batch_id.slice(0, 12)).join(', ')}`);
  for (const b of batches) {
    if (b.state === 'void' && stand.ton.executed.has(b.norm_hash)) v.push(`batch ${b.batch_id.slice(0, 12)} proven void, but it was executed on chain`);
    if (!m.fragmentBatches.has(b.batch_id)) {
      m.fragmentBatches.add(b.batch_id);
      saw(m, b.orders > 1 ? 'fragment: a batch of several orders' : 'fragment: a batch of one order');
    }
    if (b.state === 'void' && !m.fragmentVoid.has(b.batch_id)) {
      m.fragmentVoid.add(b.batch_id);
      saw(m, 'fragment: a batch proven void (expired, its seqno unused)');
    }
  }
  for (const r of rows.values()) {
    if (r.state === 'paid' && r.attempts > 1 && !m.fragmentRepaid.has(r.order_id)) {
      m.fragmentRepaid.add(r.order_id);
      saw(m, 'fragment: an order of a void batch paid in a new one');
    }
  }
  // a bounce in a batch whose other orders were paid: its order alone went to review
  for (const tx of new Set([...paid.values()].flat().map((p) => p.txHash))) {
    const all = [...paid.values()].flat().filter((p) => p.txHash === tx);
    if (all.some((p) => !p.taken) && all.some((p) => p.taken) && !m.fragmentPartial.has(tx)) {
      m.fragmentPartial.add(tx);
      saw(m, 'fragment: one message of a batch bounced, the others taken');
    }
  }

  for (const o of orders) {
    const ps = paid.get(o.order_id) ?? [];
    // the chain as the supplier's books: taken is delivered; bounced came back (not delivered)
    if (ps.length) w.supplied.set(o.order_id, ps.map((p) => ({ kind: 'goods', orderId: o.order_id, product: o.type === 'premium' ? 'premium' : 'stars', outcome: p.taken ? 'delivered' : 'unconfirmed' })));
    const row = rows.get(o.order_id);
    const known = m.orders.get(o.order_id);
    if (o.refunded && row && row.state !== 'void' && (known?.operatorRefund ?? 'no') === 'no') v.push(`order ${o.order_id} refunded without an operator while its payment is ${row.state}`);
  }
}

