import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGiftPurchase } from '../../src/store/gift-purchases-repo.js';
import { getOrder } from '../../src/store/orders-repo.js';
import { formRefusal, milliToNano } from '../../src/domain/purchase-cap.js';
import { settleOrder, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

/**
 * Money safety of gift purchases, enforced by the application for every market (here the sandbox's): the
 * price cap before every paid call, the purchase record committed first, and a purchase without a definite
 * answer in manual review rather than refunded.
 */
let t: TestService;
let p: TestPartner;
beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', NFT_CATALOG_RATE_LIMIT: '100000' });
  p = await t.newPartner({ usd: '100.00', ton: '50000.000' });
});
afterAll(() => stopService(t));

const used = new Set<string>();
async function freshGift(collection = 'SignetRing'): Promise<any> {
  const r = await p.call('GET', `/nft/gifts?collection=${collection}&limit=100`);
  const g = r.body.items.find((x: any) => !used.has(x.gift));
  used.add(g.gift);
  return g;
}
const ton = async () => (await p.call('GET', '/me')).body.nft_balance as string;

/** Advances the clock until the order's job reached `stage` (read from the store, as the job keeps it). */
async function untilStage(orderId: string, stage: string) {
  for (let i = 0; i < 40 && getOrder(t.db, orderId)!.stage !== stage; i++) await t.advance(2);
  expect(getOrder(t.db, orderId)!.stage).toBe(stage);
}

describe('the price cap (the application, before every paid call)', () => {
  it('refuses a form not in TON or above the fixed price, to the nanoTON', () => {
    const cap = milliToNano(12_345);
    expect(formRefusal({ currency: 'TON', amount: '12345000000' }, cap)).toBeNull();
    expect(formRefusal({ currency: 'TON', amount: '12345000001' }, cap)).toMatchObject({ reason: 'price_above_cap' });
    expect(formRefusal({ currency: 'XTR', amount: '100' }, cap)).toMatchObject({ reason: 'price_above_cap', detail: expect.stringContaining('XTR') });
    expect(formRefusal({ currency: 'TON', amount: '1.5' }, cap)).toMatchObject({ reason: 'invalid_upstream_price' });
    expect(formRefusal({ currency: 'TON', amount: '0' }, cap)).toMatchObject({ reason: 'invalid_upstream_price' });
  });

  it('a price that rose after the pricing stage is refused at the purchase: nothing bought, refunded', async () => {
    const g = await freshGift();
    const before = await ton();
    const r = await p.order('nft', { gift: g.gift, recipient: 'cap_late', max_price: '1000' });
    // past the pricing stage's check: the purchase stage reads a fresh form and checks it again
    await untilStage(r.body.order_id, 'balance');
    await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { price_ton: (Number(g.price_ton) + 0.001).toFixed(3) });
    const done = await settleOrder(t, p, r.body.order_id, 5, 20);
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'pricing', reason: 'price_above_cap' } });
    expect(await ton()).toBe(before);
    // the record was committed, and says nothing was paid; the listing is still for sale
    expect(getGiftPurchase(t.db, r.body.order_id)).toMatchObject({ state: 'unpaid', attempts: 0, capNano: String(milliToNano(Math.round(Number(g.price_ton) * 1000))) });
    expect((await p.call('GET', `/nft/gifts/${g.gift}`)).body.available).toBe(true);
  });

  it('a bought gift has its record paid, with the form it paid and the receipt', async () => {
    const g = await freshGift();
    const r = await p.order('nft', { gift: g.gift, recipient: 'happy_buyer', max_price: '1000' });
    const done = await settleOrder(t, p, r.body.order_id, 5, 40);
    expect(done.status).toBe('completed');
    expect(getGiftPurchase(t.db, r.body.order_id)).toMatchObject({ state: 'paid', attempts: 1, formCurrency: 'TON', formAmount: String(milliToNano(Math.round(Number(g.price_ton) * 1000))), receipt: expect.stringMatching(/^sandbox-payment-/) });
  });
});

describe('a purchase without a definite answer (sandbox outcome purchase_unconfirmed)', () => {
  it('stays processing in manual review at stage purchase, never refunded automatically; the operator decides', async () => {
    const alerts: any[] = [];
    t.deps.bus.on('alert', (a) => alerts.push(a));
    const g = await freshGift();
    expect((await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { outcome: 'purchase_unconfirmed' })).status).toBe(200);
    const before = await ton();
    const r = await p.order('nft', { gift: g.gift, recipient: 'limbo_user', max_price: '1000' });
    const id = r.body.order_id;
    await untilStage(id, 'purchase');
    await t.advance(5);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'paying', attempts: 1 });
    // hours pass: the market never answers; the order is never refunded and never paid twice
    for (let i = 0; i < 6; i++) await t.advance(30 * 60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, review: { stage: 'purchase' } });
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'review', attempts: 1 });
    expect(await ton()).not.toBe(before);
    expect(alerts).toContainEqual(expect.objectContaining({ kind: 'review', orderId: id, stage: 'purchase' }));
    expect((await t.admin('GET', '/reviews')).body.items.map((x: any) => x.order_id)).toContain(id);
    const res = await t.admin('POST', `/orders/${id}/resolve`, { outcome: 'refunded' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'purchase', reason: 'manual_refund' } });
    expect(await ton()).toBe(before);
    expect((await t.admin('GET', '/ledger/check')).body.ok).toBe(true);
  });

});

