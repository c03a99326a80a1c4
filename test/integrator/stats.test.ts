/**
 * Issue 15 point 5: GET /stats?from&to[&group_by=day]: per type, status and currency the count, spend and
 * refunds of the partner's orders created in the range; whole hours from the trigger-kept hourly figures,
 * partial hours from the orders. Sums checked exactly against the orders the test made.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { perTest, type TestPartner, type TestService } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service } = perTest();

/** What GET /stats should say, computed from the orders as GET /orders lists them. */
async function expectedFrom(p: TestPartner, byDay: boolean, keep: (o: any) => boolean = () => true) {
  const all: any[] = (await p.call('GET', '/orders?limit=200')).body.items.filter(keep);
  const groups = new Map<string, any>();
  const totals = new Map<string, any>([['USD', { n: 0, s: new Decimal(0), rn: 0, r: new Decimal(0) }], ['TON', { n: 0, s: new Decimal(0), rn: 0, r: new Decimal(0) }]]);
  for (const o of all) {
    const day = byDay ? o.created_at.slice(0, 10) : null;
    const key = `${day}|${o.type}|${o.status}`;
    if (!groups.has(key)) groups.set(key, { day, type: o.type, status: o.status, currency: o.currency, n: 0, s: new Decimal(0), rn: 0, r: new Decimal(0) });
    for (const g of [groups.get(key), totals.get(o.currency)]) {
      g.n++;
      g.s = g.s.plus(o.partner_price);
      if (o.refunded) {
        g.rn++;
        g.r = g.r.plus(o.partner_price);
      }
    }
  }
  const places = (c: string) => (c === 'USD' ? 2 : 3);
  const fig = (g: any, c: string) => ({ count: g.n, spend: g.s.toFixed(places(c)), refunded_count: g.rn, refunded_amount: g.r.toFixed(places(c)), net_spend: g.s.minus(g.r).toFixed(places(c)) });
  const typeRank = ['stars', 'premium', 'nft'];
  const statusRank = ['processing', 'completed', 'partial', 'canceled', 'failed'];
  const items = [...groups.values()]
    .sort((a, b) => String(a.day).localeCompare(String(b.day)) || typeRank.indexOf(a.type) - typeRank.indexOf(b.type) || statusRank.indexOf(a.status) - statusRank.indexOf(b.status))
    .map((g) => ({ day: g.day, type: g.type, status: g.status, currency: g.currency, ...fig(g, g.currency) }));
  return { items, totals: ['USD', 'TON'].map((c) => ({ currency: c, ...fig(totals.get(c), c) })) };
}

/** Two days of orders of every kind and outcome for `p`, and some for another partner. */
async function twoDays(t: TestService) {
  const p = await t.newPartner({ ton: '20000.000' });
  const other = await t.newPartner();
  const cols = await p.call('GET', '/nft/collections');
  const gifts = (await p.call('GET', `/nft/gifts?collection=${cols.body.items[0].collection}`)).body.items;
  await t.advance(1800);
  // day 1 (2026-03-01, 12:30 UTC)
  expect((await p.order('stars', { quantity: 100, recipient: '@stats_user' })).status).toBe(200);
  expect((await p.order('stars', { quantity: 250, recipient: '@stats_user' })).status).toBe(200);
  expect((await p.order('stars', { quantity: 50, recipient: 'failstars_stats' })).status).toBe(200);
  expect((await p.order('premium', { months: 3, recipient: '@stats_prem' })).status).toBe(200);
  expect((await p.order('nft', { gift: gifts[0].gift, recipient: '@stats_gift', max_price: gifts[0].partner_price })).status).toBe(200);
  expect((await p.order('nft', { gift: gifts[1].gift, recipient: 'nogift_stats', max_price: gifts[1].partner_price })).status).toBe(200);
  expect((await other.order('stars', { quantity: 500, recipient: '@other_user' })).status).toBe(200);
  await t.advance(120);
  await t.advance(86_400); // 2026-03-02 12:32 UTC
  // day 2
  expect((await p.order('stars', { quantity: 75, recipient: '@stats_user' })).status).toBe(200);
  expect((await p.order('stars', { quantity: 60, recipient: 'slow_stats' })).status).toBe(200); // still processing
  expect((await p.order('stars', { quantity: 80, recipient: 'failstars_stats2' })).status).toBe(200);
  await t.advance(10);
  return { p, other };
}

describe('GET /stats', () => {
  it('sums count, spend and refunds per type and status exactly, own orders only, from the hourly figures and from partial hours alike', async () => {
    const t = await service();
    const { p } = await twoDays(t);
    const expected = await expectedFrom(p, false);
    // the orders as made: 4 stars completed on the two days, 2 failed, 1 processing; premium, nft completed and failed
    expect(expected.items.map((i) => [i.type, i.status, i.count, i.refunded_count])).toEqual([
      ['stars', 'processing', 1, 0],
      ['stars', 'completed', 3, 0],
      ['stars', 'failed', 2, 2],
      ['premium', 'completed', 1, 0],
      ['nft', 'completed', 1, 0],
      ['nft', 'failed', 1, 1],
    ]);
    expect(expected.totals[0]).toMatchObject({ currency: 'USD', count: 7, refunded_count: 2 });

    // whole hours (the hourly figures), partial first and last hours (the orders), within one hour, and mixed
    for (const [from, to] of [
      ['2026-02-20', '2026-03-10'],
      ['2026-03-01T11:00:00Z', '2026-03-02T13:00:00Z'],
      ['2026-03-01T12:15:00Z', '2026-03-02T12:32:30Z'],
      ['2026-03-01T00:00:00Z', '2026-03-02T12:40:00Z'],
      [String(Date.parse('2026-03-01T12:30:00Z') / 1000), String(Date.parse('2026-03-02T12:32:10Z') / 1000)],
    ]) {
      const r = await p.call('GET', `/stats?from=${from}&to=${to}`);
      expect(r.status, `${from}..${to}`).toBe(200);
      expect(r.body, `${from}..${to}`).toEqual({ from: expect.any(String), to: expect.any(String), group_by: null, ...expected });
    }
    const r = await p.call('GET', '/stats?from=2026-02-20&to=2026-03-10T00:00:00Z');
    expect([r.body.from, r.body.to]).toEqual(['2026-02-20T00:00:00.000000+00:00', '2026-03-10T00:00:00.000000+00:00']);
    // the hourly figures followed every status change and refund
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('splits the figures per UTC day with group_by=day, and the range bounds cut exactly', async () => {
    const t = await service();
    const { p } = await twoDays(t);
    const byDay = await p.call('GET', '/stats?from=2026-03-01&to=2026-03-03&group_by=day');
    expect(byDay.status).toBe(200);
    expect(byDay.body).toEqual({ from: '2026-03-01T00:00:00.000000+00:00', to: '2026-03-03T00:00:00.000000+00:00', group_by: 'day', ...(await expectedFrom(p, true)) });
    expect([...new Set(byDay.body.items.map((i: any) => i.day))]).toEqual(['2026-03-01', '2026-03-02']);
    expect(byDay.body.items.filter((i: any) => i.day === '2026-03-02').map((i: any) => [i.type, i.status, i.count, i.spend, i.refunded_amount])).toEqual([
      ['stars', 'processing', 1, '0.95', '0.00'],
      ['stars', 'completed', 1, '1.19', '0.00'],
      ['stars', 'failed', 1, '1.26', '1.26'],
    ]);
    // the second day only, from its first order on: the first day's orders fall outside
    const day2 = await p.call('GET', '/stats?from=2026-03-02T12:32:00Z&group_by=day&to=2026-03-02T12:59:59Z');
    expect(day2.body.items).toEqual((await expectedFrom(p, true, (o) => o.created_at.startsWith('2026-03-02'))).items);
    // up to one millisecond before the second day's orders: the first day only
    const day1 = await p.call('GET', `/stats?to=${encodeURIComponent('2026-03-02T12:31:59.999+00:00')}`);
    expect(day1.body.totals).toEqual((await expectedFrom(p, false, (o) => o.created_at.startsWith('2026-03-01'))).totals);
  });

  it('answers an empty range with no items and zero totals, and defaults to the 30 days up to now', async () => {
    const t = await service();
    const p = await t.newPartner();
    const zero = [
      { currency: 'USD', count: 0, spend: '0.00', refunded_count: 0, refunded_amount: '0.00', net_spend: '0.00' },
      { currency: 'TON', count: 0, spend: '0.000', refunded_count: 0, refunded_amount: '0.000', net_spend: '0.000' },
    ];
    expect((await p.call('GET', '/stats?from=2025-01-01&to=2025-02-01')).body).toEqual({ from: '2025-01-01T00:00:00.000000+00:00', to: '2025-02-01T00:00:00.000000+00:00', group_by: null, items: [], totals: zero });
    await p.order('stars', { quantity: 50, recipient: '@stats_user' });
    const d = await p.call('GET', '/stats');
    expect(d.body).toMatchObject({ from: '2026-01-30T12:00:00.000000+00:00', to: '2026-03-01T12:00:00.000000+00:00', group_by: null });
    expect(d.body.items).toEqual([{ day: null, type: 'stars', status: 'processing', currency: 'USD', count: 1, spend: '0.79', refunded_count: 0, refunded_amount: '0.00', net_spend: '0.79' }]);
  });

  it('refuses bad input with a code', async () => {
    const t = await service();
    const p = await t.newPartner();
    for (const [url, code, param] of [
      ['/stats?from=yesterday', 'bad_time'],
      ['/stats?to=2026-13-45', 'bad_time'],
      ['/stats?from=2026-03-02&to=2026-03-01', 'bad_range'],
      ['/stats?from=2025-01-01&to=2026-01-03', 'bad_range'],
      ['/stats?group_by=week', 'bad_param', 'group_by'],
      ['/stats?group_by=day&group_by=day', 'bad_param', 'group_by'],
      ['/stats?currency=USD', 'bad_param', 'currency'],
    ] as const) {
      const r = await p.call('GET', url);
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe(code);
      if (param) expect(r.body.param, url).toBe(param);
    }
    // exactly a leap year is allowed
    expect((await p.call('GET', '/stats?from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z')).status).toBe(200);
  });

  it('is documented, and a generated client reads it', async () => {
    const t = await service();
    const p = await t.newPartner();
    await p.order('stars', { quantity: 50, recipient: '@stats_user' });
    const d = await documentOf(t);
    expect(d.violations('get', '/stats', await p.call('GET', '/stats?group_by=day'))).toEqual([]);
    expect(d.violations('get', '/stats', await p.call('GET', '/stats?from=x'))).toEqual([]);
    expect(await d.generatedTypes()).toContain('"/stats"');
    const client = await d.client(p);
    const r = await client.GET('/stats', { params: { query: { from: '2026-03-01', group_by: 'day' } } });
    expect(r.response.status).toBe(200);
    expect((r.data as any).items).toEqual([{ day: '2026-03-01', type: 'stars', status: 'processing', currency: 'USD', count: 1, spend: '0.79', refunded_count: 0, refunded_amount: '0.00', net_spend: '0.79' }]);
  });
});
