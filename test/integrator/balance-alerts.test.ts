/**
 * Issue 15 point 7: low-balance alerts. Operator GET/PUT /partners/{id}/alerts (thresholds in the contract's
 * money formats, null clears), the alert state written in the debit's transaction (one alert, again only
 * after the balance was back at or above the threshold, across a restart), the opt-in `balance.low`
 * webhook (the Webhook block's `events`, default the three order events) with a real receiver.
 * The owners' bot messages: test/bot/alerts.test.ts.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BalanceLow } from '../../src/kernel/event-bus.js';
import { hdr, perTest, startService, stopService, type Received, type TestPartner, type TestService } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service, receiver, cleanup } = perTest();

const ORDER_EVENTS = ['order.completed', 'order.failed', 'order.refunded'];
const ALL_EVENTS = [...ORDER_EVENTS, 'balance.low'];
let txn = 0;

const bodyOf = (q: Received) => JSON.parse(q.raw.toString('utf8'));
const lowOf = (reqs: Received[]) => reqs.filter((q) => hdr(q, 'x-webhook-event') === 'balance.low');

function lowEvents(t: TestService): BalanceLow[] {
  const seen: BalanceLow[] = [];
  t.deps.bus.on('balance_low', (e) => seen.push(e));
  return seen;
}

async function topup(t: TestService, id: number, currency: 'USD' | 'TON', amount: string): Promise<void> {
  const r = await t.admin('POST', `/partners/${id}/topups`, { currency, amount, network: 'ton', tx_hash: `alert-tx-${process.pid}-${++txn}` });
  expect(r.status, r.raw).toBe(201);
}

async function stars(p: TestPartner, quantity: number): Promise<string> {
  const r = await p.order('stars', { quantity, recipient: '@alert_user' });
  expect(r.status, r.raw).toBe(200);
  return r.body.order_id;
}

async function usd(p: TestPartner): Promise<string> {
  return (await p.call('GET', '/me')).body.balances.USD;
}

describe('operator API: GET/PUT /partners/{id}/alerts', () => {
  it('sets, reads and clears thresholds per currency in the contract\'s money formats', async () => {
    const t = await service();
    const p = await t.newPartner();
    expect((await t.admin('GET', `/partners/${p.id}/alerts`)).body).toEqual({ USD: null, TON: null });
    let r = await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '100.00' });
    expect([r.status, r.body]).toEqual([200, { USD: '100.00', TON: null }]);
    r = await t.admin('PUT', `/partners/${p.id}/alerts`, { TON: '50.5' });
    expect(r.body).toEqual({ USD: '100.00', TON: '50.500' });
    r = await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '7', TON: '0.001' });
    expect(r.body).toEqual({ USD: '7.00', TON: '0.001' });
    expect((await t.admin('GET', `/partners/${p.id}/alerts`)).body).toEqual({ USD: '7.00', TON: '0.001' });
    r = await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: null });
    expect(r.body).toEqual({ USD: null, TON: '0.001' });
    r = await t.admin('PUT', `/partners/${p.id}/alerts`, {});
    expect(r.body).toEqual({ USD: null, TON: '0.001' });
    r = await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: null, TON: null });
    expect(r.body).toEqual({ USD: null, TON: null });
    const audit = t.db.$client.prepare("select actor, data from audit_log where action = 'alerts.save' order by audit_id").all() as { actor: string; data: string }[];
    expect(audit.map((a) => JSON.parse(a.data))).toEqual([{ USD: '100.00' }, { TON: '50.500' }, { USD: '7.00', TON: '0.001' }, { USD: null }, { USD: null, TON: null }]);
    expect(audit.every((a) => a.actor === 'operator')).toBe(true);
  });

  it('refuses too many decimals, non-strings, non-positive amounts and unknown currencies with 400 validation_error; an unknown partner is 404', async () => {
    const t = await service();
    const p = await t.newPartner();
    await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '20.00', TON: '5.000' });
    for (const [body, field] of [
      [{ USD: '100.001' }, 'USD'],
      [{ USD: '100.000' }, 'USD'],
      [{ TON: '50.0001' }, 'TON'],
      [{ USD: 100 }, 'USD'],
      [{ USD: '-5.00' }, 'USD'],
      [{ USD: '0' }, 'USD'],
      [{ TON: '0.000' }, 'TON'],
      [{ USD: 'abc' }, 'USD'],
      [{ USD: ' 10' }, 'USD'],
      [{ USD: '1e3' }, 'USD'],
      [{ USD: '' }, 'USD'],
      [{ USD: true }, 'USD'],
      [{ EUR: '1.00' }, 'EUR'],
      [{ usd: '1.00' }, 'usd'],
      [{ USD: '10.00', TON: '1.0001' }, 'TON'],
    ] as [Record<string, unknown>, string][]) {
      const r = await t.admin('PUT', `/partners/${p.id}/alerts`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code, JSON.stringify(body)).toBe('validation_error');
      expect(r.body.field, JSON.stringify(body)).toBe(field);
      expect(typeof r.body.detail).toBe('string');
    }
    expect((await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '100.001' })).body.detail).toBe(
      'USD must be a positive amount as a string with at most 2 decimals (e.g. "100.00"), or null to clear it.',
    );
    const arr = await t.admin('PUT', `/partners/${p.id}/alerts`, [1]);
    expect([arr.status, arr.body.code]).toEqual([400, 'validation_error']);
    // nothing changed, not even the valid half of a refused body
    expect((await t.admin('GET', `/partners/${p.id}/alerts`)).body).toEqual({ USD: '20.00', TON: '5.000' });
    for (const path of ['/partners/99999/alerts', '/partners/abc/alerts']) {
      for (const [m, b] of [['GET', undefined], ['PUT', { USD: '1.00' }]] as const) {
        const r = await t.admin(m, path, b);
        expect([r.status, r.body]).toEqual([404, { code: 'not_found', detail: 'No such partner.' }]);
      }
    }
    const anon = await t.app.inject({ method: 'PUT', url: `/api/admin/v1/partners/${p.id}/alerts`, payload: { USD: '1.00' } });
    expect(anon.statusCode).toBe(401);
  });
});

describe('when a debit takes a balance below its threshold', () => {
  it('balance.low goes out once, and again only after the balance was back at or above the threshold, also across a restart', async () => {
    const t0 = await startService(); // stopped below and started again on its folder
    const r = await receiver();
    const dir = t0.dir;
    const p = await t0.newPartner({ usd: '10.00', ton: null, webhookUrl: r.url });
    const saved = await t0.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, events: ['balance.low', ...ORDER_EVENTS] });
    expect(saved.body).toEqual({ url: r.url, events: ALL_EVENTS });
    expect((await t0.admin('PUT', `/partners/${p.id}/alerts`, { USD: '8.00' })).status).toBe(200);
    let low = lowEvents(t0);

    await stars(p, 100); // 10.00 → 8.42: above
    expect(low).toEqual([]);
    const o2 = await stars(p, 50); // → 7.63: below, alert
    expect(await usd(p)).toBe('7.63');
    expect(low).toEqual([{ partnerId: p.id, currency: 'USD', balance: '7.63', threshold: '8.00', orderId: o2 }]);
    await t0.advance(5);
    const first = lowOf(r.requests);
    expect(first).toHaveLength(1);
    expect(first[0].raw.toString('utf8')).toBe(`{"event": "balance.low", "order_id": "${o2}", "data": {"currency": "USD", "balance": "7.63", "threshold": "8.00", "order_id": "${o2}"}}`);
    expect(hdr(first[0], 'x-signature')).toBe(crypto.createHmac('sha256', p.secret!).update(first[0].raw).digest('hex'));
    expect(hdr(first[0], 'x-webhook-attempt')).toBe('1');

    // the state survives a restart: still below, no second alert
    await stopService(t0, false);
    const t = await startService({}, { dir });
    cleanup(() => stopService(t));
    low = lowEvents(t);
    const call = (m: string, u: string, b?: unknown) => t.partnerCall(p.key, m, u, b);
    const p2: TestPartner = { ...p, call, order: (type, params) => call('POST', '/orders', { type, idempotency_key: `alert-${++txn}`, params }) };
    await stars(p2, 50); // → 6.84: still below, no alert
    expect(low).toEqual([]);
    await topup(t, p.id, 'USD', '5.00'); // → 11.84: back above (a credit; no debit has seen it yet)
    expect(low).toEqual([]);
    const o6 = await stars(p2, 300); // → 7.11 in one debit: below again after being back above: a second alert
    expect(await usd(p2)).toBe('7.11');
    expect(low.map((e) => [e.balance, e.orderId])).toEqual([['7.11', o6]]);
    await stars(p2, 50); // → 6.32
    expect(low).toHaveLength(1);
    await t.advance(5);
    expect(lowOf(r.requests).map((q) => [bodyOf(q).order_id, bodyOf(q).data.balance])).toEqual([[o2, '7.63'], [o6, '7.11']]);
    // the delivery log lists them; the ledger check still holds
    const log = await call('GET', '/webhook-deliveries?event=balance.low');
    expect(log.body.items.map((d: any) => [d.order_id, d.status])).toEqual([[o6, 'delivered'], [o2, 'delivered']]);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('a threshold saved while the balance is already below alerts at the next debit; the other currency is separate', async () => {
    const t = await service();
    const p = await t.newPartner({ usd: '10.00', ton: '1000.000' });
    const low = lowEvents(t);
    await stars(p, 100); // 8.42
    await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '9.00', TON: '1.000' });
    const o = await stars(p, 50); // 7.63
    expect(low.map((e) => [e.currency, e.balance, e.threshold, e.orderId])).toEqual([['USD', '7.63', '9.00', o]]);
    await stars(p, 50);
    expect(low).toHaveLength(1);
    // saving the threshold again starts afresh
    await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '9.00' });
    await stars(p, 50); // 6.05
    expect(low.map((e) => e.balance)).toEqual(['7.63', '6.05']);
    // a cleared threshold never alerts
    await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: null });
    await stars(p, 50);
    expect(low).toHaveLength(2);
  });

  it('without balance.low in the Webhook block\'s events no such webhook is sent (the owners are still told)', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ usd: '10.00', webhookUrl: r.url });
    expect((await t.admin('GET', `/partners/${p.id}`)).body.webhook).toEqual({ url: r.url, has_secret: true, events: ORDER_EVENTS });
    await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '9.50' });
    const low = lowEvents(t);
    const o = await stars(p, 100); // 8.42
    await t.advance(5);
    expect(low.map((e) => e.orderId)).toEqual([o]);
    expect(r.requests.map((q) => hdr(q, 'x-webhook-event'))).toEqual(['order.completed']);
    expect((await p.call('GET', '/webhook-deliveries?event=balance.low')).body.count).toBe(0);
    // a re-save without `events` keeps the list
    await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url });
    expect((await t.admin('GET', `/partners/${p.id}`)).body.webhook.events).toEqual(ORDER_EVENTS);
  });
});

describe('the Webhook block\'s events', () => {
  it('refuse unknown names with 400 validation_error; a list without the order events stops them', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ usd: '10.00', webhookUrl: r.url });
    for (const events of [['order.created'], [], 'balance.low', ['webhook.test'], ['order.completed', 'Balance.Low'], [null], {}]) {
      const res = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, events });
      expect(res.status, JSON.stringify(events)).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.field).toBe('events');
    }
    expect((await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, events: ['order.created'] })).body.detail).toBe(
      'Unknown event "order.created": events lists one or more of order.completed, order.failed, order.refunded, balance.low.',
    );
    expect((await t.admin('GET', `/partners/${p.id}`)).body.webhook.events).toEqual(ORDER_EVENTS);
    // duplicates go, the canonical order stays
    const dup = await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, events: ['balance.low', 'order.failed', 'balance.low'] });
    expect(dup.body).toEqual({ url: r.url, events: ['order.failed', 'balance.low'] });
    await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '9.50' });
    await stars(p, 100);
    await p.order('stars', { quantity: 50, recipient: 'failstars_alert' });
    await t.advance(5);
    expect(r.requests.map((q) => hdr(q, 'x-webhook-event')).sort()).toEqual(['balance.low', 'order.failed']);
  });

  it('are documented: balance.low as a callback of POST /orders, its body conforms', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ usd: '10.00', webhookUrl: r.url });
    await t.admin('PUT', `/partners/${p.id}/webhook`, { url: r.url, events: ALL_EVENTS });
    await t.admin('PUT', `/partners/${p.id}/alerts`, { USD: '9.50' });
    await stars(p, 100);
    await t.advance(5);
    const d = await documentOf(t);
    expect(Object.keys(d.doc.paths['/orders'].post.callbacks)).toEqual(ALL_EVENTS);
    const [q] = lowOf(r.requests);
    expect(d.componentViolations('BalanceLowEvent', bodyOf(q))).toEqual([]);
    expect(d.componentViolations('BalanceLowEvent', { ...bodyOf(q), data: { ...bodyOf(q).data, balance: 8.42 } })).not.toEqual([]);
    expect(d.doc.paths['/orders'].post.callbacks['balance.low']['{$request.body#/webhook_url}'].post.description).toContain('Opt-in');
  });
});
