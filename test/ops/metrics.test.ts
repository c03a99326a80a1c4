import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/ops/ops-routes.js';
import { startReceiver, startService, stopService, type TestService } from '../helpers.js';

const TOKEN = 'metrics_token_0123456789abcdef';

/** The value of one sample line `name{labels} value` of a Prometheus text page (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

let t: TestService | undefined;
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
  await stopService(t);
  t = undefined;
});

async function scrape(svc: TestService): Promise<string> {
  const r = await svc.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return r.body;
}

describe('GET /metrics', () => {
  it('is not on the main port without METRICS_TOKEN (404 route_not_found), and metrics are off', async () => {
    t = await startService();
    const r = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ detail: { code: 'route_not_found' } });
    expect(t.ops.metrics).toBeNull();
  });

  it('with METRICS_TOKEN needs the bearer token: 401 unauthorized (nested) without or with a wrong one', async () => {
    t = await startService({ METRICS_TOKEN: TOKEN });
    for (const headers of [{}, { authorization: 'Bearer wrong_token_0123456789abcdef' }, { authorization: TOKEN }]) {
      const r = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(r.statusCode).toBe(401);
      expect(JSON.parse(r.body)).toMatchObject({ detail: { code: 'unauthorized' } });
    }
    expect(await scrape(t)).toContain('# TYPE partner_service_http_request_duration_seconds histogram');
  });

  it('counts requests, orders by outcome, time to the final state, webhooks, jobs, supplier errors and ledger totals, with no ids as labels', async () => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    t = await startService({ METRICS_TOKEN: TOKEN }, { realNow: () => now });
    const rx = await startReceiver();
    closers.push(() => rx.close());
    const p = await t.newPartner({ usd: '500.00', webhookUrl: rx.url });
    const ok = await p.order('stars', { quantity: 100, recipient: '@metrics_user' });
    const bad = await p.order('stars', { quantity: 100, recipient: '@failstars_metrics' });
    expect(ok.status).toBe(200);
    expect(bad.status).toBe(200);
    let text = await scrape(t);
    expect(sample(text, 'partner_service_orders_created_total{type="stars"}')).toBe(2);
    // both orders wait for their delivery job: due only after the sandbox delay
    expect(sample(text, 'partner_service_jobs_due{kind="order.process"}')).toBeUndefined();
    now += 5_000;
    // now due and not run (the job poller is off in this harness): counted, with their age
    text = await scrape(t);
    expect(sample(text, 'partner_service_jobs_due{kind="order.process"}')).toBe(2);
    expect(sample(text, 'partner_service_jobs_oldest_due_age_seconds{kind="order.process"}')).toBe(2);
    await t.scheduler.settle();
    text = await scrape(t);
    expect(sample(text, 'partner_service_orders_completed_total{type="stars"}')).toBe(1);
    expect(sample(text, 'partner_service_orders_failed_total{type="stars"}')).toBe(1);
    expect(sample(text, 'partner_service_orders_refunded_total{type="stars"}')).toBe(1);
    expect(sample(text, 'partner_service_order_time_to_final_seconds_count{type="stars",status="completed"}')).toBe(1);
    expect(sample(text, 'partner_service_order_time_to_final_seconds_sum{type="stars",status="completed"}')).toBe(5);
    expect(sample(text, 'partner_service_order_time_to_final_seconds_count{type="stars",status="failed"}')).toBe(1);
    // webhooks: the completed, failed and refunded events were delivered to the receiver in the same run
    expect(rx.requests.length).toBe(3);
    expect(sample(text, 'partner_service_webhook_attempts_total{outcome="delivered"}')).toBe(3);
    expect(sample(text, 'partner_service_webhook_deliveries{status="pending"}')).toBe(0);
    expect(sample(text, 'partner_service_webhook_deliveries{status="failed"}')).toBe(0);
    expect(sample(text, 'partner_service_jobs_due{kind="order.process"}')).toBeUndefined();
    // requests by route template, method and status
    expect(sample(text, 'partner_service_http_request_duration_seconds_count{route="/api/partner/v1/orders",method="POST",status="200"}')).toBe(2);
    // ledger totals: 500.00 − 1.58 (one star order kept; the failed one refunded) and 1000.000 TON
    const usd = sample(text, 'partner_service_ledger_balance_usd')!;
    const me = await p.call('GET', '/me');
    expect(usd).toBeCloseTo(Number(me.body.balances.USD), 2);
    expect(sample(text, 'partner_service_ledger_balance_ton')).toBe(1000);
    expect(sample(text, 'partner_service_deposits_unmatched')).toBe(0);
    expect(sample(text, 'partner_service_storage_available')).toBe(1);
    // a supplier call that throws is counted by product
    await t.admin('PUT', '/sandbox/faults', { resolver_error: true });
    const r = await p.order('stars', { quantity: 100, recipient: '@metrics_user' });
    expect(r.status).toBe(502);
    text = await scrape(t);
    expect(sample(text, 'partner_service_supplier_call_errors_total{product="resolver"}')).toBe(1);
    expect(sample(text, 'partner_service_http_request_duration_seconds_count{route="/api/partner/v1/orders",method="POST",status="502"}')).toBe(1);
    // no high-cardinality labels: no order id, username, partner id or name anywhere in the page
    for (const s of [ok.body.order_id, bad.body.order_id, 'metrics_user', 'failstars_metrics', 'Test partner', p.key.slice(0, 12)]) expect(text).not.toContain(s);
    expect(text).not.toMatch(/[{,](partner|partner_id|order_id|username|recipient)="/);
    // an unknown URL is one label value, not the URL
    await t.app.inject({ method: 'GET', url: '/no/such/path/qx-unrouted' });
    text = await scrape(t);
    expect(sample(text, 'partner_service_http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}')).toBe(1);
    expect(text).not.toContain('qx-unrouted'); // a word no metric value can contain (a number could be a byte count)
  });

  it('counts a Stars order in review once, when the review ends, not when it enters review reading failed', async () => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    t = await startService({ METRICS_TOKEN: TOKEN }, { realNow: () => now });
    const p = await t.newPartner({ usd: '50.00' });
    const r = await p.order('stars', { quantity: 100, recipient: 'unconfirmed_metrics' });
    expect(r.status).toBe(200);
    now += 5_000;
    await t.scheduler.settle();
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'failed', refunded: false });
    let text = await scrape(t);
    // in review: reads failed, but has no outcome yet (the counters stand at their start-up 0)
    expect(sample(text, 'partner_service_orders_failed_total{type="stars"}')).toBe(0);
    expect(sample(text, 'partner_service_orders_completed_total{type="stars"}')).toBe(0);
    expect(sample(text, 'partner_service_order_time_to_final_seconds_count{type="stars",status="failed"}')).toBeUndefined();
    now += 60_000;
    const resolved = await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'refunded' });
    expect(resolved.body).toMatchObject({ status: 'failed', refunded: true });
    text = await scrape(t);
    expect(sample(text, 'partner_service_orders_failed_total{type="stars"}')).toBe(1);
    expect(sample(text, 'partner_service_orders_refunded_total{type="stars"}')).toBe(1);
    expect(sample(text, 'partner_service_order_time_to_final_seconds_count{type="stars",status="failed"}')).toBe(1);
    expect(sample(text, 'partner_service_order_time_to_final_seconds_sum{type="stars",status="failed"}')).toBe(65);
  });

  it('counts deliveries given up and unmatched deposits, each once', async () => {
    t = await startService({ METRICS_TOKEN: TOKEN });
    const rx = await startReceiver();
    closers.push(() => rx.close());
    rx.script.push(500, 500, 500, 500, 500, 500); // every attempt of the schedule fails
    const p = await t.newPartner({ usd: '500.00', webhookUrl: rx.url });
    expect((await p.order('stars', { quantity: 100, recipient: '@metrics_giveup' })).status).toBe(200);
    await t.advance(10);
    let text = await scrape(t);
    expect(sample(text, 'partner_service_webhook_deliveries{status="pending"}')).toBe(1);
    expect(sample(text, 'partner_service_webhook_deliveries{status="failed"}')).toBe(0);
    for (let i = 0; i < 4; i++) await t.advance(86_400);
    expect(rx.requests).toHaveLength(6);
    text = await scrape(t);
    expect(sample(text, 'partner_service_webhook_deliveries{status="pending"}')).toBe(0);
    expect(sample(text, 'partner_service_webhook_deliveries{status="failed"}')).toBe(1);
    expect(sample(text, 'partner_service_webhook_attempts_total{outcome="failed_attempt"}')).toBe(5);
    expect(sample(text, 'partner_service_webhook_attempts_total{outcome="gave_up"}')).toBe(1);

    // a transfer to a top-up address that matches no request: unmatched until an operator closes it
    const req = await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '20.00' });
    expect(req.status).toBe(201);
    const to = req.body.addresses.find((a: { network: string }) => a.network === 'trc20').address;
    const dep = await t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '19.99', to, tx_hash: 'metrics-unmatched-1' });
    expect(dep.body).toMatchObject({ status: 'unmatched', reason: 'wrong_amount' });
    expect(sample(await scrape(t), 'partner_service_deposits_unmatched')).toBe(1);
  });

  it('names follow Prometheus conventions: one prefix, _total on counters only, units in names, a build_info gauge, counters at 0 from start-up', async () => {
    t = await startService({ METRICS_TOKEN: TOKEN });
    const text = await scrape(t);
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1], type: m[2] }));
    const ours = types.filter((m) => !/^(process|nodejs)_/.test(m.name));
    expect(ours.length).toBeGreaterThan(10);
    expect(ours.filter((m) => !m.name.startsWith('partner_service_')).map((m) => m.name)).toEqual([]);
    // (prom-client's default nodejs_active_*_total gauges are its own, standard names; ours never do that)
    expect(ours.filter((m) => m.type === 'gauge' && m.name.endsWith('_total')).map((m) => m.name)).toEqual([]);
    expect(ours.filter((m) => m.type === 'counter' && !m.name.endsWith('_total')).map((m) => m.name)).toEqual([]);
    // money gauges name their currency: no label holds a unit
    expect(sample(text, 'partner_service_ledger_balance_usd')).toBe(0);
    expect(sample(text, 'partner_service_ledger_balance_ton')).toBe(0);
    expect(text).not.toMatch(/\{currency=/);

    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
    const info = /^partner_service_build_info\{version="([^"]+)",commit="([^"]+)"\} 1$/m.exec(text);
    expect(info?.[1]).toBe(pkg.version);
    expect(info?.[2]).toMatch(/^([0-9a-f]{40}|unknown)$/);

    // every counter with known labels is there at 0 before anything happened
    for (const type of ['stars', 'premium', 'nft'])
      for (const c of ['created', 'completed', 'failed', 'refunded']) expect(sample(text, `partner_service_orders_${c}_total{type="${type}"}`), `${c} ${type}`).toBe(0);
    for (const o of ['delivered', 'failed_attempt', 'gave_up', 'refused']) expect(sample(text, `partner_service_webhook_attempts_total{outcome="${o}"}`), o).toBe(0);
    for (const p of ['stars', 'premium', 'nft', 'resolver']) expect(sample(text, `partner_service_supplier_call_errors_total{product="${p}"}`), p).toBe(0);
    for (const o of ['handled', 'failed']) expect(sample(text, `partner_service_bot_updates_total{outcome="${o}"}`), o).toBe(0);
  });

  it('METRICS_PORT: a listener of its own answers GET /metrics without a token, 404 otherwise', async () => {
    t = await startService({ METRICS_PORT: '9' });
    expect(t.ops.metrics).not.toBeNull();
    const s = await startMetricsServer(t.ops.metrics!, '127.0.0.1', 0);
    closers.push(() => s.close());
    const r = await fetch(`http://127.0.0.1:${s.port}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await r.text()).toContain('# TYPE partner_service_orders_created_total counter');
    expect((await fetch(`http://127.0.0.1:${s.port}/`)).status).toBe(404);
    // and not on the main port (no METRICS_TOKEN)
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});
