/**
 * When an order gives up, tested on the use cases that decide it (src/app/orders/process-goods.ts,
 * process-nft.ts) run directly on a real service's dependencies, the service clock moved by the test:
 * before the give-up time an unreachable supplier only moves the job; from it on, the order ends with its
 * ledger effect (a Premium order expires and is refunded after 365 days; an NFT order whose market stalls
 * fails and is refunded after an hour, or goes to manual review without a refund once its transfer began).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pricedGift } from '../../src/app/nft/gift-prices.js';
import { createOrder } from '../../src/app/orders/create.js';
import { ORDER_JOB } from '../../src/app/orders/jobs.js';
import { PREMIUM_RETRY_MS } from '../../src/app/orders/process-goods.js';
import { PREMIUM_GIVE_UP_MS, STARS_GIVE_UP_MS } from '../../src/app/orders/kinds/goods.js';
import { NFT_GIVE_UP_MS } from '../../src/app/orders/kinds/nft.js';
import { ORDER_KINDS } from '../../src/app/orders/kinds/index.js';
import { parseAmount } from '../../src/domain/money.js';
import { getJob } from '../../src/store/jobs-repo.js';
import { balanceOf } from '../../src/store/ledger-repo.js';
import { getOrder } from '../../src/store/orders-repo.js';
import { startService, stopService, type TestService } from '../helpers.js';
import { eventsOf, expectRefundedOnce, ledgerOf, runOrderJobOnce } from './order-jobs.js';

let t: TestService;
beforeAll(async () => {
  t = await startService();
});
afterAll(() => stopService(t));

async function faults(f: Record<string, unknown>): Promise<void> {
  const r = await t.admin('PUT', '/sandbox/faults', f);
  expect(r.status, r.raw).toBe(200);
}
afterEach(() => faults({ upstream_unavailable: { stars: false, premium: false, nft: false } }));

const DAY = 86_400_000;
const jobAt = (orderId: string) => getJob(t.db, ORDER_JOB, orderId)?.runAt ?? null;
const holdOf = (gift: string) => t.db.$client.prepare('select order_id from gift_holds where gift = ?').pluck().get(gift) as string | undefined;

/** A funded partner's Stars or Premium order: its id, price in cents, creation time, and the balance before. */
async function goodsOrder(type: 'stars' | 'premium', key: string, params: Record<string, unknown>) {
  const p = await t.newPartner({ usd: '100.00' });
  const before = balanceOf(t.db, p.id, 'USD');
  const r = await createOrder(t.deps, p.id, { type, idempotency_key: key, params });
  const orderId = r.order.order_id as string;
  return { p, before, orderId, price: parseAmount(r.order.partner_price as string, 'USD')!, createdAt: getOrder(t.db, orderId)!.createdAt };
}

describe('Premium: expires 365 days after the order', () => {
  it('the give-up time is 365 days and a deferral retries daily, never past it', () => {
    expect(PREMIUM_GIVE_UP_MS).toBe(365 * DAY);
    expect(PREMIUM_RETRY_MS).toBe(DAY);
  });

  it('deferred daily; with the supplier down a millisecond before the give-up time only the job moves; at it the order expires, refunded', async () => {
    const { p, before, orderId, price, createdAt } = await goodsOrder('premium', 'giveup-premium', { months: 3, recipient: '@premium_giveup' });

    // the account already has Premium: deferred, retried a day later
    await runOrderJobOnce(t, orderId);
    const deferred = getOrder(t.db, orderId)!;
    expect([deferred.status, deferred.stage, deferred.refunded]).toEqual(['processing', 'deferred', false]);
    expect(jobAt(orderId)).toBe(t.deps.clock.now() + DAY);

    await faults({ upstream_unavailable: { premium: true } });
    const lastMoment = createdAt + PREMIUM_GIVE_UP_MS - 1;
    await runOrderJobOnce(t, orderId, lastMoment);
    const waiting = getOrder(t.db, orderId)!;
    expect([waiting.status, waiting.stage, waiting.refunded]).toEqual(['processing', 'deferred', false]);
    // the outage asks for 30 s, but the job comes back at the give-up time itself
    expect(jobAt(orderId)).toBe(createdAt + PREMIUM_GIVE_UP_MS);
    expect(ledgerOf(t, orderId)).toEqual([['order_debit', 'USD', -price]]);
    expect(eventsOf(t, orderId)).toEqual([]);

    await runOrderJobOnce(t, orderId, createdAt + PREMIUM_GIVE_UP_MS);
    const expired = getOrder(t.db, orderId)!;
    expect([expired.status, expired.refunded]).toEqual(['failed', true]);
    expect(jobAt(orderId)).toBeNull();
    expect(expectRefundedOnce(t, orderId, 'USD', price)).toMatchObject({ refund_amount: price / 100, reason: 'premium_canceled', currency: 'USD' });
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before);
  });

  it('a deferral near the end is retried at the give-up time itself, not a day later', async () => {
    const p = await t.newPartner({ usd: '100.00' });
    const r = await createOrder(t.deps, p.id, { type: 'premium', idempotency_key: 'giveup-premium-late', params: { months: 3, recipient: '@premium_late' } });
    const orderId = r.order.order_id as string;
    const createdAt = getOrder(t.db, orderId)!.createdAt;
    await runOrderJobOnce(t, orderId); // deferred: the account has Premium for 30 days from first seen
    // the account's Premium runs past the give-up time (the simulator's control for long deferrals)
    t.sandbox.setPremiumUntil('premium_late', createdAt + 400 * DAY);
    const nearEnd = createdAt + PREMIUM_GIVE_UP_MS - 3_600_000;
    await runOrderJobOnce(t, orderId, nearEnd);
    expect(getOrder(t.db, orderId)!.status).toBe('processing');
    expect(jobAt(orderId)).toBe(createdAt + PREMIUM_GIVE_UP_MS);
  });
});

describe('Stars: give up a day after the order', () => {
  it('the give-up time is a day', () => {
    expect(STARS_GIVE_UP_MS).toBe(DAY);
    expect(ORDER_KINDS.stars.giveUpMs).toBe(DAY);
    expect(ORDER_KINDS.premium.giveUpMs).toBe(PREMIUM_GIVE_UP_MS);
    expect(ORDER_KINDS.nft.giveUpMs).toBe(NFT_GIVE_UP_MS);
  });

  it('with the supplier down, the sandbox clock advanced: waiting until the day is up (never scheduled past it), then failed, refunded once', async () => {
    const { p, before, orderId, price, createdAt } = await goodsOrder('stars', 'giveup-stars', { quantity: 100, recipient: '@stars_giveup' });
    await faults({ upstream_unavailable: { stars: true } });
    // 23 hours of an unreachable supplier: the order waits, every 30 s
    expect((await t.advance(23 * 3600)).status).toBe(200);
    const waiting = getOrder(t.db, orderId)!;
    expect([waiting.status, waiting.refunded]).toEqual(['processing', false]);
    expect(ledgerOf(t, orderId)).toEqual([['order_debit', 'USD', -price]]);
    expect(jobAt(orderId)).toBeLessThanOrEqual(createdAt + STARS_GIVE_UP_MS);
    await t.advance(3600);
    const failed = getOrder(t.db, orderId)!;
    expect([failed.status, failed.refunded, failed.reviewStage]).toEqual(['failed', true, null]);
    expect(jobAt(orderId)).toBeNull();
    expect(expectRefundedOnce(t, orderId, 'USD', price)).toMatchObject({ reason: 'stars_failed', currency: 'USD' });
    expect(balanceOf(t.db, p.id, 'USD')).toBe(before);
  });
});

describe('NFT: gives up an hour after the order when the market stalls', () => {
  async function nftOrder(key: string, recipient: string) {
    const p = await t.newPartner({ ton: '100000.000' });
    const [col] = (await t.catalog.collections()).items;
    const page = await t.catalog.list({ collection: col.collection, sort: 'price_asc', limit: 20, ignored: [] });
    const gift = page.items.find((g) => holdOf(g.gift as string) === undefined)!.gift as string;
    const priced = (await pricedGift(t.deps, gift))!;
    const at = (priced.partnerMilli / 1000).toFixed(3);
    const r = await createOrder(t.deps, p.id, { type: 'nft', idempotency_key: key, params: { gift, recipient, max_price: at } });
    const orderId = r.order.order_id as string;
    return { p, gift, orderId, price: priced.partnerMilli, createdAt: getOrder(t.db, orderId)!.createdAt };
  }

  it('the give-up time is one hour', () => {
    expect(NFT_GIVE_UP_MS).toBe(3_600_000);
  });

  it('stalled at `create`: a millisecond before the hour the job waits (never past the hour); at the hour failed at `create`, gift_unavailable, refunded in TON, the gift released', async () => {
    const { p, gift, orderId, price, createdAt } = await nftOrder('giveup-nft-create', '@nft_giveup');
    const before = balanceOf(t.db, p.id, 'TON');
    expect(holdOf(gift)).toBe(orderId);
    await faults({ upstream_unavailable: { nft: true } });

    const lastMoment = createdAt + NFT_GIVE_UP_MS - 1;
    await runOrderJobOnce(t, orderId, lastMoment);
    const waiting = getOrder(t.db, orderId)!;
    expect([waiting.status, waiting.stage, waiting.refunded, waiting.failureReason]).toEqual(['processing', 'create', false, null]);
    // the outage asks for 30 s, but the job comes back at the hour
    expect(jobAt(orderId)).toBe(createdAt + NFT_GIVE_UP_MS);
    expect(ledgerOf(t, orderId)).toEqual([['order_debit', 'TON', -price]]);
    expect(holdOf(gift)).toBe(orderId);

    await runOrderJobOnce(t, orderId);
    const failed = getOrder(t.db, orderId)!;
    expect([failed.status, failed.refunded, failed.failureStage, failed.failureReason, failed.reviewStage]).toEqual(['failed', true, 'create', 'gift_unavailable', null]);
    expect(jobAt(orderId)).toBeNull();
    expect(expectRefundedOnce(t, orderId, 'TON', price)).toMatchObject({ reason: 'nft_failed', currency: 'TON', refund_amount_ton: (price / 1000).toFixed(3) });
    expect(balanceOf(t.db, p.id, 'TON')).toBe(before + price);
    expect(holdOf(gift)).toBeUndefined();
  });

  it('stalled at `purchase` before anything was paid, past the hour: failed at `pricing` (the price could not be confirmed), refunded', async () => {
    const { orderId, price, createdAt } = await nftOrder('giveup-nft-purchase', '@nft_purchase');
    for (let i = 0; i < 30 && getOrder(t.db, orderId)!.stage !== 'purchase'; i++) await runOrderJobOnce(t, orderId);
    expect(getOrder(t.db, orderId)!.stage).toBe('purchase');
    await faults({ upstream_unavailable: { nft: true } });

    await runOrderJobOnce(t, orderId, Math.max(t.deps.clock.now(), createdAt + NFT_GIVE_UP_MS));
    const failed = getOrder(t.db, orderId)!;
    expect([failed.status, failed.refunded, failed.failureStage, failed.failureReason, failed.reviewStage]).toEqual(['failed', true, 'pricing', 'gift_unavailable', null]);
    expectRefundedOnce(t, orderId, 'TON', price);
    // the purchase record says nothing was paid, and why
    const purchase = t.db.$client.prepare('select state, attempts, detail from gift_purchases where order_id = ?').get(orderId) as { state: string; attempts: number; detail: string };
    expect([purchase.state, purchase.attempts]).toEqual(['unpaid', 0]);
    expect(purchase.detail).toMatch(/^gift_unavailable: given up after the hour before payment: /);
  });

  it('stalled at `transfer` past the hour: manual review at `transfer`, nothing refunded, nothing told', async () => {
    const { orderId, price, createdAt } = await nftOrder('giveup-nft-transfer', '@nft_transfer');
    for (let i = 0; i < 30 && getOrder(t.db, orderId)!.stage !== 'transfer'; i++) await runOrderJobOnce(t, orderId);
    expect(getOrder(t.db, orderId)!.stage).toBe('transfer');
    await faults({ upstream_unavailable: { nft: true } });

    await runOrderJobOnce(t, orderId, Math.max(t.deps.clock.now(), createdAt + NFT_GIVE_UP_MS));
    const stuck = getOrder(t.db, orderId)!;
    expect([stuck.status, stuck.reviewStage, stuck.refunded]).toEqual(['processing', 'transfer', false]);
    expect(jobAt(orderId)).toBeNull();
    expect(ledgerOf(t, orderId)).toEqual([['order_debit', 'TON', -price]]);
    expect(eventsOf(t, orderId)).toEqual([]);
  });
});
