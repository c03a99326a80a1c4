import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryOutcome, DeliveryRequest } from '../../src/suppliers/types.js';
import { codeOf, startService, stopService, type Res, type TestPartner, type TestService } from '../helpers.js';

/**
 * Support's cancellation of an unfinished Premium order (operator-api.md §2 POST /orders/{id}/cancel,
 * partner-api.md States rule 1), including a cancellation that meets a supplier call under way.
 */
let t: TestService;
beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000' });
});
afterAll(() => stopService(t));

const DAY = 86_400;
const balance = async (p: TestPartner) => (await p.call('GET', '/me')).body.balances.USD as string;
const events = (orderId: string) =>
  (t.db.$client.prepare('select event, body from events where order_id = ? order by rowid').all(orderId) as { event: string; body: string }[]).map((e) => ({
    event: e.event,
    data: JSON.parse(e.body).data,
  }));
const check = async () => (await t.admin('GET', '/ledger/check')).body;

/** The supplier's deliver calls, and a gate that holds them until the test lets them go. */
function gateSupplier() {
  const goods = t.deps.suppliers.goods;
  const real = goods.deliver;
  const calls: DeliveryRequest[] = [];
  let open!: () => void;
  let gate = new Promise<void>((resolve) => (open = resolve));
  let entered!: () => void;
  const inCall = new Promise<void>((resolve) => (entered = resolve));
  goods.deliver = async (req: DeliveryRequest): Promise<DeliveryOutcome> => {
    calls.push(req);
    entered();
    await gate;
    return real(req);
  };
  return {
    calls,
    inCall,
    release() {
      open();
      gate = Promise.resolve();
    },
    restore() {
      goods.deliver = real;
    },
  };
}

function expectCanceled(c: Res, orderId: string) {
  expect(c.status).toBe(200);
  expect(c.body).toMatchObject({ order_id: orderId, type: 'premium', status: 'canceled', refunded: true, completed_at: null, review: null });
  expect(c.body.ledger.map((e: any) => e.kind).sort()).toEqual(['order_debit', 'order_refund']);
  const evs = events(orderId);
  expect(evs.map((e) => e.event).sort()).toEqual(['order.failed', 'order.refunded']);
  expect(evs.find((e) => e.event === 'order.refunded')!.data).toMatchObject({ order_id: orderId, reason: 'premium_canceled', currency: 'USD' });
  expect(evs.find((e) => e.event === 'order.failed')!.data).toMatchObject({ order_id: orderId, status: 'canceled', refunded: true });
}

describe('when support cancels a Premium order', () => {
  it('then an order right after its creation is canceled and refunded, and the supplier is never asked', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const spy = gateSupplier();
    spy.release();
    try {
      const r = await p.order('premium', { months: 3, recipient: 'premium_fresh' });
      expect(r.status).toBe(200);
      expect(await balance(p)).toBe('87.41');
      const c = await t.admin('POST', `/orders/${r.body.order_id}/cancel`, { note: 'customer changed their mind' });
      expectCanceled(c, r.body.order_id);
      expect(await balance(p)).toBe('100.00');
      // a plain account too, which the supplier would have served 3 s later
      const plain = await p.order('premium', { months: 6, recipient: 'plain_fresh' });
      expectCanceled(await t.admin('POST', `/orders/${plain.body.order_id}/cancel`, {}), plain.body.order_id);
      await t.advance(60);
      expect(spy.calls).toEqual([]);
      expect((await p.call('GET', `/orders/${plain.body.order_id}`)).body).toMatchObject({ status: 'canceled', refunded: true, completed_at: null });
      expect(events(plain.body.order_id).map((e) => e.event).sort()).toEqual(['order.failed', 'order.refunded']);
      expect(await balance(p)).toBe('100.00');
      // the account is free for a new order, and a second cancel is refused
      expect((await p.order('premium', { months: 3, recipient: 'premium_fresh' })).status).toBe(200);
      const again = await t.admin('POST', `/orders/${r.body.order_id}/cancel`, {});
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'not_cancelable', reason: 'finished' });
      expect(await check()).toEqual({ ok: true, problems: [] });
    } finally {
      spy.restore();
    }
  });

  it('then an order waiting after the daily deferral is canceled and refunded', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const r = await p.order('premium', { months: 12, recipient: 'premium_waits' });
    await t.advance(10);
    await t.advance(DAY + 60); // the first daily retry ran and deferred again
    const view = (await t.admin('GET', `/orders/${r.body.order_id}`)).body;
    expect(view).toMatchObject({ status: 'processing', refunded: false });
    const job = t.db.$client.prepare("select run_at from jobs where kind = 'order.process' and ref = ?").get(r.body.order_id) as { run_at: number } | undefined;
    expect(job).toBeDefined();
    const c = await t.admin('POST', `/orders/${r.body.order_id}/cancel`, { note: 'asked by the partner' });
    expectCanceled(c, r.body.order_id);
    expect(t.db.$client.prepare("select 1 from jobs where kind = 'order.process' and ref = ?").get(r.body.order_id)).toBeUndefined();
    expect(await balance(p)).toBe('100.00');
    await t.advance(40 * DAY); // the subscription ends: nothing is delivered any more
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'canceled', refunded: true });
    expect(events(r.body.order_id)).toHaveLength(2);
  });

  it('then orders other than unfinished Premium are not cancelable', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const s = await p.order('stars', { quantity: 50, recipient: 'stars_only' });
    const bad = await t.admin('POST', `/orders/${s.body.order_id}/cancel`, {});
    expect(bad.status).toBe(409);
    expect(bad.body).toEqual({ code: 'not_cancelable', detail: expect.any(String), reason: 'not_premium' });
    const done = await p.order('premium', { months: 3, recipient: 'plain_done' });
    await t.advance(10);
    expect((await p.call('GET', `/orders/${done.body.order_id}`)).body.status).toBe('completed');
    const late = await t.admin('POST', `/orders/${done.body.order_id}/cancel`, {});
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'not_cancelable', reason: 'delivered' });
    expect(codeOf(await t.admin('POST', '/orders/PA-999999999/cancel', {}))).toBe('not_found');
  });
});

describe('when a cancellation races a delivery attempt under way', () => {
  it('then a call that delivers wins: 409 not_cancelable, completed, no refund', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const r = await p.order('premium', { months: 3, recipient: 'plain_race' });
    const gate = gateSupplier();
    try {
      const advancing = t.advance(5); // the first delivery attempt starts at 3 s and waits at the gate
      await gate.inCall;
      let answered = false;
      const cancel = t.admin('POST', `/orders/${r.body.order_id}/cancel`, {}).then((x) => ((answered = true), x));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false); // the cancellation waits for the call
      gate.release();
      const [c] = await Promise.all([cancel, advancing]);
      expect(c.status).toBe(409);
      expect(c.body).toMatchObject({ code: 'not_cancelable', reason: 'delivered' });
    } finally {
      gate.restore();
    }
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'completed', refunded: false });
    expect(events(r.body.order_id).map((e) => e.event)).toEqual(['order.completed']);
    expect(await balance(p)).toBe('87.41');
    expect(await check()).toEqual({ ok: true, problems: [] });
  });

  it('then a call that defers lets the cancellation through: canceled, refunded, never delivered', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const r = await p.order('premium', { months: 3, recipient: 'premium_race' });
    const gate = gateSupplier();
    try {
      const advancing = t.advance(5);
      await gate.inCall;
      const cancel = t.admin('POST', `/orders/${r.body.order_id}/cancel`, {});
      await new Promise((resolve) => setTimeout(resolve, 20));
      gate.release();
      const [c] = await Promise.all([cancel, advancing]);
      expectCanceled(c, r.body.order_id);
      await t.advance(40 * DAY);
      expect(gate.calls).toHaveLength(1);
    } finally {
      gate.restore();
    }
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'canceled', refunded: true, completed_at: null });
    expect(events(r.body.order_id).map((e) => e.event).sort()).toEqual(['order.failed', 'order.refunded']);
    expect(await balance(p)).toBe('100.00');
    expect(await check()).toEqual({ ok: true, problems: [] });
  });

  it('then a call that outlasts the wait leaves the order alone: 409 delivery_in_progress, and the call decides', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const r = await p.order('premium', { months: 3, recipient: 'plain_slowcall' });
    const gate = gateSupplier();
    const waitMs = t.deps.supplierCalls.waitMs;
    t.deps.supplierCalls.waitMs = 30;
    try {
      const advancing = t.advance(5);
      await gate.inCall;
      const c = await t.admin('POST', `/orders/${r.body.order_id}/cancel`, {});
      expect(c.status).toBe(409);
      expect(c.body).toMatchObject({ code: 'not_cancelable', reason: 'delivery_in_progress' });
      expect((await t.admin('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'processing', refunded: false });
      gate.release();
      await advancing;
    } finally {
      t.deps.supplierCalls.waitMs = waitMs;
      gate.restore();
    }
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'completed', refunded: false });
    expect(events(r.body.order_id).map((e) => e.event)).toEqual(['order.completed']);
    expect(await check()).toEqual({ ok: true, problems: [] });
  });
});

describe('when the process died after the supplier delivered and before the outcome was written', () => {
  it('then the restarted service asks the supplier again before any cancellation: 409 delivery_in_progress while the step is due, then completed, never refunded', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const r = await p.order('premium', { months: 3, recipient: 'plain_killed' });
    // the supplier delivers, and the process is killed before the answer is written: the files as they are on
    // disk at that instant start a second service (what a restart after kill -9 finds)
    const goods = t.deps.suppliers.goods;
    const real = goods.deliver;
    let killed!: () => void;
    const atKill = new Promise<void>((resolve) => (killed = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-test-killed-'));
    goods.deliver = async (req) => {
      const outcome = await real(req);
      expect(outcome.kind).toBe('delivered');
      for (const f of fs.readdirSync(t.dir)) if (f !== 'service.db-shm') fs.copyFileSync(path.join(t.dir, f), path.join(dir, f));
      killed();
      await held;
      return outcome;
    };
    const advancing = t.advance(5);
    await atKill;
    const again = await startService({ ...t.env, DATABASE_PATH: path.join(dir, 'service.db') }, { dir });
    try {
      const id = r.body.order_id as string;
      expect((await again.admin('GET', `/orders/${id}`)).body).toMatchObject({ status: 'processing', refunded: false });
      const c = await again.admin('POST', `/orders/${id}/cancel`, { note: 'the partner asked' });
      expect(c.status).toBe(409);
      expect(c.body).toMatchObject({ code: 'not_cancelable', reason: 'delivery_in_progress' });
      // its step runs: the supplier answers for the same order again, and the order completes
      await again.advance(0);
      expect((await again.admin('GET', `/orders/${id}`)).body).toMatchObject({ status: 'completed', refunded: false });
      const late = await again.admin('POST', `/orders/${id}/cancel`, {});
      expect(late.body).toMatchObject({ code: 'not_cancelable', reason: 'delivered' });
      expect((await again.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
    } finally {
      release();
      await advancing;
      goods.deliver = real;
      await stopService(again);
    }
  });
});
