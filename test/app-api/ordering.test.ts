import { describe, expect, it } from 'vitest';
import { codeOf } from '../helpers.js';
import { appWorld } from './app-helpers.js';

const w = appWorld();

describe('Mini App API: balances, prices, the recipient check', () => {
  it('balances and products', async () => {
    const { staff } = await w.start();
    expect((await staff.call('GET', '/balances')).body).toEqual({ balances: { USD: '1000.00', TON: '1000.000' } });
    const p = await staff.call('GET', '/products');
    expect(p.body.stars).toMatchObject({ price_per_1000: '15.75', min_per_order: 50, max_per_order: 50000 });
  });

  it('checks the recipient with the price and the balance after', async () => {
    const { staff } = await w.start();
    const r = await staff.call('POST', '/recipient-check', { type: 'stars', username: '@alice_w', quantity: 1000 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      recipient: { ok: true, type: 'stars', username: 'alice_w', name: expect.any(String) },
      price: '15.75',
      currency: 'USD',
      available: true,
      balance: '1000.00',
      balance_after: '984.25',
      enough: true,
    });
    const prem = await staff.call('POST', '/recipient-check', { type: 'premium', username: 'premium_bob', months: 3 });
    expect(prem.body).toMatchObject({ recipient: { already_premium: true }, price: '12.59', balance_after: '987.41' });
    const nogift = await staff.call('POST', '/recipient-check', { type: 'nft', username: 'nogift_carl' });
    expect(nogift.body).toMatchObject({ recipient: { can_receive_gifts: false }, price: null, currency: 'TON', balance: '1000.000' });
    const gift = await staff.call('POST', '/recipient-check', { type: 'nft', username: 'dave_w', gift: 'HomemadeCake-9999999' });
    expect(codeOf(gift)).toBe('bad_gift');
  });

  it('bad input: type, quantity, months, recipient', async () => {
    const { staff } = await w.start();
    const cases: [unknown, number, string][] = [
      [{ type: 'coins', username: 'alice_w' }, 400, 'bad_type'],
      [{ type: 'stars', username: 'alice_w', quantity: 10 }, 400, 'bad_quantity'],
      [{ type: 'stars', username: 'alice_w', quantity: '100' }, 400, 'bad_quantity'],
      [{ type: 'premium', username: 'alice_w', months: 5 }, 400, 'bad_months'],
      [{ type: 'stars', quantity: 100 }, 400, 'recipient_required'],
      [{ type: 'stars', username: 'ghost_x1', quantity: 100 }, 400, 'recipient_not_found'],
      [{ type: 'nft', username: 'alice_w', gift: 7 }, 400, 'bad_gift'],
    ];
    for (const [body, status, code] of cases) {
      const r = await staff.call('POST', '/recipient-check', body);
      expect([r.status, codeOf(r)]).toEqual([status, code]);
    }
    expect(codeOf(await staff.call('POST', '/recipient-check', '"x"'))).toBe('validation_error');
  });
});

describe('Mini App API: orders', () => {
  it('orders Stars through the order service: one idempotency key per confirmation makes one order', async () => {
    const { t, p, staff } = await w.start();
    const body = { type: 'stars', idempotency_key: 'confirm-0001', params: { quantity: 100, recipient: '@alice_w' } };
    const [a, b] = await Promise.all([staff.call('POST', '/orders', body), staff.call('POST', '/orders', body)]);
    const ok = [a, b].filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    const again = await staff.call('POST', '/orders', body);
    expect(again.status).toBe(200);
    expect(again.body.order_id).toBe(ok[0].body.order_id);
    expect(again.body).toMatchObject({ type: 'stars', status: 'processing', partner_price: '1.58', quantity: 100, recipient: '@alice_w' });
    expect((await staff.call('GET', '/balances')).body.balances.USD).toBe('998.42');
    // the partner sees it in the partner API too
    expect((await p.call('GET', `/orders/${again.body.order_id}`)).body.order_id).toBe(again.body.order_id);
    // the app's keys never meet the partner's own keys
    const own = await p.order('stars', { quantity: 200, recipient: '@alice_w' }, 'confirm-0001');
    expect(own.status).toBe(200);
    expect(own.body.order_id).not.toBe(again.body.order_id);
    await t.advance(5);
    expect((await staff.call('GET', `/orders/${again.body.order_id}`)).body.order.status).toBe('completed');
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
    // audited once, with the Telegram user who confirmed it; the partner's own API order is not a person's
    const audits = t.db.$client.prepare("select actor, target, data from audit_log where action = 'order.create'").all() as { actor: string; target: string; data: string }[];
    expect(audits.map((a) => [a.actor, a.target, JSON.parse(a.data)])).toEqual([
      [`telegram:${staff.id}`, again.body.order_id, { partner_id: p.id, type: 'stars', amount: '1.58', currency: 'USD' }],
    ]);
  });

  it('refuses bad orders with the order path errors and debits nothing', async () => {
    const { staff } = await w.start();
    const cases: [unknown, number, string][] = [
      [{ type: 'stars', params: { quantity: 100, recipient: 'alice_w' } }, 400, 'idempotency_required'],
      [{ type: 'stars', idempotency_key: 'short', params: { quantity: 100, recipient: 'alice_w' } }, 400, 'idempotency_required'],
      [{ type: 'stars', idempotency_key: 'has spaces in it', params: {} }, 400, 'idempotency_required'],
      [{ type: 'coins', idempotency_key: 'confirm-0002', params: {} }, 400, 'bad_type'],
      [{ type: 'stars', idempotency_key: 'confirm-0003', params: { quantity: 1, recipient: 'alice_w' } }, 400, 'bad_quantity'],
      [{ type: 'premium', idempotency_key: 'confirm-0004', params: { months: 4, recipient: 'alice_w' } }, 400, 'bad_months'],
      [{ type: 'stars', idempotency_key: 'confirm-0005', params: { quantity: 100, recipient: 'ghost_zz' } }, 400, 'recipient_not_found'],
      [{ type: 'nft', idempotency_key: 'confirm-0007', params: { gift: 'PlushPepe-1', recipient: 'alice_w' } }, 400, 'bad_max_price'],
    ];
    for (const [body, status, code] of cases) {
      const r = await staff.call('POST', '/orders', body);
      expect([r.status, codeOf(r)]).toEqual([status, code]);
    }
    expect((await staff.call('GET', '/balances')).body.balances).toEqual({ USD: '1000.00', TON: '1000.000' });
    expect((await staff.call('GET', '/orders')).body.count).toBe(0);
  });

  it('takes no webhook_url: a person of the team cannot send the partner\'s signed events elsewhere', async () => {
    const { t, owner, staff } = await w.start();
    const saved = await w.receiver();
    const elsewhere = await w.receiver();
    expect((await owner.call('PUT', '/webhook', { url: saved.url })).status).toBe(200);
    const order = { type: 'stars', idempotency_key: 'confirm-0401', params: { quantity: 100, recipient: '@alice_w' } };
    for (const who of [staff, owner]) {
      const r = await who.call('POST', '/orders', { ...order, webhook_url: elsewhere.url });
      expect([r.status, r.body]).toEqual([400, { code: 'validation_error', detail: expect.stringContaining('webhook_url'), field: 'webhook_url' }]);
    }
    const unknown = await staff.call('POST', '/orders', { ...order, callback: elsewhere.url });
    expect([unknown.status, unknown.body.field]).toEqual([400, 'callback']);
    expect((await staff.call('GET', '/orders')).body.count).toBe(0);
    expect((await staff.call('GET', '/balances')).body.balances.USD).toBe('1000.00');
    // the same order without it: its events reach the saved webhook only
    const ok = await staff.call('POST', '/orders', order);
    expect(ok.status).toBe(200);
    for (let i = 0; i < 6 && saved.requests.length === 0; i++) await t.advance(5);
    expect(saved.requests.map((q) => JSON.parse(q.raw.toString()).event)).toEqual(['order.completed']);
    expect(elsewhere.requests).toEqual([]);
  });

  it('an inactive partner cannot order from the app (partner_inactive)', async () => {
    const { t } = await w.start();
    const p2 = await t.admin('POST', '/partners', { name: 'New' });
    const inv = await t.admin('POST', `/partners/${p2.body.partner_id}/invites`, { role: 'staff' });
    const { redeemInvite } = await import('../../src/app/invites.js');
    redeemInvite(t.deps, inv.body.code, 777_001, 777_001, 'en');
    const { asUser } = await import('./app-helpers.js');
    const u = asUser(t, 777_001);
    expect((await u.call('GET', '/session')).body.partner.status).toBe('inactive');
    const r = await u.call('POST', '/orders', { type: 'stars', idempotency_key: 'confirm-0008', params: { quantity: 100, recipient: 'alice_w' } });
    expect([r.status, codeOf(r)]).toEqual([403, 'partner_inactive']);
  });

  it('lists orders with filters and shows an NFT order page with its timeline; owners see deliveries', async () => {
    const { t, p, owner, staff } = await w.start();
    await staff.call('POST', '/orders', { type: 'stars', idempotency_key: 'confirm-0101', params: { quantity: 100, recipient: 'alice_w' } });
    const q = await staff.call('GET', '/gifts?collection=HomemadeCake&limit=1');
    const gift = q.body.items[0];
    const o = await staff.call('POST', '/orders', { type: 'nft', idempotency_key: 'confirm-0102', params: { gift: gift.gift, recipient: 'alice_w', max_price: gift.partner_price } });
    expect(o.status).toBe(200);
    const list = await staff.call('GET', '/orders?type=nft');
    expect(list.body.items.map((x: any) => x.order_id)).toEqual([o.body.order_id]);
    expect((await staff.call('GET', '/orders?status=completed')).body.count).toBe(0);
    expect(codeOf(await staff.call('GET', '/orders?status=done'))).toBe('bad_status');
    expect(codeOf(await staff.call('GET', '/orders?limit=0'))).toBe('bad_limit');
    expect(codeOf(await staff.call('GET', '/orders?color=red'))).toBe('bad_param');

    const d0 = await staff.call('GET', `/orders/${o.body.order_id}`);
    expect(d0.body.timeline.filter((x: any) => x.kind === 'stage').map((x: any) => x.state)).toEqual(['current', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending']);
    for (let i = 0; i < 12; i++) await t.advance(5);
    const d = await staff.call('GET', `/orders/${o.body.order_id}`);
    expect(d.body.order.status).toBe('completed');
    expect(d.body.timeline.filter((x: any) => x.kind === 'stage').map((x: any) => [x.name, x.state])).toEqual(
      ['create', 'confirm', 'queue', 'pricing', 'balance', 'purchase', 'transfer'].map((s) => [s, 'done']),
    );
    expect(d.body.timeline.filter((x: any) => x.kind === 'event').map((x: any) => x.name)).toEqual(['order.completed']);
    expect(d.body.refund).toEqual({ refunded: false, in_review: false });
    expect(d.body.deliveries).toBeUndefined();
    const od = await owner.call('GET', `/orders/${o.body.order_id}`);
    expect(od.body.deliveries).toEqual([]);
    // another partner's order is not found
    const other = await t.newPartner();
    const theirs = await other.order('stars', { quantity: 100, recipient: 'alice_w' });
    expect((await staff.call('GET', `/orders/${theirs.body.order_id}`)).status).toBe(404);
    void p;
  });

  it('owners see the order\'s webhook deliveries from the delivery log, each attempt as a real receiver got it; staff do not', async () => {
    const { t, owner, staff } = await w.start();
    const r = await w.receiver();
    r.script.push(500);
    expect((await owner.call('PUT', '/webhook', { url: r.url })).status).toBe(200);
    const o = await staff.call('POST', '/orders', { type: 'stars', idempotency_key: 'confirm-0301', params: { quantity: 100, recipient: 'alice_w' } });
    await t.advance(5);
    expect(r.requests).toHaveLength(1);
    const first = (await owner.call('GET', `/orders/${o.body.order_id}`)).body.deliveries;
    expect(first).toEqual([
      {
        delivery_id: r.requests[0].headers['x-webhook-id'],
        event: 'order.completed',
        order_id: o.body.order_id,
        url: r.url,
        status: 'pending',
        attempts: [{ number: 1, manual: false, sent_at: expect.any(String), http_status: 500, error: 'HTTP 500', duration_ms: expect.any(Number) }],
        next_attempt_at: expect.any(String),
        rejected_reason: null,
        last_error: 'HTTP 500',
        created_at: expect.any(String),
      },
    ]);
    // the retry succeeds
    for (let i = 0; i < 12 && r.requests.length < 2; i++) await t.advance(60);
    expect(r.requests).toHaveLength(2);
    const d = await owner.call('GET', `/orders/${o.body.order_id}`);
    expect(d.body.deliveries).toHaveLength(1);
    expect(d.body.deliveries[0]).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(d.body.deliveries[0].attempts.map((a: any) => [a.number, a.http_status])).toEqual([[1, 500], [2, 200]]);
    // the same as the partner API's log of that order
    expect((await owner.call('GET', `/webhook-deliveries?order_id=${o.body.order_id}`)).body.items).toEqual(d.body.deliveries);
    expect(JSON.stringify(d.body)).not.toMatch(/whsec_/);
    expect((await staff.call('GET', `/orders/${o.body.order_id}`)).body.deliveries).toBeUndefined();
  });

  it('a failed NFT order shows the failed stage and the refund', async () => {
    const { t, staff } = await w.start();
    const gift = (await staff.call('GET', '/gifts?collection=LootBag&limit=1')).body.items[0];
    await t.admin('PUT', `/sandbox/gifts/${gift.gift}`, { outcome: 'queue_rejected' });
    const o = await staff.call('POST', '/orders', { type: 'nft', idempotency_key: 'confirm-0201', params: { gift: gift.gift, recipient: 'alice_w', max_price: gift.partner_price } });
    for (let i = 0; i < 6; i++) await t.advance(5);
    const d = await staff.call('GET', `/orders/${o.body.order_id}`);
    expect(d.body.order).toMatchObject({ status: 'failed', refunded: true });
    expect(d.body.timeline.filter((x: any) => x.kind === 'stage').map((x: any) => x.state)).toEqual(['done', 'done', 'failed', 'pending', 'pending', 'pending', 'pending']);
    expect(d.body.timeline.filter((x: any) => x.kind === 'event').map((x: any) => x.name)).toEqual(['order.refunded', 'order.failed']);
    expect(d.body.refund.refunded).toBe(true);
  });
});

describe('Mini App API: gift search over the whole market', () => {
  it('filters by collection, model, backdrop, symbol; sorts by price; searches by number; pages without repeats', async () => {
    const { staff } = await w.start();
    const all = await staff.call('GET', '/gifts?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(750);
    expect((await staff.call('GET', '/gifts?collection=PlushPepe')).body.total).toBe(150);
    const prices = all.body.items.map((g: any) => Number(g.partner_price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const first = all.body.items[0];
    expect(first).toEqual({
      gift: expect.stringMatching(/^[A-Za-z]+-\d+$/),
      name: expect.any(String),
      num: expect.any(Number),
      collection: expect.any(String),
      image: `http://127.0.0.1:8080/sandbox/gifts/${first.gift}.svg`,
      price_ton: expect.stringMatching(/^\d+\.\d{3}$/),
      partner_price: expect.stringMatching(/^\d+\.\d{3}$/),
      currency: 'TON',
      price_usd_ref: expect.stringMatching(/^\d+\.\d{2}$/),
      attributes: { model: expect.any(String), backdrop: expect.any(String), symbol: expect.any(String) },
    });

    const facets = await staff.call('GET', '/gifts/filters?collection=PlushPepe');
    expect(facets.body.collections).toHaveLength(5);
    const [model, backdrop] = [facets.body.models[0], facets.body.backdrops[0]];
    const f = await staff.call('GET', `/gifts?collection=PlushPepe&model=${encodeURIComponent(model)}&backdrop=${encodeURIComponent(backdrop)}&sort=price_desc&limit=100`);
    expect(f.body.total).toBeGreaterThan(0);
    for (const g of f.body.items) expect([g.collection, g.attributes.model, g.attributes.backdrop]).toEqual(['PlushPepe', model, backdrop]);
    const fp = f.body.items.map((g: any) => Number(g.partner_price));
    expect(fp).toEqual([...fp].sort((a, b) => b - a));
    const symbol = f.body.items[0].attributes.symbol;
    const fs = await staff.call('GET', `/gifts?collection=PlushPepe&model=${encodeURIComponent(model)}&backdrop=${encodeURIComponent(backdrop)}&symbol=${encodeURIComponent(symbol.toLowerCase())}`);
    expect(fs.body.items.every((g: any) => g.attributes.symbol === symbol)).toBe(true);

    const num = String(first.num);
    const byNum = await staff.call('GET', `/gifts?number=${num}&limit=100`);
    expect(byNum.body.items.every((g: any) => String(g.num).startsWith(num))).toBe(true);
    expect(byNum.body.items.map((g: any) => g.gift)).toContain(first.gift);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await staff.call('GET', `/gifts?collection=SignetRing&limit=40${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...r.body.items.map((g: any) => g.gift));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(150);
    expect(new Set(seen).size).toBe(150);
  });

  it('pages the whole market in either order without repeats, also across equal prices; a price change shows at once', async () => {
    const { t, staff } = await w.start();
    // two gifts of different collections at one price
    const a = (await staff.call('GET', '/gifts?collection=SignetRing&limit=1')).body.items[0];
    const b = (await staff.call('GET', '/gifts?collection=LootBag&limit=1')).body.items[0];
    expect((await t.admin('PUT', `/sandbox/gifts/${a.gift}`, { price_ton: '30.000' })).status).toBe(200);
    expect((await t.admin('PUT', `/sandbox/gifts/${b.gift}`, { price_ton: '30.000' })).status).toBe(200);
    for (const sort of ['price_asc', 'price_desc']) {
      const seen: string[] = [];
      const prices: number[] = [];
      let cursor: string | null = null;
      do {
        const r: any = await staff.call('GET', `/gifts?sort=${sort}&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...r.body.items.map((g: any) => g.gift));
        prices.push(...r.body.items.map((g: any) => Number(g.price_ton)));
        cursor = r.body.next_cursor;
      } while (cursor);
      expect(seen).toHaveLength(750);
      expect(new Set(seen).size).toBe(750);
      expect(prices).toEqual([...prices].sort((x, y) => (sort === 'price_asc' ? x - y : y - x)));
      const i = seen.indexOf(a.gift);
      const j = seen.indexOf(b.gift);
      expect(Math.abs(i - j)).toBe(1);
    }
  });

  it('a sold gift leaves the grid; bad queries are 4xx', async () => {
    const { t, staff } = await w.start();
    const g = (await staff.call('GET', '/gifts?collection=DurovsCap&limit=1')).body.items[0];
    await t.admin('PUT', `/sandbox/gifts/${g.gift}`, { available: false });
    expect((await staff.call('GET', '/gifts?collection=DurovsCap&limit=1')).body.items[0].gift).not.toBe(g.gift);
    const asc = (await staff.call('GET', '/gifts?limit=1')).body.next_cursor;
    const cases: [string, number, string][] = [
      ['/gifts?sort=cheap', 400, 'bad_sort'],
      ['/gifts?limit=0', 400, 'bad_limit'],
      ['/gifts?limit=101', 400, 'bad_limit'],
      ['/gifts?cursor=zzz', 400, 'bad_cursor'],
      [`/gifts?sort=price_desc&cursor=${asc}`, 400, 'bad_cursor'],
      ['/gifts?number=12a', 400, 'bad_param'],
      ['/gifts?colour=red', 400, 'bad_param'],
      ['/gifts?model=a&model=b', 400, 'bad_param'],
      ['/gifts?collection=Nope', 404, 'not_found'],
      ['/gifts/filters?collection=Nope', 404, 'not_found'],
      ['/gifts/Nope-1', 404, 'not_found'],
    ];
    for (const [url, status, code] of cases) {
      const r = await staff.call('GET', url);
      expect([url, r.status, codeOf(r)]).toEqual([url, status, code]);
    }
    const quote = await staff.call('GET', `/gifts/${g.gift}`);
    expect(quote.body).toMatchObject({ gift: g.gift, available: false, attributes: expect.any(Object) });
  });

  it('the sandbox serves a deterministic SVG picture per gift', async () => {
    const { t, staff } = await w.start();
    const g = (await staff.call('GET', '/gifts?limit=2')).body.items;
    const pic = (id: string) => t.app.inject({ method: 'GET', url: `/sandbox/gifts/${id}.svg` });
    const a = await pic(g[0].gift);
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(a.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(a.body).toContain(`#${g[0].num}`);
    expect(a.body).toContain(g[0].attributes.model);
    expect((await pic(g[0].gift)).body).toBe(a.body);
    expect((await pic(g[1].gift)).body).not.toBe(a.body);
    expect((await pic('Nope-1')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/gifts/..%2Fx.svg' })).statusCode).toBe(404);
  });
});
