import { describe, expect, it } from 'vitest';
import type { Transaction } from '@ton/core';
import { batchPayments, getBatch, getPayment } from '../../src/store/fragment-payments-repo.js';
import { commentOf, refOf } from '../../src/suppliers/fragment/payment-checks.js';
import { fragmentHarness, type FragmentEnv } from './harness.js';
import { BOUNCING_ADDRESS, FRAGMENT_ADDRESS } from './fakes.js';

/**
 * UPSTREAM=fragment, payments in batches: orders ready to pay together leave in one signed transfer of the
 * hot wallet (the real V4R2 and V5R1 contracts in @ton/sandbox), one message or more per order, each matched
 * on chain to its own order by its Ref#; one batch in flight per wallet; purchases prepared concurrently.
 * One order's step looks its batch up; the other orders of the batch learn the outcome at their next step
 * (a second later), hence `advance(2)` where a whole batch is expected settled.
 */
const start = fragmentHarness();

const USERS: [string, boolean][] = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'].map((u) => [`${u}_fan`, false]);

async function status(p: { call: (m: string, u: string) => Promise<any> }, orderId: string) {
  return (await p.call('GET', `/orders/${orderId}`)).body;
}

/** The outgoing messages of a wallet transaction: destination, value, comment. */
function outs(tx: Transaction) {
  return [...tx.outMessages.values()].map((m) => ({
    to: m.info.dest!.toString(),
    value: m.info.type === 'internal' ? m.info.value.coins : 0n,
    comment: commentOf(m.body.toBoc().toString('base64')),
  }));
}

async function orders(e: FragmentEnv, n: number, quantity = (i: number) => 50 + i * 10) {
  const p = await e.t.newPartner();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await p.order('stars', { quantity: quantity(i), recipient: USERS[i][0] });
    expect(r.status).toBe(200);
    ids.push(r.body.order_id);
  }
  return { p, ids };
}

describe('Fragment adapter: batched payments', () => {
  it('orders ready together leave in one V5R1 transfer: one message per order with its own amount, destination and payload; each order matched by its Ref#', async () => {
    const e = await start({ users: USERS, extra: { FRAGMENT_WALLET_VERSION: 'v5r1' } });
    const { p, ids } = await orders(e, 6);
    await e.advance(0);
    expect(e.ton.received).toHaveLength(1);
    const [tx] = [...e.ton.executed.values()];
    const sent = outs(tx);
    expect(sent).toHaveLength(6);
    // every message is an order's own: its quantity, its request's reference, its amount
    for (const [i, id] of ids.entries()) {
      const pay = getPayment(e.t.db, id)!;
      const mine = sent.filter((m) => refOf(m.comment) === pay.ref);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ to: FRAGMENT_ADDRESS.toString(), value: BigInt(pay.amountNano) });
      expect(mine[0].comment).toMatch(new RegExp(`^${50 + i * 10} Telegram Stars \\n\\nRef#`));
      expect(pay).toMatchObject({ state: 'sent', seqno: 0, batchId: ids.map((x) => getPayment(e.t.db, x)!.batchId)[0] });
    }
    const batch = getBatch(e.t.db, getPayment(e.t.db, ids[0])!.batchId)!;
    expect(batch).toMatchObject({ orders: 6, messages: 6, seqno: 0, state: 'sent' });
    // each request's confirm call carries the batch's transfer
    expect(e.fragment.confirmed).toHaveLength(6);
    expect(new Set(e.fragment.confirmed.map((c) => c.boc))).toEqual(new Set([e.ton.received[0]]));
    await e.advance(2);
    for (const id of ids) expect(await status(p, id)).toMatchObject({ status: 'completed' });
    expect(getBatch(e.t.db, batch.batchId)).toMatchObject({ state: 'done', txHash: tx.hash().toString('base64') });
    // the receipts of the whole batch come from one index call, not one per message
    expect(e.ton.adjacentCalls).toBe(1);
    const ev = await e.t.admin('GET', `/fragment/payments/${ids[2]}`);
    expect(ev.body).toMatchObject({ state: 'paid', tx_hash: tx.hash().toString('base64'), batch: { batch_id: batch.batchId, orders: 6, messages: 6, state: 'done' } });
    await e.advance(60);
    expect(e.ton.received).toHaveLength(1);
  });

  it('one batch in flight per wallet: orders arriving meanwhile are prepared and wait, and leave together in the next transfer (the next seqno) as soon as the first is found on chain', async () => {
    const e = await start({ users: USERS, extra: { FRAGMENT_WALLET_VERSION: 'v5r1' } });
    const p = await e.t.newPartner();
    e.ton.sendMode = 'drop'; // the first transfer reaches toncenter but not the chain yet
    const first = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    await e.advance(0);
    expect(e.ton.held).toHaveLength(1);
    e.ton.sendMode = 'ok';
    const later: string[] = [];
    for (const u of ['bob_fan', 'carol_fan', 'dave_fan']) later.push((await p.order('stars', { quantity: 70, recipient: u })).body.order_id);
    await e.advance(1);
    await e.advance(1);
    // prepared (their requests opened), not signed: nothing else leaves while a batch is unsettled
    expect(e.fragment.calls.filter((c) => c.method === 'getBuyStarsLink')).toHaveLength(4);
    expect(e.ton.received).toHaveLength(1);
    for (const id of later) expect(getPayment(e.t.db, id)).toBeUndefined();
    // the first batch lands: the next forms at once with the three waiting orders
    await e.ton.execute(e.ton.held[0]);
    await e.advance(2);
    expect(e.ton.received).toHaveLength(2);
    const second = getPayment(e.t.db, later[0])!;
    expect(second).toMatchObject({ seqno: 1 });
    expect(getBatch(e.t.db, second.batchId)).toMatchObject({ orders: 3, messages: 3 });
    await e.advance(1);
    for (const id of [first.body.order_id, ...later]) expect((await status(p, id)).status).toBe('completed');
    expect(e.ton.executed.size).toBe(2);
  });

  it('FRAGMENT_BATCH_MAX=1 restores one order per transfer: a second order waits until the first is settled, then uses the next seqno', async () => {
    const e = await start({ extra: { FRAGMENT_BATCH_MAX: '1' } });
    const p = await e.t.newPartner();
    const a = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    const b = await p.order('stars', { quantity: 200, recipient: 'carol_fan' });
    await e.advance(0);
    expect(e.ton.received).toHaveLength(1);
    await e.advance(1);
    expect(e.ton.received).toHaveLength(2);
    await e.advance(1);
    expect((await status(p, a.body.order_id)).status).toBe('completed');
    expect((await status(p, b.body.order_id)).status).toBe('completed');
    expect(getPayment(e.t.db, b.body.order_id)!.seqno).toBe(1);
    expect(e.ton.executed.size).toBe(2);
    for (const tx of e.ton.executed.values()) expect(tx.outMessages.size).toBe(1);
  });

  it('a V4R2 wallet keeps working, four messages per transfer at most (its own limit)', async () => {
    const e = await start({ users: USERS, extra: { FRAGMENT_WALLET_VERSION: 'v4r2' } });
    const { p, ids } = await orders(e, 6);
    await e.advance(0);
    expect(e.ton.received).toHaveLength(1);
    await e.advance(1);
    expect(e.ton.received).toHaveLength(2);
    await e.advance(2);
    for (const id of ids) expect((await status(p, id)).status).toBe('completed');
    expect([...e.ton.executed.values()].map((tx) => tx.outMessages.size)).toEqual([4, 2]);
    expect(new Set(ids.map((id) => getPayment(e.t.db, id)!.seqno))).toEqual(new Set([0, 1]));
  });

  it('a message Fragment bounced sends only its own order to review: the others of the batch are paid; matched by Ref#, not by amount (all amounts equal)', async () => {
    const e = await start({ users: USERS, extra: { FRAGMENT_WALLET_VERSION: 'v5r1', FRAGMENT_PAY_ADDRESSES: `${FRAGMENT_ADDRESS.toString()},${BOUNCING_ADDRESS.toString()}` } });
    e.fragment.payTo.set('carol_fan', BOUNCING_ADDRESS);
    const { p, ids } = await orders(e, 4, () => 100);
    await e.advance(0);
    await e.advance(2);
    expect(e.ton.received).toHaveLength(1);
    const [tx] = [...e.ton.executed.values()];
    expect(new Set(outs(tx).map((m) => m.value)).size).toBe(1);
    const bounced = ids[2];
    expect(await status(p, bounced)).toMatchObject({ status: 'failed', refunded: false });
    expect(getPayment(e.t.db, bounced)).toMatchObject({ state: 'review', detail: expect.stringContaining('bounced') });
    for (const id of ids.filter((x) => x !== bounced)) {
      expect(await status(p, id)).toMatchObject({ status: 'completed' });
      expect(getPayment(e.t.db, id)!.state).toBe('paid');
    }
    const alerts = e.alerts.filter((a) => a.kind === 'supplier' && a.problem === 'payment_bounced');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ detail: expect.stringContaining(bounced) });
    expect(e.alerts.filter((a) => a.kind === 'review').map((a) => (a as { orderId: string }).orderId)).toEqual([bounced]);
    expect(getBatch(e.t.db, getPayment(e.t.db, bounced)!.batchId)!.state).toBe('done');
  });

  it('a batch that never reached the chain is provably unpaid after expiry (seqno unchanged): all its orders are paid again in one new batch, each once', async () => {
    const e = await start({ users: USERS, extra: { FRAGMENT_WALLET_VERSION: 'v5r1' } });
    e.ton.sendMode = 'drop';
    const { p, ids } = await orders(e, 3);
    await e.advance(0);
    const voidBatch = getPayment(e.t.db, ids[0])!.batchId;
    expect(e.ton.held).toHaveLength(1);
    e.ton.sendMode = 'ok';
    await e.advance(100);
    expect(e.ton.received).toHaveLength(1);
    for (const id of ids) expect((await status(p, id)).status).toBe('processing');
    await e.advance(60);
    expect(getBatch(e.t.db, voidBatch)).toMatchObject({ state: 'void', detail: 'expired unexecuted (seqno unchanged)' });
    expect(e.ton.received).toHaveLength(2);
    await e.advance(1);
    for (const id of ids) {
      expect((await status(p, id)).status).toBe('completed');
      expect(getPayment(e.t.db, id)).toMatchObject({ state: 'paid', attempts: 2, seqno: 0 });
    }
    expect(batchPayments(e.t.db, voidBatch)).toHaveLength(0); // the void rows were replaced by the new batch's
    expect(e.ton.executed.size).toBe(1);
    // the old transfer, surfacing now, cannot pay again: it has expired (and its seqno was used)
    expect(await e.ton.execute(e.ton.held[0])).toBeNull();
  });
});

describe('Fragment adapter: purchases prepared in parallel', () => {
  it('the requests of many orders run at once, never more than FRAGMENT_PREPARE_CONCURRENCY; a recipient problem fails only its own order', async () => {
    const e = await start({ users: USERS, extra: { FRAGMENT_WALLET_VERSION: 'v5r1', FRAGMENT_PREPARE_CONCURRENCY: '3' } });
    const { p, ids } = await orders(e, 8);
    e.fragment.users.delete('dave_fan'); // gone by delivery time
    e.fragment.delayMs = 30;
    e.fragment.maxInFlight = 0;
    await e.advance(0);
    e.fragment.delayMs = 0;
    expect(e.fragment.maxInFlight).toBe(3);
    expect(await status(p, ids[3])).toMatchObject({ status: 'failed', refunded: true });
    expect(e.ton.received).toHaveLength(1);
    await e.advance(2);
    for (const id of ids.filter((x) => x !== ids[3])) expect((await status(p, id)).status).toBe('completed');
    expect([...e.ton.executed.values()][0].outMessages.size).toBe(7);
  });

  it("Fragment's 429 during a batch's preparation: no call before its Retry-After, then the waiting orders are paid together", async () => {
    const e = await start({ users: USERS, extra: { FRAGMENT_WALLET_VERSION: 'v5r1' } });
    const { p, ids } = await orders(e, 5);
    e.fragment.mode = 'rate_limited';
    e.fragment.retryAfter = 20;
    await e.advance(0);
    const calls = e.fragment.calls.length;
    e.fragment.mode = 'ok';
    await e.advance(10);
    expect(e.fragment.calls.length).toBe(calls);
    expect(e.alerts.filter((a) => a.kind === 'supplier')).toEqual([]);
    await e.advance(10);
    await e.advance(2);
    for (const id of ids) expect((await status(p, id)).status).toBe('completed');
    expect(e.ton.received).toHaveLength(1);
  });
});
