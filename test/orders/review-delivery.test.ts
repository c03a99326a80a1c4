import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

/**
 * An order resolved as delivered by an operator carries the delivery block of its type (partner-api.md
 * Order): an NFT order the full block, with the transfer from the gift market's record or the operator's
 * transfer_hash, and never a block without its transfer.
 */
let t: TestService;
let p: TestPartner;
beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', NFT_CATALOG_RATE_LIMIT: '100000' });
  p = await t.newPartner({ usd: '100.00', ton: '50000.000' });
});
afterAll(() => stopService(t));

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const used = new Set<string>();
async function freshGift(): Promise<string> {
  const r = await p.call('GET', '/nft/gifts?collection=LootBag&limit=100');
  const g = r.body.items.find((x: any) => !used.has(x.gift)).gift as string;
  used.add(g);
  return g;
}
const event = (orderId: string, kind: string) => {
  const row = t.db.$client.prepare('select body from events where order_id = ? and event = ?').get(orderId, kind) as { body: string } | undefined;
  return row ? JSON.parse(row.body) : undefined;
};

/** An NFT order bought and stuck at the transfer, waiting in manual review. */
async function stuckOrder(recipient: string, scripted = false): Promise<{ orderId: string; gift: string }> {
  const gift = await freshGift();
  if (scripted) expect((await t.admin('PUT', `/sandbox/gifts/${gift}`, { outcome: 'stuck_transfer' })).status).toBe(200);
  const r = await p.order('nft', { gift, recipient, max_price: '1000' });
  expect(r.status).toBe(200);
  await t.advance(120);
  expect((await t.admin('GET', `/orders/${r.body.order_id}`)).body).toMatchObject({ status: 'processing', review: { stage: 'transfer' }, delivery: null });
  return { orderId: r.body.order_id, gift };
}

/** The order has the full delivery block everywhere a partner sees it: the order, the list, order.completed. */
async function expectDelivered(orderId: string, gift: string, hash: string) {
  const delivery = {
    nft_public_url: `https://t.me/nft/${gift}`,
    ton_explorer_url: `https://tonviewer.com/transaction/${hash}`,
    transfer_hash: hash,
    completed_at: expect.stringMatching(OFFSET_TIME),
  };
  const view = (await p.call('GET', `/orders/${orderId}`)).body;
  expect(view).toMatchObject({ status: 'completed', refunded: false, failure: null, completed_at: expect.stringMatching(OFFSET_TIME) });
  expect(view.delivery).toEqual(delivery);
  expect(view.delivery.completed_at).toBe(view.completed_at);
  const listed = (await p.call('GET', '/orders?type=nft&limit=200')).body.items.find((o: any) => o.order_id === orderId);
  expect(listed.delivery).toEqual(view.delivery);
  const completed = event(orderId, 'order.completed');
  expect(completed.data.delivery).toEqual(view.delivery);
  expect(event(orderId, 'order.refunded')).toBeUndefined();
}

describe('when an operator resolves a stuck NFT order as delivered', () => {
  it('then the transfer comes from the gift market record and the delivery block is complete', async () => {
    const { orderId, gift } = await stuckOrder('stuck_record');
    const res = await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered' });
    expect(res.status).toBe(200);
    const hash = crypto.createHash('sha256').update(`transfer:${orderId}`).digest('hex');
    expect(res.body).toMatchObject({ status: 'completed', review: null, delivery: { transfer_hash: hash } });
    await expectDelivered(orderId, gift, hash);
  });

  it('then without a market record it needs transfer_hash: 409 transfer_hash_required, then delivered with the given hash', async () => {
    const { orderId, gift } = await stuckOrder('plain_norecord', true);
    const refused = await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'transfer_hash_required', detail: expect.stringContaining('transfer_hash') });
    // nothing changed: still in review, no event
    expect((await t.admin('GET', `/orders/${orderId}`)).body).toMatchObject({ status: 'processing', review: { stage: 'transfer' }, delivery: null });
    expect(event(orderId, 'order.completed')).toBeUndefined();
    for (const bad of [42, '', 'short', 'has spaces in it, sixteen+']) {
      const r = await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered', transfer_hash: bad });
      expect(r.status, String(bad)).toBe(400);
      expect(codeOf(r)).toBe('validation_error');
    }
    expect(codeOf(await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'refunded', transfer_hash: 'a'.repeat(64) }))).toBe('validation_error');
    const hash = 'b3Cq_manual-Transfer+Hash/0123456789=';
    const ok = await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered', transfer_hash: hash });
    expect(ok.status).toBe(200);
    await expectDelivered(orderId, gift, hash);
    expect(codeOf(await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered', transfer_hash: hash }))).toBe('not_in_review');
  });

  it('then a transfer_hash that differs from the market record is refused, and the same one is accepted', async () => {
    const { orderId, gift } = await stuckOrder('stuck_mismatch');
    const hash = crypto.createHash('sha256').update(`transfer:${orderId}`).digest('hex');
    const wrong = await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered', transfer_hash: 'f'.repeat(64) });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toEqual({ code: 'transfer_hash_mismatch', detail: expect.any(String), supplier_transfer_hash: hash });
    expect((await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered', transfer_hash: hash })).status).toBe(200);
    await expectDelivered(orderId, gift, hash);
  });

  it('then a market that does not answer is 503 unless the operator gives the hash', async () => {
    const { orderId, gift } = await stuckOrder('stuck_marketdown');
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { nft: true } });
    try {
      const down = await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered' });
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ code: 'product_unavailable', reason: 'upstream_unavailable', retry_after: 30 });
      expect(down.headers['retry-after']).toBe('30');
      const hash = 'c'.repeat(64);
      expect((await t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered', transfer_hash: hash })).status).toBe(200);
      await expectDelivered(orderId, gift, hash);
    } finally {
      await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { nft: false } });
    }
  });
});

describe('when an operator resolves a Stars order as delivered', () => {
  it('then it completes with the Stars order fields and no delivery block, as the contract gives one to NFT orders only', async () => {
    const r = await p.order('stars', { quantity: 50, recipient: 'unconfirmed_block' });
    await t.advance(10);
    expect((await t.admin('GET', `/orders/${r.body.order_id}`)).body.review).toMatchObject({ stage: 'delivery_unconfirmed' });
    expect(codeOf(await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'delivered', transfer_hash: 'a'.repeat(64) }))).toBe('validation_error');
    const res = await t.admin('POST', `/orders/${r.body.order_id}/resolve`, { outcome: 'delivered' });
    expect(res.status).toBe(200);
    const view = (await p.call('GET', `/orders/${r.body.order_id}`)).body;
    const keys = ['order_id', 'type', 'status', 'partner_price', 'currency', 'retail', 'quantity', 'recipient', 'label', 'created_at', 'completed_at', 'refunded', 'client_reference'];
    expect(Object.keys(view)).toEqual(keys);
    expect(view).toMatchObject({ status: 'completed', refunded: false, completed_at: expect.stringMatching(OFFSET_TIME) });
    const listed = (await p.call('GET', '/orders?type=stars&limit=200')).body.items.find((o: any) => o.order_id === r.body.order_id);
    expect(listed).toEqual(view);
    const { retail: _retail, ...withoutRetail } = view;
    expect(event(r.body.order_id, 'order.completed').data).toEqual(withoutRetail);
  });
});
