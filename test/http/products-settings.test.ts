import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeOf, startService, stopService, type Res, type TestPartner, type TestService } from '../helpers.js';

let t: TestService;
beforeEach(async () => {
  t = await startService();
});
afterEach(async () => {
  await stopService(t);
});

const USD2 = /^\d+\.\d{2}$/;
const TON3 = /^\d+\.\d{3}$/;

function expectFlat(r: Res, status: number, code: string) {
  expect(r.status, r.raw).toBe(status);
  expect(codeOf(r)).toBe(code);
  expect(r.body).toMatchObject({ code, detail: expect.any(String) });
}

function entries(partnerId: number): { currency: string; amount: number; kind: string; order_id: string | null }[] {
  return t.db.$client.prepare('select currency, amount, kind, order_id from ledger_entries where partner_id = ? order by entry_id').all(partnerId) as never;
}

async function ledgerOk() {
  expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
}

async function prices(p: TestPartner) {
  const r = await p.call('GET', '/products');
  expect(r.status).toBe(200);
  return { stars: r.body.stars.price_per_1000 as string, perStar: r.body.stars.price_per_star as string, p3: r.body.premium['3'].partner_price as string, p6: r.body.premium['6'].partner_price as string, p12: r.body.premium['12'].partner_price as string };
}

describe('GET /me', () => {
  it('has every field of the contract with the right decimals', async () => {
    const p = await t.newPartner({ usd: '123.40', ton: '56.7' });
    const r = await p.call('GET', '/me');
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({
      partner_id: p.id,
      status: 'active',
      balance: '123.40',
      currency: 'USD',
      balances: { USD: '123.40', TON: '56.700' },
      nft_balance: '56.700',
      nft_currency: 'TON',
    });
    expect(Object.keys(b.balances).sort()).toEqual(['TON', 'USD']);
    expect(b.balance).toMatch(USD2);
    expect(b.balances.USD).toMatch(USD2);
    expect(b.balances.TON).toMatch(TON3);
    expect(b.nft_balance).toMatch(TON3);
    expect(typeof b.pricing.note).toBe('string');
    expect(b.pricing.note).toContain('/products');
    expect(b.limits).toMatchObject({
      api_rate_limit: 120,
      api_rate_burst: 30,
      nft_catalog_rate_limit: 30,
      nft_orders_rate_limit: 60,
      stars_min_per_order: 50,
      stars_max_per_order: 50000,
      nft_max_order_ton: null,
    });
    expect(b.limits.premium_months).toEqual([3, 6, 12]);
  });

  it('shows zero balances with their decimals and follows debits', async () => {
    const p = await t.newPartner({ usd: '10.00', ton: null });
    const me = (await p.call('GET', '/me')).body;
    expect(me.balances).toEqual({ USD: '10.00', TON: '0.000' });
    expect(me.nft_balance).toBe('0.000');
    const o = await p.order('stars', { quantity: 100, recipient: '@me_user' });
    expect(o.status, o.raw).toBe(200);
    expect(o.body.partner_price).toBe('1.58'); // 15.75 per 1000 × 100, rounded up to the cent
    const after = (await p.call('GET', '/me')).body;
    expect(after.balance).toBe('8.42');
    expect(after.balances.USD).toBe('8.42');
    expect(entries(p.id).map((e) => [e.kind, e.amount])).toEqual([
      ['topup', 1000],
      ['order_debit', -158],
    ]);
    await ledgerOk();
  });

  it('follows the configured limits', async () => {
    await stopService(t);
    t = await startService({ API_RATE_LIMIT: '600', API_RATE_BURST: '50', STARS_MIN_PER_ORDER: '100', STARS_MAX_PER_ORDER: '20000', NFT_CATALOG_RATE_LIMIT: '45' });
    const p = await t.newPartner();
    const l = (await p.call('GET', '/me')).body.limits;
    expect(l).toMatchObject({ api_rate_limit: 600, api_rate_burst: 50, stars_min_per_order: 100, stars_max_per_order: 20000, nft_catalog_rate_limit: 45 });
    expect((await p.call('GET', '/products')).body.stars.max_per_order).toBe(20000);
  });
});

describe('GET /products', () => {
  it('has every field of the contract: stars, premium 3/6/12, nft block', async () => {
    const p = await t.newPartner();
    const r = await p.call('GET', '/products');
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b.currency).toBe('USD');
    expect(b).not.toHaveProperty('unavailable');
    // default sandbox costs 15.00 / 11.99 / 15.99 / 28.99 with the default 5 % margin, rounded up
    expect(b.stars).toMatchObject({ price_per_1000: '15.75', price_per_star: '0.015750', currency: 'USD', max_per_order: 50000 });
    expect(b.stars.price_per_1000).toMatch(USD2);
    expect(b.stars.price_per_star).toMatch(/^\d+\.\d{6}$/);
    expect(Number.isInteger(b.stars.max_per_order)).toBe(true);
    expect(Object.keys(b.premium).sort()).toEqual(['12', '3', '6']);
    expect(b.premium).toEqual({
      '3': { partner_price: '12.59', currency: 'USD', available: true },
      '6': { partner_price: '16.79', currency: 'USD', available: true },
      '12': { partner_price: '30.44', currency: 'USD', available: true },
    });
    expect(b.nft).toEqual({
      available: true,
      pricing_model: 'per_gift',
      currency: 'TON',
      balance: 'nft_balance',
      catalog: expect.stringMatching(/\/nft\/gifts$/),
      quote: expect.stringMatching(/\/nft\/gifts\/\{gift\}$/),
      max_order_ton: null,
    });
  });

  it('price_per_star is exactly price_per_1000 / 1000 for awkward prices', async () => {
    const p = await t.newPartner();
    for (const cost of ['12.34', '0.01', '999.99', '7.77']) {
      expect((await t.admin('PUT', '/sandbox/market', { stars_per_1000_cost: cost })).status).toBe(200);
      const s = (await p.call('GET', '/products')).body.stars;
      const per1000Cents = BigInt(s.price_per_1000.replace('.', ''));
      const perStarMicro = BigInt(s.price_per_star.replace('.', ''));
      // price_per_1000 has 2 decimals (cents), price_per_star 6 decimals: cents × 10^4 / 1000 = cents × 10
      expect(perStarMicro).toBe(per1000Cents * 10n);
    }
  });

  it('PUT /sandbox/market moves prices: cost × (1 + margin), rounded up to the cent', async () => {
    const p = await t.newPartner();
    const m = await t.admin('PUT', '/sandbox/market', { stars_per_1000_cost: '12.34', premium_cost: { '3': '10.01' } });
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ stars_per_1000_cost: '12.34', premium_cost: { '3': '10.01', '6': '15.99', '12': '28.99' }, unavailable: false });
    // 1234 × 1.05 = 1295.7 → 1296; 1001 × 1.05 = 1051.05 → 1052
    expect(await prices(p)).toEqual({ stars: '12.96', perStar: '0.012960', p3: '10.52', p6: '16.79', p12: '30.44' });
    // an order is charged at the new price, and the ledger shows exactly that debit
    const o = await p.order('stars', { quantity: 50, recipient: '@market_user' });
    expect(o.status, o.raw).toBe(200);
    expect(o.body).toMatchObject({ partner_price: '0.65', currency: 'USD' }); // 12.96 × 50 / 1000 = 0.648 → 0.65
    const pr = await p.order('premium', { months: 3, recipient: '@market_user' });
    expect(pr.status, pr.raw).toBe(200);
    expect(pr.body).toMatchObject({ partner_price: '10.52', currency: 'USD' });
    expect(entries(p.id).filter((e) => e.kind === 'order_debit').map((e) => e.amount)).toEqual([-65, -1052]);
    expect((await p.call('GET', '/me')).body.balance).toBe('988.83');
    await ledgerOk();
  });

  it('the margin (GET/PUT /settings margin_bps, default 500) changes prices the same way for every partner', async () => {
    const a = await t.newPartner();
    const b = await t.newPartner();
    const s = await t.admin('GET', '/settings');
    expect(s.status).toBe(200);
    expect(s.body).toEqual({
      program_available: true,
      products: { stars: { enabled: true }, premium: { enabled: true }, nft: { enabled: true } },
      margin_bps: 500,
    });
    expect((await t.admin('PUT', '/sandbox/market', { stars_per_1000_cost: '10.00', premium_cost: { '3': '10.00', '6': '20.00', '12': '33.33' } })).status).toBe(200);
    expect(await prices(a)).toEqual({ stars: '10.50', perStar: '0.010500', p3: '10.50', p6: '21.00', p12: '35.00' }); // 3333 × 1.05 = 3499.65 → 3500

    const u = await t.admin('PUT', '/settings', { margin_bps: 333 });
    expect(u.status).toBe(200);
    expect(u.body.margin_bps).toBe(333);
    expect((await t.admin('GET', '/settings')).body.margin_bps).toBe(333);
    // 1000 × 1.0333 = 1033.3 → 1034; 2000 × 1.0333 = 2066.6 → 2067; 3333 × 1.0333 = 3443.9889 → 3444
    const expected = { stars: '10.34', perStar: '0.010340', p3: '10.34', p6: '20.67', p12: '34.44' };
    expect(await prices(a)).toEqual(expected);
    expect(await prices(b)).toEqual(expected);

    expect((await t.admin('PUT', '/settings', { margin_bps: 0 })).status).toBe(200);
    expect(await prices(b)).toEqual({ stars: '10.00', perStar: '0.010000', p3: '10.00', p6: '20.00', p12: '33.33' });
    // other settings untouched by a margin change
    expect((await t.admin('GET', '/settings')).body).toMatchObject({ program_available: true, products: { stars: { enabled: true } } });
  });

  it('unavailable costs: GET /products is 200 {unavailable, reason}; stars and premium orders are 503, nothing debited', async () => {
    const p = await t.newPartner();
    const m = await t.admin('PUT', '/sandbox/market', { unavailable: true });
    expect(m.status).toBe(200);
    const r = await p.call('GET', '/products');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ unavailable: true, reason: 'cost_unavailable' });
    const before = entries(p.id).length;
    const s = await p.order('stars', { quantity: 100, recipient: '@alice_user' });
    expectFlat(s, 503, 'product_unavailable');
    const pr = await p.order('premium', { months: 6, recipient: '@alice_user' });
    expectFlat(pr, 503, 'product_unavailable');
    expect(entries(p.id)).toHaveLength(before);
    expect(t.db.$client.prepare('select count(*) as n from orders').get()).toEqual({ n: 0 });
    expect((await p.call('GET', '/me')).body.balance).toBe('1000.00');
    // back: prices and orders return; the same idempotency key was not claimed by the refusal
    expect((await t.admin('PUT', '/sandbox/market', { unavailable: false })).status).toBe(200);
    expect((await p.call('GET', '/products')).body.stars.price_per_1000).toBe('15.75');
    const again = await p.order('stars', { quantity: 100, recipient: '@alice_user' });
    expect(again.status, again.raw).toBe(200);
    await ledgerOk();
  });

  it('a bad market body is 400', async () => {
    for (const body of [{ stars_per_1000_cost: '1.234' }, { stars_per_1000_cost: 'cheap' }, { premium_cost: { '4': '1.00' } }, { unavailable: 'yes' }, { foo: 1 }]) {
      const r = await t.admin('PUT', '/sandbox/market', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
    expect((await t.admin('GET', '/sandbox/market')).body).toMatchObject({ stars_per_1000_cost: '15.00', unavailable: false });
  });
});

describe('PUT /settings', () => {
  it('a disabled product gives 503 product_unavailable with reason product_disabled (flat); others still work', async () => {
    const p = await t.newPartner();
    const r = await t.admin('PUT', '/settings', { products: { stars: { enabled: false } } });
    expect(r.status).toBe(200);
    expect(r.body.products).toEqual({ stars: { enabled: false }, premium: { enabled: true }, nft: { enabled: true } });
    const s = await p.order('stars', { quantity: 100, recipient: '@alice_user' });
    expectFlat(s, 503, 'product_unavailable');
    expect(s.body.reason).toBe('product_disabled');
    expect(s.body).not.toHaveProperty('detail.code');
    expect(t.db.$client.prepare('select count(*) as n from orders').get()).toEqual({ n: 0 });
    const pr = await p.order('premium', { months: 3, recipient: '@alice_user' });
    expect(pr.status, pr.raw).toBe(200);

    expect((await t.admin('PUT', '/settings', { products: { premium: { enabled: false } } })).body.products).toEqual({
      stars: { enabled: false },
      premium: { enabled: false },
      nft: { enabled: true },
    });
    const pr2 = await p.order('premium', { months: 3, recipient: '@carol_user' });
    expectFlat(pr2, 503, 'product_unavailable');
    expect(pr2.body.reason).toBe('product_disabled');

    expect((await t.admin('PUT', '/settings', { products: { stars: { enabled: true }, premium: { enabled: true } } })).status).toBe(200);
    const ok = await p.order('stars', { quantity: 100, recipient: '@alice_user' });
    expect(ok.status, ok.raw).toBe(200);
    expect(entries(p.id).filter((e) => e.kind === 'order_debit')).toHaveLength(2);
    await ledgerOk();
  });

  it('a bad settings body is 400 and changes nothing', async () => {
    const bodies: unknown[] = [
      { program_available: 'no' },
      { program_available: null },
      { products: { stars: { enabled: 'yes' } } },
      { products: { stars: {} } },
      { products: { gold: { enabled: true } } },
      { products: 'all' },
      { margin_bps: -1 },
      { margin_bps: 1.5 },
      { margin_bps: '500' },
      { unknown: true },
      [],
      'program_available=false',
    ];
    for (const body of bodies) {
      const r = await t.admin('PUT', '/settings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(codeOf(r)).toEqual(expect.any(String));
    }
    const broken = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/v1/settings',
      headers: { authorization: `Bearer ${t.env.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: '{"program_available": fals',
    });
    expect(broken.statusCode).toBe(400);
    expect((await t.admin('GET', '/settings')).body).toEqual({
      program_available: true,
      products: { stars: { enabled: true }, premium: { enabled: true }, nft: { enabled: true } },
      margin_bps: 500,
    });
  });

  it('settings and market survive a restart', async () => {
    expect((await t.admin('PUT', '/settings', { margin_bps: 1000, products: { nft: { enabled: false } } })).status).toBe(200);
    expect((await t.admin('PUT', '/sandbox/market', { stars_per_1000_cost: '20.00' })).status).toBe(200);
    await stopService(t, false);
    t = await startService(t.env, { dir: t.dir });
    expect((await t.admin('GET', '/settings')).body).toMatchObject({ margin_bps: 1000, products: { nft: { enabled: false } } });
    const p = await t.newPartner();
    const b = (await p.call('GET', '/products')).body;
    expect(b.stars.price_per_1000).toBe('22.00');
    expect(b.nft.available).toBe(false);
  });
});
