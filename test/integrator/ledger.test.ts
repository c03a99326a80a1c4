/**
 * Issue 15 point 4: GET /ledger: the partner's own entries (top-up, order debit, refund) with amount,
 * balance after, order or top-up id and time, newest first, filters currency/from/to, paging as GET /orders.
 */
import { describe, expect, it } from 'vitest';
import { perTest } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service } = perTest();

describe('GET /ledger', () => {
  it('lists top-ups, debits and refunds newest first with the balance after each, in both currencies, own entries only', async () => {
    const t = await service();
    const p = await t.newPartner({ usd: '50.00', ton: '20.000' });
    const other = await t.newPartner();
    await other.order('stars', { quantity: 50, recipient: '@other_user' });
    const ok = await p.order('stars', { quantity: 100, recipient: '@ledger_user' });
    expect(ok.status).toBe(200);
    const bad = await p.order('stars', { quantity: 50, recipient: 'failstars_ledger' });
    await t.advance(5);
    const r = await p.call('GET', '/ledger');
    expect(r.status, r.raw).toBe(200);
    expect(r.body.count).toBe(5);
    expect(r.body.next_cursor).toBeNull();
    const items = r.body.items;
    expect(items.map((e: any) => [e.kind, e.currency, e.amount, e.balance_after, e.order_id])).toEqual([
      ['order_refund', 'USD', '0.79', '48.42', bad.body.order_id],
      ['order_debit', 'USD', '-0.79', '47.63', bad.body.order_id],
      ['order_debit', 'USD', '-1.58', '48.42', ok.body.order_id],
      ['topup', 'TON', '20.000', '20.000', null],
      ['topup', 'USD', '50.00', '50.00', null],
    ]);
    expect(items[4].topup_id).toEqual(expect.any(String));
    expect(items[0].topup_id).toBeNull();
    expect(items[0].created_at).toBe('2026-03-01T12:00:03.000000+00:00');
    expect(items[2].created_at).toBe('2026-03-01T12:00:00.000000+00:00');
    const ids = items.map((e: any) => e.entry_id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);

    const ton = await p.call('GET', '/ledger?currency=TON');
    expect(ton.body.items.map((e: any) => e.kind)).toEqual(['topup']);
    const usd = await p.call('GET', '/ledger?currency=USD');
    expect(usd.body.count).toBe(4);
    // paging: the same entries, one page at a time, never repeated or skipped
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await p.call('GET', `/ledger?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.count).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((e: any) => e.entry_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    // from/to: the entries at the time of the refund only
    const late = await p.call('GET', '/ledger?from=2026-03-01T12:00:02Z');
    expect(late.body.items.map((e: any) => e.kind)).toEqual(['order_refund']);
    const early = await p.call('GET', `/ledger?to=${Date.parse('2026-03-01T12:00:01Z') / 1000}`);
    expect(early.body.count).toBe(4);
    const none = await p.call('GET', '/ledger?from=2027-01-01');
    expect(none.body).toEqual({ items: [], count: 0, next_cursor: null });
  });

  it('refuses bad filters with the codes of GET /orders', async () => {
    const t = await service();
    const p = await t.newPartner();
    for (const [url, code] of [
      ['/ledger?currency=EUR', 'bad_param'],
      ['/ledger?currency=usd', 'bad_param'],
      ['/ledger?from=yesterday', 'bad_time'],
      ['/ledger?to=2026-13-45', 'bad_time'],
      ['/ledger?limit=0', 'bad_limit'],
      ['/ledger?limit=201', 'bad_limit'],
      ['/ledger?cursor=bad', 'bad_cursor'],
      ['/ledger?order_id=PA-1', 'bad_param'],
      ['/ledger?limit=1&limit=2', 'bad_param'],
    ]) {
      const r = await p.call('GET', url);
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe(code);
    }
    // a cursor of GET /orders is not a ledger cursor
    await p.order('stars', { quantity: 50, recipient: '@ledger_user' });
    await p.order('stars', { quantity: 50, recipient: '@ledger_user' });
    const orders = await p.call('GET', '/orders?limit=1');
    expect((await p.call('GET', `/ledger?cursor=${orders.body.next_cursor}`)).body.code).toBe('bad_cursor');
  });

  it('is documented, answers conform, and a generated client reads it', async () => {
    const t = await service();
    const p = await t.newPartner();
    await p.order('stars', { quantity: 50, recipient: '@ledger_user' });
    const d = await documentOf(t);
    expect(d.violations('get', '/ledger', await p.call('GET', '/ledger'))).toEqual([]);
    expect(d.violations('get', '/ledger', await p.call('GET', '/ledger?limit=x'))).toEqual([]);
    expect(await d.generatedTypes()).toContain('"/ledger"');
    const client = await d.client(p);
    const r = await client.GET('/ledger', { params: { query: { currency: 'USD', limit: 1 } } });
    expect(r.response.status).toBe(200);
    expect((r.data as any).items[0]).toMatchObject({ kind: 'order_debit', currency: 'USD', amount: '-0.79' });
  });
});
