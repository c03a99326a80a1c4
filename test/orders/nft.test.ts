import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, settleOrder, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

let t: TestService;
let p: TestPartner;
beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', NFT_CATALOG_RATE_LIMIT: '100000' });
  p = await t.newPartner({ usd: '100.00', ton: '50000.000' });
});
afterAll(() => stopService(t));

const ton = async (q: TestPartner) => (await q.call('GET', '/me')).body.nft_balance as string;
const milli = (s: string) => Math.round(Number(s) * 1000);

/** Cheapest available gifts of a collection, skipping ones already used by a test. */
const used = new Set<string>();
async function freshGift(collection = 'HomemadeCake'): Promise<any> {
  const r = await p.call('GET', `/nft/gifts?collection=${collection}&limit=100`);
  const g = r.body.items.find((x: any) => !used.has(x.gift));
  used.add(g.gift);
  return g;
}

describe('when the gift catalog is browsed', () => {
  it('then there are at least 4 collections of at least 120 gifts', async () => {
    const r = await p.call('GET', '/nft/collections');
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThanOrEqual(4);
    for (const c of r.body.items) {
      expect(c).toEqual({ collection: expect.any(String), name: expect.any(String), count: expect.any(Number), floor_price_ton: expect.stringMatching(/^\d+\.\d{3}$/), floor_partner_price: expect.stringMatching(/^\d+\.\d{3}$/), currency: 'TON' });
      expect(c.count).toBeGreaterThanOrEqual(120);
    }
  });

  it.each(['price_asc', 'price_desc'])('then paging a whole collection %s never repeats or skips an item', async (sort) => {
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: any = await p.call('GET', `/nft/gifts?collection=SignetRing&sort=${sort}&limit=17${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(r.body.items.length);
      expect(r.body.source_status).toBe('live');
      expect(r.body.currency).toBe('TON');
      seen.push(...r.body.items);
      cursor = r.body.next_cursor;
      pages++;
    } while (cursor);
    const total = (await p.call('GET', '/nft/collections')).body.items.find((c: any) => c.collection === 'SignetRing').count;
    expect(seen.length).toBe(total);
    expect(new Set(seen.map((g) => g.gift)).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 17));
    const prices = seen.map((g) => milli(g.partner_price));
    const sorted = [...prices].sort((a, b) => (sort === 'price_asc' ? a - b : b - a));
    expect(prices).toEqual(sorted);
    for (const g of seen.slice(0, 3)) {
      expect(g).toEqual({
        gift: expect.stringMatching(/^SignetRing-\d+$/),
        name: 'Signet Ring',
        num: expect.any(Number),
        collection: 'SignetRing',
        // the sandbox's own picture of the gift (GET /sandbox/gifts/<gift>.svg)
        image: `http://127.0.0.1:8080/sandbox/gifts/${g.gift}.svg`,
        price_ton: expect.stringMatching(/^\d+\.\d{3}$/),
        attributes: { model: expect.any(String), backdrop: expect.any(String), symbol: expect.any(String) },
        partner_price: expect.stringMatching(/^\d+\.\d{3}$/),
        currency: 'TON',
        price_usd_ref: expect.stringMatching(/^\d+\.\d{2}$/),
      });
      // rounded up to 0.001 TON and including the 0.055 TON of fees (and the 5 % margin)
      expect(milli(g.partner_price)).toBe(Math.ceil((milli(g.price_ton) + 55) * 1.05));
    }
  });

  it('then filters apply, unknown parameters are reported, and bad ones are refused', async () => {
    const r = await p.call('GET', '/nft/gifts?collection=LootBag&model=Neon&foo=1&limit=100');
    expect(r.status).toBe(200);
    expect(r.body.applied_filters).toEqual({ collection: 'LootBag', sort: 'price_asc', model: 'Neon' });
    expect(r.body.ignored_params).toEqual(['foo']);
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const g of r.body.items) expect((await p.call('GET', `/nft/gifts/${g.gift}`)).body.attributes.model).toBe('Neon');
    for (const [q, code] of [
      ['sort=price_asc', 'collection_required'],
      ['collection=LootBag&sort=cheap', 'bad_sort'],
      ['collection=LootBag&cursor=nonsense', 'bad_cursor'],
      ['collection=LootBag&attr_color=red', 'bad_attr'],
      ['collection=LootBag&limit=0', 'bad_param'],
    ]) {
      const e = await p.call('GET', `/nft/gifts?${q}`);
      expect(e.status, q).toBe(400);
      expect(e.body, q).toEqual(expect.objectContaining({ code, detail: expect.any(String) }));
    }
    const asc = await p.call('GET', '/nft/gifts?collection=LootBag&limit=5');
    const wrongSort = await p.call('GET', `/nft/gifts?collection=LootBag&sort=price_desc&cursor=${asc.body.next_cursor}`);
    expect(codeOf(wrongSort)).toBe('bad_cursor');
  });

  it('then a quote has attributes, availability, quoted_at and max_order_price', async () => {
    const g = await freshGift('LootBag');
    const q = await p.call('GET', `/nft/gifts/${g.gift}`);
    expect(q.body).toEqual({
      ...g,
      attributes: { model: expect.any(String), backdrop: expect.any(String), symbol: expect.any(String) },
      available: true,
      quoted_at: expect.stringMatching(/\+00:00$/),
      max_order_price: null,
    });
    expect((await p.call('GET', '/nft/gifts/LootBag-0')).status).toBe(404);
  });
});

describe('when a gift is ordered', () => {
  it('then it is paid from the TON balance, never above max_price, and delivered through the stages', async () => {
    const g = await freshGift();
    const before = await p.call('GET', '/me');
    const r = await p.order('nft', { gift: g.gift, recipient: '@gift_taker', max_price: '1000.123456' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      order_id: expect.stringMatching(/^pa_[0-9a-f-]{36}$/),
      type: 'nft',
      status: 'processing',
      partner_price: g.partner_price,
      currency: 'TON',
      price_usd_ref: g.price_usd_ref,
      retail: null,
      quantity: 1,
      recipient: '@gift_taker',
      gift: { gift: g.gift, name: g.name, num: g.num, collection: g.collection, image: g.image, price_ton: g.price_ton, attributes: expect.any(Object) },
      delivery: null,
      failure: null,
    });
    const after = await p.call('GET', '/me');
    expect(milli(before.body.nft_balance) - milli(after.body.nft_balance)).toBe(milli(g.partner_price));
    expect(after.body.balance).toBe(before.body.balance);
    const done = await settleOrder(t, p, r.body.order_id, 5, 30);
    expect(done.status).toBe('completed');
    expect(done.delivery).toEqual({
      nft_public_url: `https://t.me/nft/${g.gift}`,
      ton_explorer_url: expect.stringMatching(/^https:\/\//),
      transfer_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      completed_at: expect.stringMatching(/\+00:00$/),
    });
    // sold: no longer available, and no longer listed
    expect((await p.call('GET', `/nft/gifts/${g.gift}`)).body.available).toBe(false);
  });

  it('then the checks run in the order of rule 6, and the recipient hides later errors', async () => {
    const g = await freshGift();
    const o = (params: Record<string, unknown>) => p.order('nft', params);
    for (const bad of ['abc', '-1', '0', '0.000', '', ' 5', '1e3']) expect(codeOf(await o({ gift: g.gift, recipient: 'okay_user', max_price: bad })), bad).toBe('bad_max_price');
    expect(codeOf(await o({ gift: g.gift, recipient: 'okay_user', max_price: 5 }))).toBe('bad_max_price');
    expect(codeOf(await o({ gift: g.gift, recipient: 'okay_user' }))).toBe('bad_max_price');
    expect(codeOf(await o({ gift: 'Nope-1', recipient: 'ghost_gone', max_price: '0.001' }))).toBe('recipient_not_found');
    expect(codeOf(await o({ gift: 'Nope-1', max_price: '0.001' }))).toBe('recipient_required');
    const changed = await o({ gift: g.gift, recipient: 'okay_user', max_price: '0.001' });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({ code: 'price_changed', detail: expect.any(String), current_price: g.partner_price, currency: 'TON' });
    expect(codeOf(await o({ gift: 'Nope-1', recipient: 'okay_user', max_price: '10' }))).toBe('bad_gift');
    expect(codeOf(await o({ gift: 42, recipient: 'okay_user', max_price: '10' }))).toBe('bad_gift');
    await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { available: false });
    const sold = await o({ gift: g.gift, recipient: 'okay_user', max_price: '1000' });
    expect(sold.status).toBe(409);
    expect(codeOf(sold)).toBe('gift_not_for_sale');
    const g2 = await freshGift();
    await t.admin('PUT', `/sandbox/gifts/${g2.gift}`, { reserved: true });
    expect(codeOf(await o({ gift: g2.gift, recipient: 'okay_user', max_price: '1000' }))).toBe('gift_reserved');
    expect((await p.call('GET', '/orders?type=nft')).body.items.filter((x: any) => [g.gift, g2.gift].includes(x.gift.gift))).toEqual([]);
  });

  it('then a max_price exactly at the price is accepted and the debit equals it', async () => {
    const g = await freshGift();
    const r = await p.order('nft', { gift: g.gift, recipient: 'exact_user', max_price: g.partner_price });
    expect(r.status).toBe(200);
    expect(r.body.partner_price).toBe(g.partner_price);
  });

  it('then two partners ordering one gift at once get one order and one gift_reserved', async () => {
    const q = await t.newPartner({ usd: null, ton: '5000.000' });
    const g = await freshGift();
    const before = { p: milli(await ton(p)), q: milli(await ton(q)) };
    const [a, b] = await Promise.all([
      p.order('nft', { gift: g.gift, recipient: 'race_one', max_price: '1000' }),
      q.order('nft', { gift: g.gift, recipient: 'race_two', max_price: '1000' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(codeOf(a.status === 409 ? a : b)).toBe('gift_reserved');
    // the winner paid the gift's price, the loser nothing
    const paid = { p: before.p - milli(await ton(p)), q: before.q - milli(await ton(q)) };
    expect(a.status === 200 ? paid : { p: paid.q, q: paid.p }).toEqual({ p: milli(g.partner_price), q: 0 });
  });

  it('then the TON balance alone pays: USD does not help', async () => {
    const poor = await t.newPartner({ usd: '1000.00', ton: '10.000' });
    const g = (await p.call('GET', '/nft/gifts?collection=SignetRing&limit=1')).body.items[0];
    const r = await poor.order('nft', { gift: g.gift, recipient: 'poor_user', max_price: '100000' });
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ code: 'insufficient_balance', detail: expect.any(String), currency: 'TON', balance: '10.000' });
    expect((await poor.call('GET', '/orders')).body.items).toEqual([]);
  });
});

describe('when a purchase fails', () => {
  const reasons: [string, string][] = [
    ['gift_not_for_sale', 'create'],
    ['gift_reserved', 'create'],
    ['nft_disabled', 'create'],
    ['gift_unavailable', 'confirm'],
    ['hub_rejected', 'confirm'],
    ['delivery_failed', 'confirm'],
    ['queue_rejected', 'queue'],
    ['price_above_cap', 'pricing'],
    ['amount_above_cap', 'pricing'],
    ['invalid_price', 'pricing'],
    ['invalid_upstream_price', 'pricing'],
    ['pricing_failed', 'pricing'],
    ['insufficient_funds', 'balance'],
  ];
  it.each(reasons)('then %s at stage %s refunds the exact TON amount with nft_failed', async (reason, stage) => {
    const g = await freshGift();
    expect((await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { outcome: reason })).status).toBe(200);
    const before = await ton(p);
    const r = await p.order('nft', { gift: g.gift, recipient: 'unlucky_user', max_price: '1000' });
    expect(r.status).toBe(200);
    expect(milli(before) - milli(await ton(p))).toBe(milli(g.partner_price));
    const done = await settleOrder(t, p, r.body.order_id, 5, 40);
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage, reason }, delivery: null });
    expect(await ton(p)).toBe(before);
    const ev = t.db.$client.prepare("select body from events where order_id = ? and event = 'order.refunded'").get(r.body.order_id) as any;
    expect(JSON.parse(ev.body).data).toEqual({ order_id: r.body.order_id, refund_amount: Number(g.partner_price), reason: 'nft_failed', currency: 'TON', refund_amount_ton: g.partner_price, client_reference: null });
  });

  it('then a recipient that cannot receive gifts fails with invalid_recipient and is refunded', async () => {
    const g = await freshGift();
    const before = await ton(p);
    const r = await p.order('nft', { gift: g.gift, recipient: 'nogift_nina', max_price: '1000' });
    const done = await settleOrder(t, p, r.body.order_id, 5, 40);
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'create', reason: 'invalid_recipient' } });
    expect(await ton(p)).toBe(before);
  });

  it('then a listing that became dearer is not bought (price_above_cap)', async () => {
    const g = await freshGift();
    const r = await p.order('nft', { gift: g.gift, recipient: 'cap_user', max_price: '1000' });
    await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { price_ton: (Number(g.price_ton) + 1).toFixed(3) });
    const done = await settleOrder(t, p, r.body.order_id, 5, 40);
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'pricing', reason: 'price_above_cap' } });
  });

  it('then low purchase funds give insufficient_funds and an operator alert', async () => {
    const alerts: any[] = [];
    t.deps.bus.on('alert', (a) => alerts.push(a));
    await t.admin('PUT', '/sandbox/faults', { purchase_funds_low: true });
    const g = await freshGift();
    const r = await p.order('nft', { gift: g.gift, recipient: 'funds_user', max_price: '1000' });
    const done = await settleOrder(t, p, r.body.order_id, 5, 40);
    await t.admin('PUT', '/sandbox/faults', { purchase_funds_low: false });
    expect(done.failure).toEqual({ stage: 'balance', reason: 'insufficient_funds' });
    expect(alerts).toContainEqual({ kind: 'order_failure', orderId: r.body.order_id, partnerId: p.id, reason: 'insufficient_funds' });
  });

  it('then a market outage refuses new orders with 503 and a stalled order gives up within the hour', async () => {
    const g = await freshGift();
    const r = await p.order('nft', { gift: g.gift, recipient: 'stall_user', max_price: '1000' });
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { nft: true } });
    const refused = await p.order('nft', { gift: g.gift, recipient: 'stall_user', max_price: '1000' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
    expect(refused.headers['retry-after']).toBeDefined();
    await t.advance(30 * 60);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('processing');
    await t.advance(31 * 60);
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { nft: false } });
    const done = (await p.call('GET', `/orders/${r.body.order_id}`)).body;
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'create', reason: 'gift_unavailable' } });
  });
});

describe('when a gift is bought but not transferred', () => {
  it.each(['delivered', 'refunded'])('then it waits in manual review and the operator resolves it as %s', async (outcome) => {
    const g = await freshGift();
    const before = await ton(p);
    const r = await p.order('nft', { gift: g.gift, recipient: `stuck_${outcome}`, max_price: '1000' });
    await t.advance(120);
    const o = (await p.call('GET', `/orders/${r.body.order_id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, delivery: null, failure: null });
    const review = (await t.admin('GET', `/orders/${r.body.order_id}`)).body.review;
    expect(review).toEqual({ stage: 'transfer', since: expect.any(String) });
    const res = await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome });
    expect(res.status).toBe(200);
    if (outcome === 'delivered') {
      expect(res.body).toMatchObject({ status: 'completed', refunded: false, review: null });
      expect(milli(before) - milli(await ton(p))).toBe(milli(g.partner_price));
    } else {
      expect(res.body).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'transfer', reason: 'manual_refund' } });
      expect(await ton(p)).toBe(before);
      const ev = t.db.$client.prepare("select body from events where order_id = ? and event = 'order.refunded'").get(r.body.order_id) as any;
      expect(JSON.parse(ev.body).data).toMatchObject({ reason: 'nft_manual_refund', refund_amount_ton: g.partner_price, currency: 'TON' });
    }
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('then the sandbox outcome stuck_transfer does the same', async () => {
    const g = await freshGift();
    await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { outcome: 'stuck_transfer' });
    const r = await p.order('nft', { gift: g.gift, recipient: 'plain_receiver', max_price: '1000' });
    await t.advance(120);
    expect((await t.admin('GET', '/reviews')).body.items.map((x: any) => x.order_id)).toContain(r.body.order_id);
  });
});

describe('when NFT rate limits apply', () => {
  it('then nft_catalog and nft_orders have their own scopes', async () => {
    const s = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', NFT_CATALOG_RATE_LIMIT: '2', NFT_ORDERS_RATE_LIMIT: '1' });
    try {
      const q = await s.newPartner();
      expect((await q.call('GET', '/nft/collections')).status).toBe(200);
      expect((await q.call('GET', '/nft/gifts?collection=LootBag')).status).toBe(200);
      const limited = await q.call('GET', '/nft/gifts?collection=LootBag');
      expect(limited.status).toBe(429);
      expect(limited.body.detail).toMatchObject({ code: 'rate_limited', scope: 'nft_catalog', limit: 2, window_seconds: 60 });
      expect((await q.order('nft', { gift: 'Nope-1', recipient: 'abcde', max_price: '1' })).status).toBe(400);
      const o2 = await q.order('nft', { gift: 'Nope-1', recipient: 'abcde', max_price: '1' });
      expect(o2.status).toBe(429);
      expect(o2.body.detail).toMatchObject({ scope: 'nft_orders', limit: 1 });
      expect((await q.order('stars', { quantity: 50, recipient: 'abcde' })).status).toBe(200);
    } finally {
      await stopService(s);
    }
  });
});
