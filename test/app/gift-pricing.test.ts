/**
 * The one NFT pricing path (src/app/nft/gift-prices.ts pricedGift), called directly: the order's debit,
 * the Mini App's recipient check and the quote give the same amount for a gift, and refuse the same ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pricedGift } from '../../src/app/nft/gift-prices.js';
import { createOrder } from '../../src/app/orders/create.js';
import { recipientCheck } from '../../src/app/orders/recipient-check.js';
import { ApiError } from '../../src/domain/errors.js';
import { startService, stopService, type TestPartner, type TestService } from '../helpers.js';

let t: TestService;
let p: TestPartner;
let gift: { gift: string; partner_price: string };
beforeAll(async () => {
  t = await startService();
  p = await t.newPartner({ ton: '5000.000' });
  gift = (await p.call('GET', '/nft/gifts?collection=SignetRing&limit=1')).body.items[0];
});
afterAll(() => stopService(t));

const codeOf = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
    return 'ok';
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
};

describe('pricedGift', () => {
  it('is the amount the catalog shows, the quote, the Mini App check and the order debit', async () => {
    const priced = (await pricedGift(t.deps, gift.gift))!;
    expect(priced.listing.gift).toBe(gift.gift);
    const price = (priced.partnerMilli / 1000).toFixed(3);
    expect(price).toBe(gift.partner_price);
    expect((await t.catalog.quotePriced(gift.gift)).partnerMilli).toBe(priced.partnerMilli);
    const check = await recipientCheck(t.deps, p.id, { type: 'nft', username: '@gift_fan', gift: gift.gift });
    expect(check).toMatchObject({ price, currency: 'TON', available: true, enough: true });
    const { order } = await createOrder(t.deps, p.id, { type: 'nft', idempotency_key: 'priced-1', params: { gift: gift.gift, recipient: '@gift_fan', max_price: price } });
    expect(order).toMatchObject({ partner_price: price, currency: 'TON', status: 'processing' });
  });

  it('is null for a gift the market does not list; the order and the check say bad_gift, the quote not_found', async () => {
    expect(await pricedGift(t.deps, 'Nope-1')).toBeNull();
    expect(await codeOf(() => recipientCheck(t.deps, p.id, { type: 'nft', username: '@gift_fan', gift: 'Nope-1' }))).toBe('bad_gift');
    expect(await codeOf(() => t.catalog.quotePriced('Nope-1'))).toBe('not_found');
    expect(await codeOf(() => createOrder(t.deps, p.id, { type: 'nft', idempotency_key: 'priced-2', params: { gift: 'Nope-1', recipient: '@gift_fan', max_price: '1' } }))).toBe('bad_gift');
  });

  it('the check refuses the ids an order refuses, before asking the market', async () => {
    for (const id of ['no-dash-number', 'x'.repeat(50), 7])
      expect(await codeOf(() => recipientCheck(t.deps, p.id, { type: 'nft', username: '@gift_fan', gift: id }))).toBe('bad_gift');
  });
});
