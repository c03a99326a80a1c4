import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGiftPurchase } from '../../src/store/gift-purchases-repo.js';
import type { SuppliedEvent } from '../../src/suppliers/sandbox/gift-market.js';
import { settleOrder, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

/**
 * The sandbox market's lost answers of the paid call (PUT /sandbox/gifts/{gift} `outcome`, drawn by the
 * simulation too): the service never pays twice, reconciles by the order's own sale, and buys again only what
 * was proven unpaid. The sandbox's books (`onSupplied`) say what the market took.
 */
let t: TestService;
let p: TestPartner;
const supplied: SuppliedEvent[] = [];
beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', NFT_CATALOG_RATE_LIMIT: '100000' });
  t.sandbox.onSupplied((e) => supplied.push(e));
  p = await t.newPartner({ usd: '100.00', ton: '50000.000' });
});
afterAll(() => stopService(t));

const used = new Set<string>();
async function freshGift(): Promise<{ gift: string; price_ton: string }> {
  const r = await p.call('GET', '/nft/gifts?collection=LootBag&limit=100');
  const g = r.body.items.find((x: any) => !used.has(x.gift));
  used.add(g.gift);
  return g;
}
const payments = (orderId: string) => supplied.filter((e) => e.kind === 'gift_payment' && e.orderId === orderId);

describe('a paid call whose answer is lost', () => {
  it('purchase_answer_lost: the market took the payment; the reconciliation finds it, the gift is delivered, paid once', async () => {
    const g = await freshGift();
    expect((await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { outcome: 'purchase_answer_lost' })).status).toBe(200);
    const r = await p.order('nft', { gift: g.gift, recipient: 'lost_answer', max_price: '1000' });
    const done = await settleOrder(t, p, r.body.order_id, 10, 40);
    expect(done).toMatchObject({ status: 'completed', refunded: false });
    expect(getGiftPurchase(t.db, r.body.order_id)).toMatchObject({ state: 'paid', attempts: 1 });
    expect(payments(r.body.order_id)).toEqual([expect.objectContaining({ amountNano: String(BigInt(Math.round(Number(g.price_ton) * 1000)) * 1_000_000n), confirmed: false })]);
  });

  it('purchase_timeout: the paid call throws after the market took the payment; reconciled, delivered, paid once', async () => {
    const g = await freshGift();
    await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { outcome: 'purchase_timeout' });
    const r = await p.order('nft', { gift: g.gift, recipient: 'cut_connection', max_price: '1000' });
    const done = await settleOrder(t, p, r.body.order_id, 10, 40);
    expect(done).toMatchObject({ status: 'completed', refunded: false });
    expect(payments(r.body.order_id)).toHaveLength(1);
  });

  it('purchase_not_sent: nothing reached the market; proven unpaid after the wait, bought again once, delivered', async () => {
    const g = await freshGift();
    await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { outcome: 'purchase_not_sent' });
    const r = await p.order('nft', { gift: g.gift, recipient: 'never_sent', max_price: '1000' });
    const done = await settleOrder(t, p, r.body.order_id, 15, 60);
    expect(done).toMatchObject({ status: 'completed', refunded: false });
    // the first call got no answer and was proven unpaid, the second paid
    expect(getGiftPurchase(t.db, r.body.order_id)).toMatchObject({ state: 'paid', attempts: 2, unanswered: 1 });
    expect(payments(r.body.order_id)).toEqual([expect.objectContaining({ confirmed: true })]);
  });
});
