import { describe, expect, it } from 'vitest';
import { codeOf, perTest } from '../helpers.js';

/**
 * The catalog says what it is filtered by and what can be ordered now: gift list items carry their model,
 * backdrop and symbol (no quote per gift needed), and GET /products shows a product unavailable while
 * it is disabled or its supplier is down, with the reason an order would get.
 */
const { service } = perTest();

describe('GET /nft/gifts', () => {
  it('items carry attributes {model, backdrop, symbol}, the same as the quote, and a filter matches them', async () => {
    const t = await service();
    const p = await t.newPartner();
    const page = await p.call('GET', '/nft/gifts?collection=HomemadeCake&limit=5');
    expect(page.status, page.raw).toBe(200);
    expect(page.body.items).toHaveLength(5);
    for (const item of page.body.items) {
      expect(Object.keys(item.attributes).sort()).toEqual(['backdrop', 'model', 'symbol']);
      const q = await p.call('GET', `/nft/gifts/${item.gift}`);
      expect(item.attributes).toEqual(q.body.attributes);
    }
    expect(page.body.items[0]).toMatchObject({ gift: 'HomemadeCake-6344', attributes: { model: 'Neon', backdrop: 'Ivory White', symbol: 'Heart' } });
    const neon = await p.call('GET', '/nft/gifts?collection=HomemadeCake&model=Neon&limit=100');
    expect(neon.body.items.length).toBeGreaterThan(3);
    for (const item of neon.body.items) expect(item.attributes.model).toBe('Neon');
  });
});

describe('GET /products', () => {
  it('shows a product unavailable while its supplier is down, with the reason its orders get, and available again after', async () => {
    const t = await service();
    const p = await t.newPartner();
    const all = await p.call('GET', '/products');
    expect(all.body.stars).toMatchObject({ available: true });
    expect(all.body.stars.reason).toBeUndefined();
    for (const m of ['3', '6', '12']) expect(all.body.premium[m]).toMatchObject({ available: true });
    expect(Object.keys(all.body.premium).sort()).toEqual(['12', '3', '6']); // the contract's keys only
    expect(all.body.nft).toMatchObject({ available: true });

    for (const product of ['stars', 'premium', 'nft'] as const) {
      await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { [product]: true } });
      const r = await p.call('GET', '/products');
      expect(r.status).toBe(200);
      const shown = product === 'premium' ? [r.body.premium['3'], r.body.premium['6'], r.body.premium['12']] : [r.body[product]];
      for (const s of shown) expect(s, product).toMatchObject({ available: false, reason: 'upstream_unavailable' });
      for (const other of (['stars', 'nft'] as const).filter((x) => x !== product)) expect(r.body[other].available, `${other} while ${product} is down`).toBe(true);
      const params = product === 'stars' ? { quantity: 100, recipient: '@shop_user' } : product === 'premium' ? { months: 3, recipient: '@shop_user' } : { gift: 'HomemadeCake-6344', recipient: '@shop_user', max_price: '5.000' };
      const o = await p.order(product, params);
      expect(o.status, o.raw).toBe(503);
      expect(o.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
      await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { [product]: false } });
      expect((await p.call('GET', '/products')).body[product === 'premium' ? 'stars' : product].available).toBe(true);
    }

    expect((await t.admin('PUT', '/settings', { products: { stars: { enabled: false } } })).status).toBe(200);
    const off = await p.call('GET', '/products');
    expect(off.body.stars).toMatchObject({ available: false, reason: 'product_disabled' });
    expect(codeOf(await p.order('stars', { quantity: 100, recipient: '@shop_user' }))).toBe('product_unavailable');
    expect((await p.call('GET', '/products')).body.premium['3']).toMatchObject({ available: true });
  });
});
