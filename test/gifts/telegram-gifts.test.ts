import { afterEach, describe, expect, it } from 'vitest';
import { getGiftPurchase } from '../../src/store/gift-purchases-repo.js';
import { startService, stopService, type TestPartner, type TestService } from '../helpers.js';
import { offsetIso } from '../../src/domain/time-format.js';
import { asUser, BOT_TOKEN } from '../app-api/app-helpers.js';
import { FakeGiftMarket } from './fake-gateway.js';

/**
 * GIFTS_UPSTREAM=telegram through the real worker and database, against a stateful fake of the marketplace
 * behind the adapter's narrow interface (test/gifts/fake-gateway.ts).
 */
const ENV = {
  GIFTS_UPSTREAM: 'telegram',
  TELEGRAM_API_ID: '123456',
  TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
  GIFTS_SESSION: '1BQANOTAREALSESSION',
  GIFTS_BALANCE_MIN_TON: '20',
  NFT_CATALOG_RATE_LIMIT: '100000',
};
const running: TestService[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await stopService(t);
});

async function world(setup: (m: FakeGiftMarket) => void = () => {}, env: Record<string, string> = {}, dir?: string) {
  let now = () => 0;
  const market = new FakeGiftMarket(() => now());
  market.addCollection('PlushPepe', 'Plush Pepe', 30, 10);
  market.addCollection('DurovsCap', "Durov's Cap", 5, 100);
  for (const u of ['alice_fan', 'bob_fan', 'carol_fan', 'nogift_nina']) market.user_(u, !u.startsWith('nogift'));
  setup(market);
  const t = await startService({ ...ENV, ...env }, { giftGateway: market, ...(dir ? { dir } : {}) });
  now = () => t.deps.clock.now();
  running.push(t);
  const alerts: any[] = [];
  t.deps.bus.on('alert', (a) => alerts.push(a));
  return { t, market, alerts };
}

const order = async (p: TestPartner, id: string) => (await p.call('GET', `/orders/${id}`)).body;
async function settle(t: TestService, p: TestPartner, id: string, step = 5, max = 40) {
  for (let i = 0; i < max; i++) {
    const o = await order(p, id);
    if (o.status !== 'processing') return o;
    await t.advance(step);
  }
  return order(p, id);
}

describe('Telegram gift marketplace: the catalogue', () => {
  it('lists the offered collections and their TON listings in the contract shape; Stars-only listings are left out', async () => {
    const { t } = await world((m) => (m.items.get('PlushPepe-105')!.tonNano = null));
    const p = await t.newPartner();
    const cols = await p.call('GET', '/nft/collections');
    expect(cols.status).toBe(200);
    expect(cols.body.items).toEqual([
      { collection: 'PlushPepe', name: 'Plush Pepe', count: 29, floor_price_ton: '10.000', floor_partner_price: expect.stringMatching(/^\d+\.\d{3}$/), currency: 'TON' },
      { collection: 'DurovsCap', name: "Durov's Cap", count: 5, floor_price_ton: '100.000', floor_partner_price: expect.stringMatching(/^\d+\.\d{3}$/), currency: 'TON' },
    ]);
    const page = await p.call('GET', '/nft/gifts?collection=PlushPepe&limit=10');
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(10);
    expect(page.body.items.map((g: any) => g.gift)).not.toContain('PlushPepe-105');
    expect(page.body.items[0]).toMatchObject({ gift: 'PlushPepe-101', name: 'Plush Pepe', num: 101, collection: 'PlushPepe', price_ton: '10.000', currency: 'TON', image: 'https://nft.fragment.com/gift/plushpepe-101.webp' });
    const q = await p.call('GET', '/nft/gifts/PlushPepe-102');
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ gift: 'PlushPepe-102', price_ton: '11.000', available: true });
    expect((await p.call('GET', '/products')).body.nft.available).toBe(true);
  });

  it('GIFTS_COLLECTIONS limits what is offered', async () => {
    const { t } = await world(undefined, { GIFTS_COLLECTIONS: 'DurovsCap' });
    const p = await t.newPartner();
    expect((await p.call('GET', '/nft/collections')).body.items.map((c: any) => c.collection)).toEqual(['DurovsCap']);
    expect((await p.call('GET', '/nft/gifts/PlushPepe-102')).status).toBe(404);
  });
});

describe('Telegram gift marketplace: buying', () => {
  it('happy path: the form is checked and paid once, the gift goes to the recipient, the delivery block says what identifies the purchase', async () => {
    const { t, market } = await world();
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-101', recipient: 'alice_fan', max_price: '50' });
    expect(r.status).toBe(200);
    const done = await settle(t, p, r.body.order_id);
    // the receipt is the gift's message that Telegram's answer to the paid call carried
    expect(done).toMatchObject({ status: 'completed', refunded: false, delivery: { nft_public_url: 'https://t.me/nft/PlushPepe-101', transfer_hash: `tg-msg:${market.messages[0].id}`, ton_explorer_url: expect.stringMatching(/^https:\/\/tonviewer\.com\/EQ/) } });
    expect(market.paid()).toBe(1);
    expect(market.sendCalls).toBe(1);
    expect(market.items.get('PlushPepe-101')!.owner).toBe(market.users.get('alice_fan')!.userId);
    expect(market.balanceNano).toBe(490_000_000_000n);
    expect(getGiftPurchase(t.db, r.body.order_id)).toMatchObject({ state: 'paid', formCurrency: 'TON', formAmount: '10000000000', capNano: '10000000000', attempts: 1 });
    expect((await t.admin('GET', '/ledger/check')).body.ok).toBe(true);
  });

  it('the price rose between order and purchase: refused, nothing paid, refunded', async () => {
    const { t, market } = await world();
    const p = await t.newPartner({ ton: '100.000' });
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { gift: 'PlushPepe-103', recipient: 'alice_fan', max_price: '50' });
    market.items.get('PlushPepe-103')!.tonNano = 12_000_000_001n;
    const done = await settle(t, p, r.body.order_id);
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'pricing', reason: 'price_above_cap' } });
    expect(market.sendCalls).toBe(0);
    expect((await p.call('GET', '/me')).body.nft_balance).toBe(before);
  });

  it('a form only in Stars is never paid: price_above_cap, refunded', async () => {
    const { t, market } = await world((m) => (m.formCurrency = 'XTR'));
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-104', recipient: 'alice_fan', max_price: '50' });
    const done = await settle(t, p, r.body.order_id);
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'pricing', reason: 'price_above_cap' } });
    expect(market.sendCalls).toBe(0);
  });

  it('a form that is not a star-gift form, or has more than one price, is refused', async () => {
    const { t, market } = await world((m) => (m.plainForm = true));
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-106', recipient: 'alice_fan', max_price: '50' });
    expect(await settle(t, p, r.body.order_id)).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'pricing', reason: 'invalid_upstream_price' } });
    expect(market.sendCalls).toBe(0);
  });

  it('the recipient refuses gifts: invalid_recipient, refunded, nothing paid', async () => {
    const { t, market } = await world();
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-107', recipient: 'nogift_nina', max_price: '50' });
    expect(r.status).toBe(200);
    expect(await settle(t, p, r.body.order_id)).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'create', reason: 'invalid_recipient' } });
    expect(market.sendCalls).toBe(0);
  });

  it('FLOOD_WAIT on the paid call: nothing paid, no call before the wait is over, then paid once', async () => {
    const { t, market } = await world((m) => m.sendScript.push({ error: 'FLOOD_WAIT', seconds: 300 }));
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-108', recipient: 'alice_fan', max_price: '50' });
    for (let i = 0; i < 12 && market.sendCalls === 0; i++) await t.advance(5);
    expect(market.sendCalls).toBe(1);
    await t.advance(200);
    expect(market.sendCalls).toBe(1);
    expect((await order(p, r.body.order_id)).status).toBe('processing');
    // new gift orders meanwhile are told to wait
    const refused = await p.order('nft', { gift: 'PlushPepe-109', recipient: 'alice_fan', max_price: '50' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable' });
    await t.advance(120);
    expect(await settle(t, p, r.body.order_id)).toMatchObject({ status: 'completed' });
    expect(market.paid()).toBe(1);
    expect(market.sendCalls).toBe(2);
  });

  it('FORM_EXPIRED: the form is read again and paid once', async () => {
    const { t, market } = await world((m) => m.sendScript.push({ error: 'FORM_EXPIRED' }));
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-110', recipient: 'alice_fan', max_price: '50' });
    expect(await settle(t, p, r.body.order_id)).toMatchObject({ status: 'completed' });
    expect(market.paid()).toBe(1);
    expect(market.forms.size).toBeGreaterThanOrEqual(3); // pricing, the expired one, the fresh one
  });

  it('the account cannot cover the order: insufficient_funds at stage balance, refunded, operators alerted', async () => {
    const { t, market, alerts } = await world((m) => (m.balanceNano = 5_000_000_000n));
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-111', recipient: 'alice_fan', max_price: '50' });
    expect(await settle(t, p, r.body.order_id)).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'balance', reason: 'insufficient_funds' } });
    expect(market.sendCalls).toBe(0);
    expect(alerts).toContainEqual(expect.objectContaining({ kind: 'order_failure', reason: 'insufficient_funds' }));
    expect(alerts).toContainEqual(expect.objectContaining({ kind: 'supplier', supplier: 'telegram_gifts', problem: 'wallet_below_min', balance_ton: '5.000000000', need_ton: '20.000000000' }));
  });

  it('an answer that never comes, no payment either: proven unpaid only after the quiet time, then retried once with a fresh form under the same cap', async () => {
    const { t, market } = await world((m) => m.sendScript.push({ loseOnly: true }));
    const p = await t.newPartner({ ton: '100.000' });
    const r = await p.order('nft', { gift: 'PlushPepe-112', recipient: 'alice_fan', max_price: '50' });
    const id = r.body.order_id;
    for (let i = 0; i < 12 && market.sendCalls === 0; i++) await t.advance(5);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'paying', attempts: 1, unanswered: 0 });
    const firstForm = getGiftPurchase(t.db, id)!.formRef;
    // within the quiet time after the call nothing proves it unpaid: no second call
    await t.advance(60);
    expect(market.sendCalls).toBe(1);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'paying', detail: expect.stringContaining('not paid so far') });
    expect(await settle(t, p, id, 10, 30)).toMatchObject({ status: 'completed', refunded: false, delivery: { transfer_hash: expect.stringMatching(/^tg-msg:\d+$/) } });
    expect(market.sendCalls).toBe(2);
    expect(market.paid()).toBe(1);
    const rec = getGiftPurchase(t.db, id)!;
    expect(rec).toMatchObject({ state: 'paid', attempts: 2, unanswered: 1, capNano: '21000000000', formAmount: '21000000000' });
    expect(rec.formRef).not.toBe(firstForm);
    expect(market.balanceNano).toBe(479_000_000_000n);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it("the answer lost after the payment went through: nothing identifies this call's payment, so manual review at `purchase` after the bound with the account's payment as evidence; no refund, paid once", async () => {
    const { t, market } = await world((m) => m.sendScript.push({ payThenLose: true }));
    const p = await t.newPartner({ ton: '100.000' });
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { gift: 'PlushPepe-113', recipient: 'alice_fan', max_price: '50' });
    const id = r.body.order_id;
    for (let i = 0; i < 4; i++) await t.advance(10 * 60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, failure: null, review: { stage: 'purchase' } });
    const rec = getGiftPurchase(t.db, id)!;
    expect(rec).toMatchObject({ state: 'review', receipt: null, attempts: 1 });
    expect(rec.detail).toContain(`the account's payments of this gift, none identifiable as this order's: tg-payment:${market.purchases[0].id} (22.000000000 TON`);
    expect(rec.detail).toContain('the recipient owns the gift now');
    expect((await p.call('GET', '/me')).body.nft_balance).not.toBe(before);
    expect(market.sendCalls).toBe(1);
    expect(market.paid()).toBe(1);
  });
});

describe('Telegram gift marketplace: reconciling a paid call without an answer', () => {
  const lost = async (gift: string, scripts: { loseOnly: true }[] = [{ loseOnly: true }]) => {
    const w = await world((m) => m.sendScript.push(...scripts));
    const p = await w.t.newPartner({ ton: '100.000' });
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { gift, recipient: 'alice_fan', max_price: '50' });
    for (let i = 0; i < 12 && w.market.sendCalls === 0; i++) await w.t.advance(5);
    expect(w.market.sendCalls).toBe(1);
    return { ...w, p, id: r.body.order_id as string, before };
  };

  it('proven unpaid, but the price rose meanwhile: the retry is refused by the cap, proven unpaid again, refunded; one paid call', async () => {
    const { t, market, p, id, before } = await lost('PlushPepe-115');
    market.items.get('PlushPepe-115')!.tonNano = 24_000_000_001n; // listed at 24 TON when ordered
    const done = await settle(t, p, id, 10, 40);
    expect(done).toMatchObject({ status: 'failed', refunded: true, failure: { stage: 'pricing', reason: 'price_above_cap' } });
    expect(market.sendCalls).toBe(1);
    expect(market.paid()).toBe(0);
    expect((await p.call('GET', '/me')).body.nft_balance).toBe(before);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'unpaid', attempts: 1, unanswered: 1 });
  });

  it('not provable either way (no payment on the account, the listing sold to someone else): manual review at stage purchase after the bound, no refund, no second call', async () => {
    const { t, market, p, id, before } = await lost('PlushPepe-116');
    const l = market.items.get('PlushPepe-116')!;
    l.tonNano = null;
    l.owner = '31337';
    for (let i = 0; i < 4; i++) await t.advance(10 * 60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, failure: null, review: { stage: 'purchase' } });
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'review', attempts: 1, unanswered: 0, detail: expect.stringContaining('the listing is gone') });
    expect(market.sendCalls).toBe(1);
    expect((await p.call('GET', '/me')).body.nft_balance).not.toBe(before);
  });

  it('the recipient owning the gift is no proof that this call paid (an earlier order may have given it): manual review after the bound, no second call', async () => {
    const { t, market, p, id, before } = await lost('PlushPepe-117');
    const l = market.items.get('PlushPepe-117')!;
    l.tonNano = null;
    l.owner = market.users.get('alice_fan')!.userId;
    for (let i = 0; i < 4; i++) await t.advance(10 * 60);
    expect((await p.call('GET', '/me')).body.nft_balance).not.toBe(before);
    expect((await t.admin('GET', `/orders/${id}`)).body).toMatchObject({ status: 'processing', refunded: false, review: { stage: 'purchase' } });
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'review', detail: expect.stringContaining('no payment of this gift on the account; the recipient owns the gift now') });
    expect(market.sendCalls).toBe(1);
  });

  it("an earlier order's payment of the same gift (resold since) never completes a new order whose paid call was lost", async () => {
    // an earlier order bought the gift for bob_fan; bob_fan put it up for sale again
    const { t, market, alerts } = await world();
    const p = await t.newPartner({ ton: '100.000' });
    const first = await p.order('nft', { gift: 'PlushPepe-123', recipient: 'bob_fan', max_price: '50' });
    expect(await settle(t, p, first.body.order_id)).toMatchObject({ status: 'completed', delivery: { transfer_hash: `tg-msg:${market.messages[0].id}` } });
    const l = market.items.get('PlushPepe-123')!;
    expect(l.owner).toBe(market.users.get('bob_fan')!.userId);
    l.tonNano = 23_000_000_000n;
    await t.advance(61); // the catalogue's minute

    // the new order's paid call gets no answer and pays nothing; meanwhile the listing is sold to someone else
    market.sendScript.push({ loseOnly: true });
    const second = await p.order('nft', { gift: 'PlushPepe-123', recipient: 'alice_fan', max_price: '50' });
    expect(second.status, second.raw).toBe(200);
    const id = second.body.order_id;
    for (let i = 0; i < 12 && market.sendCalls === 1; i++) await t.advance(5);
    expect(market.sendCalls).toBe(2);
    l.tonNano = null;
    l.owner = '31337';
    for (let i = 0; i < 4; i++) await t.advance(10 * 60);
    // the account's payment of PlushPepe-123 is the first order's: this order is not completed with it
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, delivery: null, review: { stage: 'purchase' } });
    const rec = getGiftPurchase(t.db, id)!;
    expect(rec).toMatchObject({ state: 'review', receipt: null });
    expect(rec.detail).toContain(`tg-payment:${market.purchases[0].id}`);
    expect(alerts).toContainEqual({ kind: 'review', orderId: id, partnerId: p.id, stage: 'purchase' });
    expect(market.paid()).toBe(1);
    expect(market.sendCalls).toBe(2);
  });

  it("an earlier order's payment of the same gift, the listing still for sale: this call is proven unpaid and paid once, and the receipt is its own", async () => {
    const { t, market } = await world();
    const p = await t.newPartner({ ton: '100.000' });
    const first = await p.order('nft', { gift: 'PlushPepe-124', recipient: 'bob_fan', max_price: '50' });
    expect(await settle(t, p, first.body.order_id)).toMatchObject({ status: 'completed' });
    const l = market.items.get('PlushPepe-124')!;
    l.tonNano = 24_000_000_000n; // bob_fan sells it again
    await t.advance(61);
    market.sendScript.push({ loseOnly: true });
    const second = await p.order('nft', { gift: 'PlushPepe-124', recipient: 'alice_fan', max_price: '50' });
    const done = await settle(t, p, second.body.order_id, 10, 40);
    expect(market.messages.map((m) => m.to)).toEqual(['bob_fan', 'alice_fan']);
    expect(done).toMatchObject({ status: 'completed', refunded: false, delivery: { transfer_hash: `tg-msg:${market.messages[1].id}` } });
    expect(l.owner).toBe(market.users.get('alice_fan')!.userId);
    expect(market.paid()).toBe(2);
    expect(market.sendCalls).toBe(3);
  });

  it('every retry unanswered too: after two retries, manual review instead of a fourth call', async () => {
    const { t, market, p, id, before } = await lost('PlushPepe-118', [{ loseOnly: true }, { loseOnly: true }, { loseOnly: true }]);
    for (let i = 0; i < 30; i++) await t.advance(60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, review: { stage: 'purchase' } });
    expect(market.sendCalls).toBe(3);
    expect(market.paid()).toBe(0);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'review', attempts: 3, unanswered: 2, detail: expect.stringContaining('3 paid calls without an answer') });
    expect((await p.call('GET', '/me')).body.nft_balance).not.toBe(before);
  });
});

describe('Telegram gift marketplace: the market stalls at the purchase stage', () => {
  it('before anything could be paid: given up within the hour at stage pricing with gift_unavailable (never purchase), refunded, never paid later', async () => {
    // the pricing stage reads one form; the purchase stage's fresh form never comes
    const { t, market } = await world((m) => (m.formsLeft = 1));
    const p = await t.newPartner({ ton: '100.000' });
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { gift: 'PlushPepe-119', recipient: 'alice_fan', max_price: '50' });
    const id = r.body.order_id;
    for (let i = 0; i < 20 && getGiftPurchase(t.db, id) === undefined; i++) await t.advance(5);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'quoting' });
    await t.advance(30 * 60);
    expect((await order(p, id)).status).toBe('processing');
    for (let i = 0; i < 4; i++) await t.advance(10 * 60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'failed', refunded: true, review: null, failure: { stage: 'pricing', reason: 'gift_unavailable' } });
    expect((await p.call('GET', '/me')).body.nft_balance).toBe(before);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'unpaid', attempts: 0, detail: expect.stringContaining('gift_unavailable') });
    // the market answers again: nothing is bought for the failed order
    market.formsLeft = null;
    await t.advance(600);
    expect(market.sendCalls).toBe(0);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('after an unanswered paid call proven unpaid, the retry stalls: manual review at stage purchase, not a refund', async () => {
    const { t, market } = await world((m) => {
      m.sendScript.push({ loseOnly: true });
      m.formsLeft = 2; // pricing and the first purchase form
    });
    const p = await t.newPartner({ ton: '100.000' });
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { gift: 'PlushPepe-120', recipient: 'alice_fan', max_price: '50' });
    const id = r.body.order_id;
    for (let i = 0; i < 8; i++) await t.advance(10 * 60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, failure: null, review: { stage: 'purchase' } });
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'review', attempts: 1, unanswered: 1 });
    expect(market.sendCalls).toBe(1);
    expect((await p.call('GET', '/me')).body.nft_balance).not.toBe(before);
  });
});

describe('Telegram gift marketplace: a market that keeps asking to wait meets the give-up time', () => {
  const flood = (n: number) => Array.from({ length: n }, () => ({ error: 'FLOOD_WAIT', seconds: 300 }));

  it('FLOOD_WAIT on every paid call (nothing paid): at the hour failed at `pricing` with gift_unavailable, refunded, never paid later', async () => {
    const { t, market } = await world((m) => m.sendScript.push(...flood(40)));
    const p = await t.newPartner({ ton: '100.000' });
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { gift: 'PlushPepe-121', recipient: 'alice_fan', max_price: '50' });
    const id = r.body.order_id;
    for (let i = 0; i < 11; i++) await t.advance(5 * 60);
    // 55 minutes of "wait": still processing, asked again every 5 minutes, nothing paid
    expect((await order(p, id)).status).toBe('processing');
    expect(market.sendCalls).toBeGreaterThanOrEqual(10);
    await t.advance(10 * 60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'failed', refunded: true, review: null, failure: { stage: 'pricing', reason: 'gift_unavailable' } });
    expect((await p.call('GET', '/me')).body.nft_balance).toBe(before);
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'unpaid', unanswered: 0, detail: expect.stringContaining('gift_unavailable: given up after the hour before payment') });
    const calls = market.sendCalls;
    market.sendScript.length = 0;
    await t.advance(3600);
    expect(market.sendCalls).toBe(calls);
    expect(market.paid()).toBe(0);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('after an unanswered paid call proven unpaid, every retry meets FLOOD_WAIT: at the hour manual review at `purchase`, no refund, no further paid call', async () => {
    const { t, market } = await world((m) => m.sendScript.push({ loseOnly: true }, ...flood(40)));
    const p = await t.newPartner({ ton: '100.000' });
    const before = (await p.call('GET', '/me')).body.nft_balance;
    const r = await p.order('nft', { gift: 'PlushPepe-122', recipient: 'alice_fan', max_price: '50' });
    const id = r.body.order_id;
    for (let i = 0; i < 11; i++) await t.advance(5 * 60);
    expect((await order(p, id)).status).toBe('processing');
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'quoting', unanswered: 1 });
    await t.advance(10 * 60);
    const o = (await t.admin('GET', `/orders/${id}`)).body;
    expect(o).toMatchObject({ status: 'processing', refunded: false, failure: null, review: { stage: 'purchase' } });
    expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'review', unanswered: 1, detail: expect.stringContaining('given up after the hour') });
    expect((await p.call('GET', '/me')).body.nft_balance).not.toBe(before);
    const calls = market.sendCalls;
    await t.advance(3600);
    expect(market.sendCalls).toBe(calls);
    expect(market.paid()).toBe(0);
  });
});

describe("Telegram gift marketplace: the account's funds for operators", () => {
  it('the TON and Stars balances in /metrics and in the console overview (supplier_funds, coverage); the alert below GIFTS_BALANCE_MIN_TON', async () => {
    const METRICS = 'metrics_token_0123456789abcdef';
    const { t, market, alerts } = await world(
      (m) => {
        m.balanceNano = 123_456_789_123n;
        m.stars = '250';
      },
      { TELEGRAM_BOT_TOKEN: BOT_TOKEN, ADMIN_CHAT_IDS: '777001', METRICS_TOKEN: METRICS, APP_RATE_LIMIT: '100000' },
    );
    await t.newPartner({ ton: '100.000', usd: '10.00' });
    const op = asUser(t, 777_001);
    // nothing read yet: no figure is made up
    const first = await op.call('GET', '/operator/overview');
    expect(first.status).toBe(200);
    expect(first.body.supplier_funds.filter((f: any) => f.supplier === 'telegram_gifts')).toEqual([]);
    const metrics = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS}` } })).body;
    // not read yet: NaN, not a 0 that would read as an empty account
    expect(await metrics()).toMatch(/^partner_service_gifts_account_balance_ton Nan$/m);

    await t.telegramGifts!.refresh();
    const at = offsetIso(t.deps.clock.now());
    const o = (await op.call('GET', '/operator/overview')).body;
    expect(o.supplier_funds.filter((f: any) => f.supplier === 'telegram_gifts')).toEqual([
      { supplier: 'telegram_gifts', currency: 'TON', amount: '123.456', updated_at: at },
      { supplier: 'telegram_gifts', currency: 'STARS', amount: '250', updated_at: at },
    ]);
    expect(o.coverage).toContainEqual({ supplier: 'telegram_gifts', currency: 'TON', funds: '123.456', liabilities: '100.000', covered: true });
    // the simulator's gift account is not listed beside the real one (it would count twice in the TON coverage)
    expect(o.supplier_funds.filter((f: any) => f.supplier === 'sandbox_gifts')).toEqual([]);
    expect(o.coverage.filter((c: any) => c.currency === 'TON' && c.supplier !== 'telegram_gifts' && c.supplier !== 'sandbox_fragment' && c.supplier !== 'fragment')).toEqual([]);
    const page = await metrics();
    expect(page).toMatch(/^partner_service_gifts_account_balance_ton 123\.456789123$/m);
    expect(page).toMatch(/^partner_service_gifts_account_balance_stars 250$/m);
    expect(page).toMatch(/^partner_service_gifts_account_min_ton 20$/m);
    expect(page).toMatch(/^partner_service_gifts_supplier_up 1$/m);
    expect(alerts.filter((a) => a.problem === 'wallet_below_min')).toEqual([]);

    // below GIFTS_BALANCE_MIN_TON (20): one alert per episode, and the console shows the drop
    market.balanceNano = 19_999_999_999n;
    await t.advance(60);
    await t.telegramGifts!.refresh();
    await t.telegramGifts!.refresh();
    expect(alerts.filter((a) => a.problem === 'wallet_below_min')).toEqual([
      { kind: 'supplier', supplier: 'telegram_gifts', problem: 'wallet_below_min', detail: expect.stringContaining('GIFTS_BALANCE_MIN_TON'), balance_ton: '19.999999999', need_ton: '20.000000000' },
    ]);
    const low = (await op.call('GET', '/operator/overview')).body;
    expect(low.supplier_funds).toContainEqual({ supplier: 'telegram_gifts', currency: 'TON', amount: '19.999', updated_at: offsetIso(t.deps.clock.now()) });
    expect(low.coverage).toContainEqual({ supplier: 'telegram_gifts', currency: 'TON', funds: '19.999', liabilities: '100.000', covered: false });
    expect(await metrics()).toMatch(/^partner_service_gifts_account_balance_ton 19\.999999999$/m);
  });
});

describe('Telegram gift marketplace: freshness', () => {
  it('a listing sold on the market leaves the catalogue within a minute', async () => {
    const { t, market } = await world();
    const p = await t.newPartner();
    const first = await p.call('GET', '/nft/gifts?collection=DurovsCap');
    expect(first.body.items.map((g: any) => g.gift)).toContain('DurovsCap-101');
    market.items.get('DurovsCap-101')!.tonNano = null; // bought by someone else
    await t.advance(61);
    const later = await p.call('GET', '/nft/gifts?collection=DurovsCap');
    expect(later.body.items.map((g: any) => g.gift)).not.toContain('DurovsCap-101');
    expect(later.body.count).toBe(4);
  });
});
