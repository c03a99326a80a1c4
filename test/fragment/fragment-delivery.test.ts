import { describe, expect, it } from 'vitest';
import { Cell, loadMessage } from '@ton/core';
import { getPayment } from '../../src/store/fragment-payments-repo.js';
import { fragmentHarness } from './harness.js';
import { FRAGMENT_ADDRESS, PROBE } from './fakes.js';

/**
 * UPSTREAM=fragment end to end: the partner API → the order job → the fake Fragment → the hot wallet's
 * signed message executed by the real wallet contract in @ton/sandbox → the lookup by normalised hash.
 */
const start = fragmentHarness();

function outMessage(tx: any) {
  const out = [...tx.outMessages.values()];
  expect(out).toHaveLength(1);
  return out[0];
}

describe('Fragment adapter: delivery', () => {
  it('prices follow Fragment (TON) × the TON/USD rate with the margin', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.call('GET', '/products');
    expect(r.status).toBe(200);
    // 1000 stars = 5.2 TON × 3.00 USD = 15.60 → +5 % margin = 16.38; Premium 3 months: 4 TON → 12.00 → 12.60
    expect(r.body.stars.price_per_1000).toBe('16.38');
    expect(r.body.premium).toEqual({
      '3': { partner_price: '12.60', currency: 'USD', available: true },
      '6': { partner_price: '16.79', currency: 'USD', available: true },
      '12': { partner_price: '30.43', currency: 'USD', available: true },
    });
    // the probe account is read, nothing is bought: no getXLink call
    expect(e.fragment.calls.some((c) => c.method.startsWith('get'))).toBe(false);
    expect(e.fragment.calls.filter((c) => c.method === 'searchStarsRecipient').every((c) => c.params.query === PROBE)).toBe(true);
  });

  it('a stars order is paid once from the hot wallet: destination, amount, payload, seqno and expiry checked by the wallet contract', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 100, recipient: '@alice_fan' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'processing', partner_price: '1.64', currency: 'USD' });
    await e.advance(0);
    expect(e.ton.received).toHaveLength(1);
    const ext = loadMessage(Cell.fromBase64(e.ton.received[0]).beginParse());
    expect(ext.info.type).toBe('external-in');
    expect(ext.init).toBeTruthy(); // first payment deploys the wallet
    const [[hash, tx]] = [...e.ton.executed.entries()];
    expect(tx.description.type === 'generic' && tx.description.aborted).toBe(false);
    const out = outMessage(tx);
    expect(out.info.type === 'internal' && out.info.dest.equals(FRAGMENT_ADDRESS)).toBe(true);
    expect(out.info.type === 'internal' && out.info.value.coins).toBe(520_000_000n);
    const linkCall = e.fragment.calls.find((c) => c.method === 'getBuyStarsLink')!;
    expect(linkCall.params.show_sender).toBe('0');
    expect(JSON.parse(linkCall.params.account).address).toBe(e.t.fragment!.wallet.address.toRawString());
    expect(out.body.beginParse().skip(32).loadStringTail()).toMatch(/^\d+ Telegram Stars \n\nRef#\w+$/);
    const wallet = await e.ton.chain.getContract(e.t.fragment!.wallet.address);
    expect(Number((await wallet.get('seqno')).stackReader.readBigNumber())).toBe(1);
    const pay = getPayment(e.t.db, r.body.order_id)!;
    expect(pay).toMatchObject({ state: 'sent', seqno: 0, normHash: hash, amountNano: '520000000' });
    expect(pay.validUntil).toBeLessThanOrEqual(e.nowSec() + 120);
    // the lookup confirms it; the transaction is the order's evidence
    await e.advance(5);
    const done = await p.call('GET', `/orders/${r.body.order_id}`);
    expect(done.body).toMatchObject({ status: 'completed', refunded: false });
    const ev = await e.t.admin('GET', `/fragment/payments/${r.body.order_id}`);
    expect(ev.status).toBe(200);
    expect(ev.body).toMatchObject({ state: 'paid', amount_ton: '0.520000000', message_hash: hash, tx_hash: tx.hash().toString('base64'), tx_lt: tx.lt.toString() });
    // nothing is ever sent again for it
    await e.advance(60);
    expect(e.ton.received).toHaveLength(1);
  });

  it('a V5R1 wallet pays the same way: the real V5R1 contract executes the signed transfer once, to Fragment, with the payload', async () => {
    const e = await start({ extra: { FRAGMENT_WALLET_VERSION: 'v5r1' } });
    expect(e.t.fragment!.wallet.version).toBe('v5r1');
    const p = await e.t.newPartner();
    const r = await p.order('stars', { quantity: 200, recipient: 'alice_fan' });
    await e.advance(0);
    expect(e.ton.received).toHaveLength(1);
    const [tx] = [...e.ton.executed.values()];
    expect(tx.description.type === 'generic' && tx.description.aborted).toBe(false);
    const out = outMessage(tx);
    expect(out.info.type === 'internal' && out.info.dest.equals(FRAGMENT_ADDRESS)).toBe(true);
    expect(out.info.type === 'internal' && out.info.value.coins).toBe(1_040_000_000n);
    expect(out.body.beginParse().skip(32).loadStringTail()).toMatch(/^\d+ Telegram Stars \n\nRef#\w+$/);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('completed');
    // the second payment uses seqno 1 of the deployed V5R1 wallet
    const b = await p.order('stars', { quantity: 50, recipient: 'carol_fan' });
    await e.advance(0);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${b.body.order_id}`)).body.status).toBe('completed');
    expect(getPayment(e.t.db, b.body.order_id)).toMatchObject({ state: 'paid', seqno: 1 });
    expect(e.ton.executed.size).toBe(2);
  });

  it('the signed message expires: executed after validUntil, the wallet contract refuses it', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.ton.sendMode = 'drop';
    const r = await p.order('stars', { quantity: 50, recipient: 'alice_fan' });
    await e.advance(0);
    expect(e.ton.held).toHaveLength(1);
    const pay = getPayment(e.t.db, r.body.order_id)!;
    const held = e.ton.held[0];
    e.t.deps.clock.moveTo((pay.validUntil + 1) * 1000);
    expect(await e.ton.execute(held)).toBeNull();
    // …and before validUntil the same message is accepted exactly once (seqno)
  });

  it('a message that never reached the chain is provably unpaid after expiry (seqno unchanged): a fresh payment follows, paid once', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.ton.sendMode = 'drop';
    const r = await p.order('stars', { quantity: 100, recipient: 'carol_fan' });
    await e.advance(0);
    expect(e.ton.received).toHaveLength(1);
    e.ton.sendMode = 'ok';
    // before validUntil + grace the order only waits for the lookup
    await e.advance(100);
    expect(e.ton.received).toHaveLength(1);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('processing');
    await e.advance(60);
    expect(e.ton.received).toHaveLength(2);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('completed');
    expect(e.ton.executed.size).toBe(1);
    expect(getPayment(e.t.db, r.body.order_id)).toMatchObject({ state: 'paid', attempts: 2 });
    // the old message, if it surfaced now, could not pay again: it has expired
    expect(await e.ton.execute(e.ton.held[0])).toBeNull();
  });

  it('a send whose answer is lost (timeout after the message left) is never paid again: the lookup settles it', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    e.ton.sendMode = 'fail500';
    const r = await p.order('stars', { quantity: 100, recipient: 'alice_fan' });
    await e.advance(0);
    expect(getPayment(e.t.db, r.body.order_id)!.state).toBe('signed');
    e.ton.sendMode = 'ok';
    await e.advance(5);
    expect((await p.call('GET', `/orders/${r.body.order_id}`)).body.status).toBe('completed');
    await e.advance(600);
    expect(e.ton.received).toHaveLength(1);
    expect(e.ton.executed.size).toBe(1);
  });

  it('Premium: already_premium at validation; an order for an account with Premium waits (deferred); one without is paid', async () => {
    const e = await start();
    const p = await e.t.newPartner();
    const v = await p.call('POST', '/validate/recipient', { type: 'premium', username: '@bob_premium' });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ already_premium: true, name: 'bob_premium' });
    const deferred = await p.order('premium', { months: 3, recipient: 'bob_premium' });
    expect(deferred.status).toBe(200);
    const ok = await p.order('premium', { months: 6, recipient: 'dave_fan' });
    expect(ok.body.partner_price).toBe('16.79');
    await e.advance(0);
    await e.advance(5);
    expect((await p.call('GET', `/orders/${ok.body.order_id}`)).body.status).toBe('completed');
    expect((await p.call('GET', `/orders/${deferred.body.order_id}`)).body.status).toBe('processing');
    expect(e.ton.received).toHaveLength(1);
    const tx = [...e.ton.executed.values()][0];
    const out = outMessage(tx);
    expect(out.info.type === 'internal' && out.info.value.coins).toBe(5_330_000_000n);
    expect(e.fragment.calls.find((c) => c.method === 'initGiftPremiumRequest' && c.params.recipient === 'rcp_dave_fan')?.params.months).toBe('6');
  });
});
