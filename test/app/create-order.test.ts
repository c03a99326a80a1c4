/**
 * createOrder (src/app/orders/create.ts) called directly on a real service's dependencies (SQLite in a temp
 * folder, the service clock): the debit and its one ledger entry, the replay that debits nothing, the NFT
 * price cap checked by the application, and a refusal that leaves neither an order nor a ledger entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder } from '../../src/app/orders/create.js';
import { pricedGift } from '../../src/app/nft/gift-prices.js';
import { ApiError } from '../../src/domain/errors.js';
import { parseAmount } from '../../src/domain/money.js';
import { balanceOf, entriesOfOrder } from '../../src/store/ledger-repo.js';
import { startService, stopService, type TestService } from '../helpers.js';

let t: TestService;
beforeAll(async () => {
  t = await startService();
});
afterAll(() => stopService(t));

const rowCount = (table: string) => (t.db.$client.prepare(`select count(*) from ${table}`).pluck().get() as number);
async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('createOrder', () => {
  it('debits the partner price once, in one ledger entry, and a replay with the same key debits nothing', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const before = balanceOf(t.db, p.id, 'USD');
    const body = { type: 'stars', idempotency_key: 'direct-1', params: { quantity: 100, recipient: '@direct_user' } };
    const r = await createOrder(t.deps, p.id, body);
    expect(r.replayed).toBe(false);
    const price = parseAmount(r.order.partner_price as string, 'USD')!;
    expect(price).toBeGreaterThan(0);
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before - price);
    const entries = entriesOfOrder(t.db, r.order.order_id as string);
    expect(entries.map((e) => [e.kind, e.currency, e.amount])).toEqual([['order_debit', 'USD', -price]]);

    const again = await createOrder(t.deps, p.id, body);
    expect(again.replayed).toBe(true);
    expect(again.order.order_id).toBe(r.order.order_id);
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before - price);
    expect(entriesOfOrder(t.db, r.order.order_id as string)).toHaveLength(1);
  });

  it('the same key with other params is 409 idempotency_key_reuse and debits nothing', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    await createOrder(t.deps, p.id, { type: 'stars', idempotency_key: 'direct-2', params: { quantity: 100, recipient: '@direct_user' } });
    const after = balanceOf(t.db, p.id, 'USD');
    const e = await refusal(createOrder(t.deps, p.id, { type: 'stars', idempotency_key: 'direct-2', params: { quantity: 200, recipient: '@direct_user' } }));
    expect([e.status, e.code]).toEqual([409, 'idempotency_key_reuse']);
    expect(balanceOf(t.db, p.id, 'USD')).toBe(after);
  });

  it('a balance below the price: 402 insufficient_balance, no order and no ledger entry', async () => {
    const p = await t.newPartner({ usd: '10.00' });
    const [orders, entries] = [rowCount('orders'), rowCount('ledger_entries')];
    const e = await refusal(createOrder(t.deps, p.id, { type: 'stars', idempotency_key: 'direct-3', params: { quantity: 5000, recipient: '@direct_user' } }));
    expect([e.status, e.code]).toEqual([402, 'insufficient_balance']);
    expect([rowCount('orders'), rowCount('ledger_entries')]).toEqual([orders, entries]);
    expect(balanceOf(t.db, p.id, 'USD')).toBe(1000);
  });

  it('NFT: a max_price below the partner price is 409 price_changed with nothing debited; at the price it debits exactly that', async () => {
    const p = await t.newPartner({ ton: '100000.000' });
    const [col] = (await t.catalog.collections()).items;
    const page = await t.catalog.list({ collection: col.collection, sort: 'price_asc', limit: 1, ignored: [] });
    const gift = page.items[0].gift as string;
    const priced = (await pricedGift(t.deps, gift))!;
    const before = balanceOf(t.db, p.id, 'TON');
    const orders = rowCount('orders');
    const below = ((priced.partnerMilli - 1) / 1000).toFixed(3);
    const e = await refusal(createOrder(t.deps, p.id, { type: 'nft', idempotency_key: 'direct-4', params: { gift, recipient: '@direct_user', max_price: below } }));
    expect([e.status, e.code]).toEqual([409, 'price_changed']);
    expect(balanceOf(t.db, p.id, 'TON')).toBe(before);
    expect(rowCount('orders')).toBe(orders);

    const at = (priced.partnerMilli / 1000).toFixed(3);
    const r = await createOrder(t.deps, p.id, { type: 'nft', idempotency_key: 'direct-5', params: { gift, recipient: '@direct_user', max_price: at } });
    expect(r.order.partner_price).toBe(at);
    expect(balanceOf(t.db, p.id, 'TON')).toBe(before - priced.partnerMilli);
    expect(entriesOfOrder(t.db, r.order.order_id as string).map((x) => [x.kind, x.amount])).toEqual([['order_debit', -priced.partnerMilli]]);
  });
});
