import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLabel, orderView, refundData, webhookOrderData, type OrderRecord } from '../../src/domain/order-view.js';

/**
 * The order object of partner-api.md "Order", field for field, the webhook `data` (the same without
 * `retail`) and the `order.refunded` data (refund_amount a JSON number; refund_amount_ton for nft). Times
 * are checked under TZ=Europe/Moscow (+03:00): the service's local time is UTC whatever the host's zone,
 * so `created_at` (no offset) is the UTC wall-clock time, not Moscow's.
 */
const ORIGINAL_TZ = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Moscow';
});
afterAll(() => {
  if (ORIGINAL_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = ORIGINAL_TZ;
});

const CREATED = Date.UTC(2024, 0, 15, 9, 5, 3, 7); // 12:05:03.007 in Moscow, written as 09:05:03.007
const DONE = Date.UTC(2024, 0, 15, 9, 5, 8, 250);

const base: OrderRecord = {
  orderId: 'PA-1001',
  partnerId: 7,
  type: 'stars',
  status: 'completed',
  amount: 158,
  currency: 'USD',
  priceUsdRef: null,
  quantity: 100,
  recipient: '@star_buyer',
  account: 'star_buyer',
  refunded: false,
  failureStage: null,
  failureReason: null,
  gift: null,
  delivery: null,
  clientReference: 'ref-1',
  createdAt: CREATED,
  completedAt: DONE,
};

const GIFT = {
  gift: 'PlushPepe-1234',
  name: 'Plush Pepe',
  num: 1234,
  collection: 'plushpepe',
  image: 'https://nft.fragment.com/gift/plushpepe-1234.webp',
  price_ton: '10.000',
  attributes: { model: 'Cozy', backdrop: 'Black', symbol: 'Star' },
};
const DELIVERY = {
  nft_public_url: 'https://t.me/nft/PlushPepe-1234',
  ton_explorer_url: 'https://tonviewer.com/transaction/abc',
  transfer_hash: 'abc',
  completed_at: '2024-01-15T09:05:08.250000+00:00',
};

const stars: OrderRecord = base;
const premiumFailed: OrderRecord = {
  ...base,
  orderId: 'pa_0b6f3c1e-8a3d-4f7e-9c2a-5d1e2f3a4b5c',
  type: 'premium',
  status: 'failed',
  amount: 1679,
  quantity: 6,
  recipient: 'failpremium_bo',
  account: 'failpremium_bo',
  refunded: true,
  clientReference: null,
  completedAt: null,
};
const nftDone: OrderRecord = {
  ...base,
  orderId: 'PA-1003',
  type: 'nft',
  amount: 10558,
  currency: 'TON',
  priceUsdRef: 3712,
  quantity: 1,
  recipient: '@nora_user',
  account: 'nora_user',
  gift: GIFT,
  delivery: DELIVERY,
  clientReference: null,
};
const nftRefunded: OrderRecord = { ...nftDone, orderId: 'PA-1004', status: 'failed', refunded: true, delivery: null, failureStage: 'purchase', failureReason: 'manual_refund', completedAt: null, priceUsdRef: null };

describe('orderView', () => {
  it.each([
    [
      'stars, completed',
      stars,
      {
        order_id: 'PA-1001',
        type: 'stars',
        status: 'completed',
        partner_price: '1.58',
        currency: 'USD',
        retail: null,
        quantity: 100,
        recipient: '@star_buyer',
        label: '100 звёзд Telegram для @star_buyer',
        created_at: '2024-01-15T09:05:03.007000',
        completed_at: '2024-01-15T09:05:08.250000+00:00',
        refunded: false,
        client_reference: 'ref-1',
      },
    ],
    [
      'premium, failed and refunded',
      premiumFailed,
      {
        order_id: 'pa_0b6f3c1e-8a3d-4f7e-9c2a-5d1e2f3a4b5c',
        type: 'premium',
        status: 'failed',
        partner_price: '16.79',
        currency: 'USD',
        retail: null,
        quantity: 6,
        recipient: 'failpremium_bo',
        label: 'Telegram Premium на 6 месяцев для @failpremium_bo',
        created_at: '2024-01-15T09:05:03.007000',
        completed_at: null,
        refunded: true,
        client_reference: null,
      },
    ],
    [
      'nft, completed',
      nftDone,
      {
        order_id: 'PA-1003',
        type: 'nft',
        status: 'completed',
        partner_price: '10.558',
        currency: 'TON',
        price_usd_ref: '37.12',
        retail: null,
        quantity: 1,
        recipient: '@nora_user',
        label: 'Подарок Plush Pepe #1234 для @nora_user',
        created_at: '2024-01-15T09:05:03.007000',
        completed_at: '2024-01-15T09:05:08.250000+00:00',
        refunded: false,
        client_reference: null,
        gift: GIFT,
        delivery: DELIVERY,
        failure: null,
      },
    ],
    [
      'nft, refunded after review',
      nftRefunded,
      {
        order_id: 'PA-1004',
        type: 'nft',
        status: 'failed',
        partner_price: '10.558',
        currency: 'TON',
        price_usd_ref: null,
        retail: null,
        quantity: 1,
        recipient: '@nora_user',
        label: 'Подарок Plush Pepe #1234 для @nora_user',
        created_at: '2024-01-15T09:05:03.007000',
        completed_at: null,
        refunded: true,
        client_reference: null,
        gift: GIFT,
        delivery: null,
        failure: { stage: 'purchase', reason: 'manual_refund' },
      },
    ],
  ])('%s', (_name, order, view) => {
    expect(orderView(order)).toStrictEqual(view);
  });

  it('webhook order data is the same object without retail', () => {
    for (const o of [stars, premiumFailed, nftDone, nftRefunded]) {
      const { retail, ...rest } = orderView(o);
      expect(retail).toBeNull();
      expect(webhookOrderData(o)).toStrictEqual(rest);
      expect(Object.keys(webhookOrderData(o))).not.toContain('retail');
    }
  });
});

describe('orderLabel', () => {
  it.each([
    [stars, '100 звёзд Telegram для @star_buyer'],
    [{ ...stars, quantity: 21 }, '21 звезда Telegram для @star_buyer'],
    [{ ...premiumFailed, quantity: 3 }, 'Telegram Premium на 3 месяца для @failpremium_bo'],
    [{ ...premiumFailed, quantity: 12 }, 'Telegram Premium на 12 месяцев для @failpremium_bo'],
    [nftDone, 'Подарок Plush Pepe #1234 для @nora_user'],
  ])('%#: %s', (order, label) => {
    expect(orderLabel(order)).toBe(label);
  });
});

describe('refundData (order.refunded)', () => {
  it.each([
    [stars, 'stars_failed', { order_id: 'PA-1001', refund_amount: 1.58, reason: 'stars_failed', currency: 'USD', client_reference: 'ref-1' }],
    [
      premiumFailed,
      'premium_canceled',
      { order_id: 'pa_0b6f3c1e-8a3d-4f7e-9c2a-5d1e2f3a4b5c', refund_amount: 16.79, reason: 'premium_canceled', currency: 'USD', client_reference: null },
    ],
    [{ ...stars, amount: 1000 }, 'stars_failed', { order_id: 'PA-1001', refund_amount: 10, reason: 'stars_failed', currency: 'USD', client_reference: 'ref-1' }],
    [nftRefunded, 'nft_manual_refund', { order_id: 'PA-1004', refund_amount: 10.558, reason: 'nft_manual_refund', currency: 'TON', refund_amount_ton: '10.558', client_reference: null }],
    [{ ...nftRefunded, amount: 12000 }, 'nft_failed', { order_id: 'PA-1004', refund_amount: 12, reason: 'nft_failed', currency: 'TON', refund_amount_ton: '12.000', client_reference: null }],
  ] as const)('%#: %s', (order, reason, data) => {
    const d = refundData(order, reason);
    expect(d).toStrictEqual(data);
    expect(typeof d.refund_amount).toBe('number'); // "JSON number, an exception to money-as-strings"
  });
});
