import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redeemInvite } from '../../src/app/invites.js';
import { offsetIso } from '../../src/domain/time-format.js';
import { setBotUsername } from '../../src/store/bot-repo.js';
import { ADMIN_TOKEN, codeOf } from '../helpers.js';
import { appWorld, asUser, raw } from './app-helpers.js';

/**
 * The operator's console in the Mini App (/api/app/v1/operator/*): operators are the Telegram users of
 * ADMIN_CHAT_IDS; owners, staff and strangers get 403 forbidden and change nothing; every change is audited
 * with the operator's Telegram id.
 */
const w = appWorld();
const OPERATOR = 777_001;
const STRANGER = 777_999;

function audits(t: { db: { $client: { prepare(s: string): { all(...a: unknown[]): unknown[] } } } }, action: string) {
  return t.db.$client.prepare('select actor, action, target, data from audit_log where action = ? order by audit_id').all(action) as { actor: string; target: string | null; data: string }[];
}
const auditCount = (t: { db: { $client: { prepare(s: string): { get(): unknown } } } }) => (t.db.$client.prepare('select count(*) as n from audit_log').get() as { n: number }).n;

async function world() {
  const x = await w.start({ ADMIN_CHAT_IDS: `${OPERATOR},-100123`, APP_RATE_LIMIT: '100000' });
  return { ...x, op: asUser(x.t, OPERATOR), stranger: asUser(x.t, STRANGER) };
}

const ROUTES: [string, string, unknown?][] = [
  ['GET', '/operator/overview'],
  ['GET', '/operator/partners'],
  ['GET', '/operator/partners?q=Test'],
  ['POST', '/operator/partners', { name: 'Sneaky' }],
  ['POST', '/operator/partners/1/invites', { role: 'owner' }],
  ['GET', '/operator/partners/1'],
  ['GET', '/operator/partners/1/orders'],
  ['GET', '/operator/partners/1/ledger'],
  ['POST', '/operator/partners/1/adjustments', { currency: 'USD', amount: '-1.00', note: 'sneaky' }],
  ['POST', '/operator/partners/1/exports', { what: 'orders' }],
  ['GET', '/operator/reviews'],
  ['POST', '/operator/orders/ord_x/resolve', { outcome: 'refunded' }],
  ['GET', '/operator/deposits'],
  ['POST', '/operator/deposits/dep_x/resolve', { action: 'close', note: 'x' }],
  ['GET', '/operator/products'],
  ['PUT', '/operator/products/stars', { enabled: false }],
];

describe('Mini App API: who may use the console', () => {
  it('GET /session says operator: true for an operator, with no partner when not linked; false for everyone else', async () => {
    const { t, p, owner, op, stranger } = await world();
    const s = await op.call('GET', '/session');
    expect([s.status, s.body]).toEqual([200, { user: { telegram_id: OPERATOR, role: null, operator: true }, partner: null }]);
    expect((await owner.call('GET', '/session')).body.user).toEqual({ telegram_id: owner.id, role: 'owner', operator: false });
    const r = await stranger.call('GET', '/session');
    expect([r.status, codeOf(r)]).toEqual([403, 'not_linked']);
    // an operator who also belongs to a partner sees both
    const inv = await t.admin('POST', `/partners/${p.id}/invites`, { role: 'staff' });
    redeemInvite(t.deps, inv.body.code, OPERATOR, OPERATOR, 'en');
    expect((await op.call('GET', '/session')).body).toEqual({
      user: { telegram_id: OPERATOR, role: 'staff', operator: true },
      partner: { partner_id: p.id, name: 'Test partner', status: 'active' },
    });
  });

  it('owners, staff and strangers get 403 forbidden (nested) on every console route, and nothing changes', async () => {
    const { t, owner, staff, stranger } = await world();
    const before = auditCount(t);
    const settings = JSON.stringify((await t.admin('GET', '/settings')).body);
    for (const who of [owner, staff, stranger]) {
      for (const [m, u, b] of ROUTES) {
        const r = await who.call(m, u, b);
        expect([m, u, r.status, r.body]).toEqual([m, u, 403, { detail: { code: 'forbidden', detail: 'Only an operator of the service may do this.' } }]);
      }
    }
    expect(auditCount(t)).toBe(before);
    expect(JSON.stringify((await t.admin('GET', '/settings')).body)).toBe(settings);
    expect((await t.admin('GET', '/partners/2')).status).toBe(404);
  });

  it('without credentials every console route is 401 unauthorized', async () => {
    const { t } = await world();
    for (const [m, u, b] of ROUTES) {
      const r = await raw(t, m, u, b);
      expect([u, r.status, codeOf(r)]).toEqual([u, 401, 'unauthorized']);
    }
  });
});

describe('Mini App API: the console for an operator', () => {
  it('overview: liabilities beside supplier funds and coverage, what waits, the last 24 h by status, type, hour and margin', async () => {
    const { t, p, op } = await world();
    const o = await p.order('stars', { quantity: 100, recipient: '@overview_fan' });
    expect(o.status).toBe(200);
    await t.advance(10);
    expect((await p.call('GET', `/orders/${o.body.order_id}`)).body.status).toBe('completed');
    await p.order('premium', { months: 3, recipient: '@overview_prem' });
    const req = await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '20.00' });
    const to = req.body.addresses.find((a: { network: string }) => a.network === 'trc20').address;
    expect((await t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '19.99', to, tx_hash: 'console-unmatched-1' })).body.status).toBe('unmatched');

    const r = await op.call('GET', '/operator/overview');
    expect(r.status).toBe(200);
    const now = t.deps.clock.now();
    const at = offsetIso(now);
    const hour0 = (Math.floor(now / 3_600_000) - 23) * 3_600_000;
    // 1000.00 less 1.58 (100 stars at 15.75 per 1000) less 12.59 (Premium 3 months: 11.99 + 5 %)
    expect(r.body).toEqual({
      liabilities: { USD: '985.83', TON: '1000.000' },
      supplier_funds: [
        { supplier: 'sandbox_fragment', currency: 'TON', amount: '2500.000', updated_at: at },
        { supplier: 'sandbox_gifts', currency: 'TON', amount: '10000.000', updated_at: at },
        { supplier: 'sandbox_gifts', currency: 'STARS', amount: '50000', updated_at: at },
      ],
      coverage: [
        { supplier: 'sandbox_fragment', currency: 'USD', funds: expect.stringMatching(/^\d+\.\d\d$/), liabilities: '985.83', covered: true },
        { supplier: 'sandbox_gifts', currency: 'TON', funds: '10000.000', liabilities: '1000.000', covered: true },
      ],
      reviews_waiting: 0,
      deposits_unmatched: 1,
      webhooks_gave_up_24h: 0,
      orders_24h: { by_status: { completed: 1, processing: 1 }, by_type: { stars: 1, premium: 1 } },
      // the completed Stars order only: 1.58 less its stored cost 1.50 (100 stars at 15.00 per 1000)
      margin_24h: { USD: '0.08', TON: '0.000' },
      margin_24h_without_cost: 0,
      orders_per_hour: Array.from({ length: 24 }, (_, i) => ({ hour: offsetIso(hour0 + i * 3_600_000), count: i === 23 ? 2 : 0 })),
    });

    // a gift account that cannot pay for what partners hold in TON: coverage says so
    await t.admin('PUT', '/sandbox/faults', { purchase_funds_low: true });
    const low = (await op.call('GET', '/operator/overview')).body;
    expect(low.coverage[1]).toEqual({ supplier: 'sandbox_gifts', currency: 'TON', funds: '0.000', liabilities: '1000.000', covered: false });
  });

  it('margin: partner price less the supplier cost stored with each order, of the orders completed in the last 24 h', async () => {
    const { t, p, op } = await world();
    const cost = (id: string) => (t.db.$client.prepare('select supplier_cost as c from orders where order_id = ?').get(id) as { c: number | null }).c;
    // a day-old completed order: outside the window
    const old = await p.order('stars', { quantity: 1000, recipient: '@margin_old' });
    await t.advance(10);
    expect(cost(old.body.order_id)).toBe(1500);
    await t.advance(24 * 3600);
    // at 5 %: 1000 stars cost 15.00, sold for 15.75; Premium 6 months cost 15.99, sold for 16.79
    const stars = await p.order('stars', { quantity: 1000, recipient: '@margin_fan' });
    const prem = await p.order('premium', { months: 6, recipient: '@margin_prem' });
    expect([cost(stars.body.order_id), cost(prem.body.order_id)]).toEqual([1500, 1599]);
    // the margin setting changes later: the orders keep the costs they were priced from
    expect((await t.admin('PUT', '/settings', { margin_bps: 2000 })).status).toBe(200);
    const stars2 = await p.order('stars', { quantity: 333, recipient: '@margin_fan2' });
    // 333 stars: cost 15.00 × 0.333 = 4.995 → 5.00 (nearest cent); price 18.00 × 0.333 = 5.994 → 6.00 (rounded up)
    expect([stars2.body.partner_price, cost(stars2.body.order_id)]).toEqual(['6.00', 500]);
    // a gift: its listing price and fees are the cost (milli-TON)
    const g = (await p.call('GET', '/nft/gifts?collection=LootBag&limit=1')).body.items[0];
    const gift = await p.order('nft', { gift: g.gift, recipient: '@margin_gift', max_price: '1000' });
    expect(gift.status).toBe(200);
    const giftCost = cost(gift.body.order_id)!;
    expect(giftCost).toBe(Math.round(Number(g.price_ton) * 1000) + t.deps.suppliers.gifts.feesMilli());
    await t.advance(120);
    for (const o of [stars, prem, stars2, gift]) expect([o.body.order_id, (await p.call('GET', `/orders/${o.body.order_id}`)).body.status]).toEqual([o.body.order_id, 'completed']);
    // a completed order from before costs were stored
    const legacy = await p.order('stars', { quantity: 200, recipient: '@margin_legacy' });
    await t.advance(10);
    t.db.$client.prepare('update orders set supplier_cost = null where order_id = ?').run(legacy.body.order_id);

    const r = (await op.call('GET', '/operator/overview')).body;
    const tonMargin = Math.round(Number(gift.body.partner_price) * 1000) - giftCost;
    expect(tonMargin).toBeGreaterThan(0);
    // (15.75 − 15.00) + (16.79 − 15.99) + (6.00 − 5.00) = 2.55
    expect([r.margin_24h, r.margin_24h_without_cost]).toEqual([{ USD: '2.55', TON: (tonMargin / 1000).toFixed(3) }, 1]);
  });

  it('partners: search by name or id, newest first, paged with a cursor', async () => {
    const { t, p, op } = await world();
    for (const n of ['Alpha Shop', 'Beta Gifts', 'Gamma Stars']) expect((await t.admin('POST', '/partners', { name: n })).status).toBe(201);
    const all = await op.call('GET', '/operator/partners');
    expect(all.status).toBe(200);
    expect(all.body.items.map((x: { name: string }) => x.name)).toEqual(['Gamma Stars', 'Beta Gifts', 'Alpha Shop', 'Test partner']);
    expect(all.body.items[3]).toEqual({ partner_id: p.id, name: 'Test partner', status: 'active', balances: { USD: '1000.00', TON: '1000.000' }, created_at: expect.stringMatching(/\+00:00$/) });
    expect(all.body.next_cursor).toBeNull();
    // each partner with its own balances (the new ones hold nothing)
    expect(all.body.items.slice(0, 3).map((x: { balances: unknown }) => x.balances)).toEqual(Array(3).fill({ USD: '0.00', TON: '0.000' }));
    expect((await op.call('GET', '/operator/partners?q=gifts')).body.items.map((x: { name: string }) => x.name)).toEqual(['Beta Gifts']);
    expect((await op.call('GET', `/operator/partners?q=${p.id}`)).body.items.map((x: { partner_id: number }) => x.partner_id)).toEqual([p.id]);
    const first = await op.call('GET', '/operator/partners?limit=2');
    expect(first.body.items.map((x: { name: string }) => x.name)).toEqual(['Gamma Stars', 'Beta Gifts']);
    const second = await op.call('GET', `/operator/partners?limit=2&cursor=${first.body.next_cursor}`);
    expect([second.body.items.map((x: { name: string }) => x.name), second.body.next_cursor]).toEqual([['Alpha Shop', 'Test partner'], null]);
    const bad = await op.call('GET', '/operator/partners?cursor=nope');
    expect([bad.status, codeOf(bad)]).toEqual([400, 'bad_cursor']);
  });

  it('creating a partner gives its owner invite as a t.me link; more invites; all audited with the operator', async () => {
    const { t, op } = await world();
    setBotUsername(t.db, 'console_test_bot', t.deps.clock.now());
    const r = await op.call('POST', '/operator/partners', { name: '  Delta Market ' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ partner_id: expect.any(Number), name: 'Delta Market', status: 'inactive', invite: { code: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/), link: expect.any(String) } });
    expect(r.body.invite.link).toBe(`https://t.me/console_test_bot?start=${r.body.invite.code}`);
    const id = r.body.partner_id;
    expect((await t.admin('GET', `/partners/${id}`)).body).toMatchObject({ name: 'Delta Market', status: 'inactive', balances: { USD: '0.00', TON: '0.000' } });
    const actor = `telegram:${OPERATOR}`;
    expect(audits(t, 'partner.create').at(-1)).toMatchObject({ actor, target: String(id) });
    expect(audits(t, 'invite.create').at(-1)).toMatchObject({ actor, target: String(id), data: JSON.stringify({ role: 'owner', code_prefix: r.body.invite.code.slice(0, 4) }) });
    // the invite links its owner in the bot
    expect(redeemInvite(t.deps, r.body.invite.code, 888_001, 888_001, 'en')).toMatchObject({ partnerId: id, role: 'owner' });

    const inv = await op.call('POST', `/operator/partners/${id}/invites`, { role: 'staff' });
    expect([inv.status, Object.keys(inv.body).sort()]).toEqual([201, ['code', 'link']]);
    expect(audits(t, 'invite.create').at(-1)).toMatchObject({ actor, target: String(id), data: JSON.stringify({ role: 'staff', code_prefix: inv.body.code.slice(0, 4) }) });

    const before = auditCount(t);
    for (const [u, b, status, code] of [
      ['/operator/partners', { name: '' }, 400, 'validation_error'],
      ['/operator/partners', { name: 42 }, 400, 'validation_error'],
      ['/operator/partners', '[1]', 400, 'validation_error'],
      [`/operator/partners/${id}/invites`, { role: 'boss' }, 400, 'validation_error'],
      ['/operator/partners/999999/invites', { role: 'staff' }, 404, 'not_found'],
      ['/operator/partners/abc/invites', { role: 'staff' }, 404, 'not_found'],
    ] as const) {
      const x = await op.call('POST', u, b);
      expect([u, x.status, codeOf(x)]).toEqual([u, status, code]);
    }
    expect(auditCount(t)).toBe(before);
  });

  it("a partner's page: its view, orders and ledger", async () => {
    const { p, op } = await world();
    await p.order('stars', { quantity: 100, recipient: '@page_fan' });
    const v = await op.call('GET', `/operator/partners/${p.id}`);
    expect(v.body).toMatchObject({ partner_id: p.id, name: 'Test partner', status: 'active', balances: { USD: '998.42', TON: '1000.000' } });
    const orders = await op.call('GET', `/operator/partners/${p.id}/orders`);
    expect(orders.body.items.map((o: { type: string; partner_price: string }) => [o.type, o.partner_price])).toEqual([['stars', '1.58']]);
    const ledger = await op.call('GET', `/operator/partners/${p.id}/ledger?currency=USD`);
    expect(ledger.body.items.map((e: { kind: string; amount: string }) => [e.kind, e.amount])).toEqual([['topup', '1000.00'], ['order_debit', '-1.58']]);
    expect((await op.call('GET', '/operator/partners/424242/orders')).status).toBe(404);
  });

  it("a partner's exports: a short-lived link to the CSV, fetched without a header; bad filters refused first; audited", async () => {
    const { t, p, op } = await world();
    await p.order('stars', { quantity: 100, recipient: '@export_fan' });
    await p.order('premium', { months: 3, recipient: '@export_prem' });
    const r = await op.call('POST', `/operator/partners/${p.id}/exports`, { what: 'orders', filters: { type: 'stars' } });
    expect(r.status).toBe(201);
    const day = new Date(t.deps.clock.now()).toISOString().slice(0, 10);
    expect(r.body).toEqual({
      url: expect.stringMatching(new RegExp(`^${t.deps.config.publicBaseUrl}/api/app/v1/exports/[A-Za-z0-9_-]{32}$`)),
      filename: `orders-${p.id}-${day}.csv`,
      expires_at: offsetIso(t.deps.clock.now() + 10 * 60_000),
    });
    const path = new URL(r.body.url).pathname;
    // the link is the credential: no header, no cookie; the same rows as the operator API's export
    const csv = await t.app.inject({ method: 'GET', url: path });
    expect([csv.statusCode, csv.headers['content-type'], csv.headers['content-disposition']]).toEqual([200, 'text/csv; charset=utf-8', `attachment; filename="orders-${p.id}-${day}.csv"`]);
    const viaAdmin = await t.app.inject({ method: 'GET', url: `/api/admin/v1/partners/${p.id}/orders/export.csv?type=stars`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(viaAdmin.statusCode).toBe(200);
    expect(csv.body).toBe(viaAdmin.body);
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(csv.body).toContain("'@export_fan");
    // fetched again while it lasts (a broken download is retried)
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);

    const ledger = await op.call('POST', `/operator/partners/${p.id}/exports`, { what: 'ledger', filters: { currency: 'USD' } });
    const rows = (await t.app.inject({ method: 'GET', url: new URL(ledger.body.url).pathname })).body.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe('entry_id,created_at,currency,kind,amount,balance_after,order_id,topup_id,note');
    expect(rows.slice(1).map((l: string) => l.split(',').slice(2, 5))).toEqual([
      ['USD', 'order_debit', '-12.59'],
      ['USD', 'order_debit', '-1.58'],
      ['USD', 'topup', '1000.00'],
    ]);
    expect(audits(t, 'export.link').map((a) => [a.actor, a.target, JSON.parse(a.data)])).toEqual([
      [`telegram:${OPERATOR}`, String(p.id), { what: 'orders', filters: { type: 'stars' } }],
      [`telegram:${OPERATOR}`, String(p.id), { what: 'ledger', filters: { currency: 'USD' } }],
    ]);

    const before = auditCount(t);
    for (const [u, b, status, code] of [
      [`/operator/partners/${p.id}/exports`, { what: 'orders', filters: { type: 'gold' } }, 400, 'bad_type'],
      [`/operator/partners/${p.id}/exports`, { what: 'orders', filters: { limit: '5' } }, 400, 'bad_param'],
      [`/operator/partners/${p.id}/exports`, { what: 'ledger', filters: { currency: 'EUR' } }, 400, 'bad_param'],
      [`/operator/partners/${p.id}/exports`, { what: 'stats' }, 400, 'validation_error'],
      [`/operator/partners/${p.id}/exports`, { what: 'orders', filters: ['x'] }, 400, 'validation_error'],
      [`/operator/partners/${p.id}/exports`, { what: 'orders', extra: 1 }, 400, 'validation_error'],
      ['/operator/partners/424242/exports', { what: 'orders' }, 404, 'not_found'],
    ] as const) {
      const x = await op.call('POST', u, b);
      expect([JSON.stringify(b), x.status, codeOf(x)]).toEqual([JSON.stringify(b), status, code]);
    }
    expect(auditCount(t)).toBe(before);

    // a made-up token, and the link once its ten minutes are over: 404
    const guess = await t.app.inject({ method: 'GET', url: '/api/app/v1/exports/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    const gone = [404, { code: 'not_found', detail: 'The export link is unknown or has expired: ask for a new one.' }];
    expect([guess.statusCode, guess.json()]).toEqual(gone);
    await t.advance(601);
    const late = await t.app.inject({ method: 'GET', url: path });
    expect([late.statusCode, late.json()]).toEqual(gone);
  });

  it('reviews: the list as the operator API gives it; refund and deliver, audited; a second resolve is 409', async () => {
    const { t, p, op } = await world();
    const gifts = (await p.call('GET', '/nft/gifts?collection=LootBag&limit=3')).body.items;
    const ids: string[] = [];
    for (const g of gifts.slice(0, 2)) {
      expect((await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { outcome: 'stuck_transfer' })).status).toBe(200);
      const o = await p.order('nft', { gift: g.gift, recipient: '@review_fan', max_price: '1000' });
      expect(o.status).toBe(200);
      ids.push(o.body.order_id);
    }
    await t.advance(120);
    const list = await op.call('GET', '/operator/reviews');
    expect(list.status).toBe(200);
    // the operator API's items, each with the supplier's evidence
    expect(list.body.items.map(({ evidence: _, ...rest }: Record<string, unknown>) => rest)).toEqual((await t.admin('GET', '/reviews')).body.items);
    expect(list.body.items.map((x: { order_id: string }) => x.order_id).sort()).toEqual([...ids].sort());

    const refunded = await op.call('POST', `/operator/orders/${ids[0]}/resolve`, { outcome: 'refunded' });
    expect([refunded.status, refunded.body.status, refunded.body.refunded]).toEqual([200, 'failed', true]);
    const hash = 'a'.repeat(64);
    const delivered = await op.call('POST', `/operator/orders/${ids[1]}/resolve`, { outcome: 'delivered', transfer_hash: hash });
    expect([delivered.status, delivered.body.status]).toEqual([200, 'completed']);
    expect(delivered.body.delivery.transfer_hash).toMatch(/^[A-Za-z0-9+/_=-]{16,128}$/);
    const again = await op.call('POST', `/operator/orders/${ids[0]}/resolve`, { outcome: 'delivered' });
    expect([again.status, codeOf(again)]).toEqual([409, 'not_in_review']);
    expect(audits(t, 'order.resolve').map((a) => [a.actor, a.target])).toEqual([
      [`telegram:${OPERATOR}`, ids[0]],
      [`telegram:${OPERATOR}`, ids[1]],
    ]);
    expect((await op.call('GET', '/operator/reviews')).body.items).toEqual([]);
  });

  it("reviews show the supplier's evidence: the purchase record and its answer, the market's transfer record", async () => {
    const { t, p, op } = await world();
    const gifts = (await p.call('GET', '/nft/gifts?collection=LootBag&limit=3')).body.items;
    const order = async (gift: string, recipient: string) => {
      const o = await p.order('nft', { gift, recipient, max_price: '1000' });
      expect(o.status).toBe(200);
      return o.body;
    };
    // never sent; sent but never confirmed (the market holds its hash); paid and never confirmed nor denied
    await t.admin('PUT', `/sandbox/gifts/${gifts[0].gift}`, { outcome: 'stuck_transfer' });
    const never = await order(gifts[0].gift, '@evidence_fan');
    const sent = await order(gifts[1].gift, '@stuck_evidence');
    await t.admin('PUT', `/sandbox/gifts/${gifts[2].gift}`, { outcome: 'purchase_unconfirmed' });
    const unknown = await order(gifts[2].gift, '@evidence_fan');
    await t.advance(120);
    // an unknown payment waits half an hour for the market before it goes to review
    await t.advance(1800);
    await t.advance(60);
    const list = await op.call('GET', '/operator/reviews');
    expect(list.status).toBe(200);
    const byId = new Map(list.body.items.map((x: { order_id: string; review: { stage: string }; evidence: unknown }) => [x.order_id, x]));
    const nano = (ton: string) => `${ton}000000`;
    const purchase = (o: { order_id: string; gift: { price_ton: string } }, state: string, receipt: unknown, answer: unknown) => ({
      state,
      cap_ton: nano(o.gift.price_ton),
      form: { ref: `sandbox-form-${o.order_id.toLowerCase()}`, currency: 'TON', amount: nano(o.gift.price_ton).replace('.', '').replace(/^0+/, ''), amount_ton: nano(o.gift.price_ton) },
      receipt,
      supplier_answer: answer,
      attempts: 1,
      paying_since: expect.stringMatching(/\+00:00$/),
      updated_at: expect.stringMatching(/\+00:00$/),
    });
    const transferHash = createHash('sha256').update(`transfer:${sent.order_id}`).digest('hex');
    expect(byId.get(never.order_id)).toMatchObject({
      review: { stage: 'transfer' },
      evidence: { gift_purchase: purchase(never, 'paid', expect.stringMatching(/^sandbox-payment-[0-9a-f]{16}$/), null), fragment_payment: null, cost_ton: null, transfer: { status: 'none' } },
    });
    expect(byId.get(sent.order_id)).toMatchObject({
      review: { stage: 'transfer' },
      evidence: { gift_purchase: purchase(sent, 'paid', expect.stringMatching(/^sandbox-payment-/), null), fragment_payment: null, cost_ton: null, transfer: { status: 'sent', transfer_hash: transferHash } },
    });
    expect(byId.get(unknown.order_id)).toMatchObject({
      review: { stage: 'purchase' },
      evidence: { gift_purchase: purchase(unknown, 'review', null, 'the market neither confirms nor denies the payment'), fragment_payment: null, cost_ton: null, transfer: { status: 'none' } },
    });
    // the operator delivers the sent one from the market's own record: no hash typed
    const done = await op.call('POST', `/operator/orders/${sent.order_id}/resolve`, { outcome: 'delivered' });
    expect([done.status, done.body.status, done.body.delivery.transfer_hash]).toEqual([200, 'completed', transferHash]);

    // a market that does not answer: the list still shows, the transfer record unavailable
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { nft: true } });
    const stalled = await op.call('GET', '/operator/reviews');
    expect(stalled.status).toBe(200);
    expect(stalled.body.items.map((x: { evidence: { transfer: unknown } }) => x.evidence.transfer)).toEqual([{ status: 'unavailable' }, { status: 'unavailable' }]);
  });

  it('deposits: unmatched listed; credited to a partner or closed with a note, audited; a resolved one is 409', async () => {
    const { t, p, op } = await world();
    const req = await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '20.00' });
    const to = req.body.addresses.find((a: { network: string }) => a.network === 'trc20').address;
    for (const [amount, tx] of [['19.99', 'console-dep-1'], ['7.00', 'console-dep-2']]) await t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount, to, tx_hash: tx });
    const list = await op.call('GET', '/operator/deposits?status=unmatched');
    expect(list.status).toBe(200);
    expect(list.body).toEqual((await t.admin('GET', '/deposits?status=unmatched')).body);
    const [a, b] = [...list.body.items].sort((x: { amount: string }, y: { amount: string }) => Number(y.amount) - Number(x.amount));
    const credited = await op.call('POST', `/operator/deposits/${a.deposit_id}/resolve`, { action: 'credit', partner_id: p.id });
    expect([credited.status, credited.body.status, credited.body.partner_id]).toEqual([200, 'credited', p.id]);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe('1019.99');
    const closed = await op.call('POST', `/operator/deposits/${b.deposit_id}/resolve`, { action: 'close', note: 'sender refunded' });
    expect([closed.status, closed.body.status]).toEqual([200, 'closed']);
    const again = await op.call('POST', `/operator/deposits/${b.deposit_id}/resolve`, { action: 'close', note: 'x' });
    expect([again.status, codeOf(again)]).toEqual([409, 'deposit_not_unmatched']);
    const bad = await op.call('GET', '/operator/deposits?status=lost');
    expect([bad.status, codeOf(bad)]).toEqual([400, 'validation_error']);
    expect([...audits(t, 'deposit.credit'), ...audits(t, 'deposit.close')].map((x) => [x.actor, x.target])).toEqual([
      [`telegram:${OPERATOR}`, a.deposit_id],
      [`telegram:${OPERATOR}`, b.deposit_id],
    ]);
  });

  it('products: each switch with costs and prices; switching Stars off refuses Stars orders with product_disabled, audited', async () => {
    const { t, p, op } = await world();
    const r = await op.call('GET', '/operator/products');
    expect(r.body).toEqual({
      items: [
        { product: 'stars', enabled: true, costs: { per_1000: '15.00' }, prices: { per_1000: '15.75' } },
        { product: 'premium', enabled: true, costs: { '3': '11.99', '6': '15.99', '12': '28.99' }, prices: { '3': '12.59', '6': '16.79', '12': '30.44' } },
        { product: 'nft', enabled: true, costs: { fees_per_gift: expect.stringMatching(/^\d+\.\d{3}$/) }, prices: { margin: '5.00 %' } },
      ],
    });
    const off = await op.call('PUT', '/operator/products/stars', { enabled: false });
    expect([off.status, off.body.product, off.body.enabled]).toEqual([200, 'stars', false]);
    const o = await p.order('stars', { quantity: 100, recipient: '@off_fan' });
    expect([o.status, codeOf(o), o.body.reason]).toEqual([503, 'product_unavailable', 'product_disabled']);
    expect(audits(t, 'settings.update').map((a) => [a.actor, JSON.parse(a.data)])).toEqual([[`telegram:${OPERATOR}`, { products: { stars: { enabled: false } } }]]);
    expect((await op.call('PUT', '/operator/products/stars', { enabled: true })).body.enabled).toBe(true);
    expect((await p.order('stars', { quantity: 100, recipient: '@on_fan' })).status).toBe(200);
    for (const [u, b, status, code] of [
      ['/operator/products/gold', { enabled: true }, 404, 'not_found'],
      ['/operator/products/nft', { enabled: 'yes' }, 400, 'validation_error'],
      ['/operator/products/nft', { enabled: true, extra: 1 }, 400, 'validation_error'],
    ] as const) {
      const x = await op.call('PUT', u, b);
      expect([u, x.status, codeOf(x)]).toEqual([u, status, code]);
    }
  });
});
