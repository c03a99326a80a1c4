import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import type { Ids } from '../../src/kernel/ids.js';
import { startService, stopService, type Res, type TestService } from '../helpers.js';

/**
 * A payment that arrives after its request ended unpaid (expired or canceled) never reaches another
 * partner: the offset of an ended request is not handed out again for 30 days, a transfer that matches an
 * ended request waits for support with `reason: "expired_request"` and that request's partner, a TON comment
 * code always names its own request, and a transfer made before the end but seen after it is credited.
 */

const A = SANDBOX_DEPOSIT_ADDRESSES;
const DAY = 24 * 3600;

/**
 * A randomness source whose random integers are always 0 (chooseAmountToSend then takes the smallest free
 * offset, which is what makes the reuse of an offset certain instead of a matter of luck), with distinct ids
 * and tokens otherwise.
 */
function lowestOffsets(): Ids {
  let next = 0;
  return {
    hex: (b: number) => (b === 4 ? '00000000' : (++next).toString(16).padStart(b * 2, '0')),
    uuid: () => crypto.randomUUID(),
    token: (b: number) => crypto.randomBytes(b).toString('base64url'),
  } as Ids;
}

let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

let n = 0;
const txh = () => `late-${process.pid}-${++n}`;

async function partner(s: TestService, name: string): Promise<number> {
  const r = await s.admin('POST', '/partners', { name });
  expect(r.status).toBe(201);
  // activated by a first top-up of 10.00 so that later requests may be small
  expect((await s.admin('POST', `/partners/${r.body.partner_id}/topups`, { currency: 'USD', amount: '10.00', network: 'ton', tx_hash: txh() })).status).toBe(201);
  expect((await s.admin('POST', `/partners/${r.body.partner_id}/topups`, { currency: 'TON', amount: '10.000', network: 'ton', tx_hash: txh() })).status).toBe(201);
  return r.body.partner_id;
}

const usdt = (s: TestService, amount: string, extra: Record<string, unknown> = {}): Promise<Res> =>
  s.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount, to: A.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: txh(), ...extra });
const tonCoin = (s: TestService, amount: string, extra: Record<string, unknown> = {}): Promise<Res> =>
  s.admin('POST', '/sandbox/deposits', { network: 'ton', asset: 'TON', amount, to: A.DEPOSIT_ADDRESS_TON, tx_hash: txh(), ...extra });

async function balances(s: TestService, id: number): Promise<{ USD: string; TON: string }> {
  return (await s.admin('GET', `/partners/${id}`)).body.balances;
}

describe('a late payment is never credited to another partner', () => {
  it("A's request expires, B asks for the same sum: A's late transfer is not credited to B (expired_request, A's partner)", async () => {
    t = await startService({}, { ids: lowestOffsets() });
    // a credit that pays a request names it (the bot's message of that request then reads paid)
    const paid: { partnerId: number; requestId: string; topupId: string }[] = [];
    t.deps.bus.on('topup_credited', (e) => {
      if (e.requestId) paid.push({ partnerId: e.partnerId, requestId: e.requestId, topupId: e.topupId });
    });
    const a = await partner(t, 'Alpha');
    const b = await partner(t, 'Beta');
    const ra = (await t.admin('POST', `/partners/${a}/topup-requests`, { currency: 'USD', amount: '100' })).body;
    expect(ra.amount_to_send).toBe('100.01');
    await t.advance(DAY + 1);
    const rb = (await t.admin('POST', `/partners/${b}/topup-requests`, { currency: 'USD', amount: '100' })).body;

    // A pays its expired request late: nothing reaches B
    const late = await usdt(t, ra.amount_to_send);
    expect(late.status, late.raw).toBe(201);
    expect(await balances(t, b)).toEqual({ USD: '10.00', TON: '10.000' });
    expect(await balances(t, a)).toEqual({ USD: '10.00', TON: '10.000' });
    expect(late.body).toMatchObject({ status: 'unmatched', reason: 'expired_request', partner_id: a, request_id: ra.request_id, topup_id: null });
    // B's request of the same sum did not get A's offset back
    expect(rb.amount_to_send).toBe('100.02');
    const waiting = (await t.admin('GET', '/deposits?status=unmatched')).body.items;
    expect(waiting).toEqual([expect.objectContaining({ deposit_id: late.body.deposit_id, reason: 'expired_request', partner_id: a })]);

    // B's own transfer is credited to B; support credits A's late one to A, once
    const own = await usdt(t, rb.amount_to_send);
    expect(own.body).toMatchObject({ status: 'credited', partner_id: b, request_id: rb.request_id });
    const resolved = await t.admin('POST', `/deposits/${late.body.deposit_id}/resolve`, { action: 'credit', partner_id: a });
    expect(resolved.body).toMatchObject({ status: 'credited', partner_id: a });
    expect((await t.admin('POST', `/deposits/${late.body.deposit_id}/resolve`, { action: 'credit', partner_id: a })).status).toBe(409);
    expect(await balances(t, a)).toEqual({ USD: '110.01', TON: '10.000' });
    expect(await balances(t, b)).toEqual({ USD: '110.02', TON: '10.000' });
    // each request is told paid once, to its own partner: B's by its transfer, A's by support's resolve
    expect(paid).toEqual([
      { partnerId: b, requestId: rb.request_id, topupId: own.body.topup_id },
      { partnerId: a, requestId: ra.request_id, topupId: resolved.body.topup_id },
    ]);
    expect((await t.admin('GET', `/partners/${a}/topup-requests?status=paid`)).body.items.map((r: { request_id: string }) => r.request_id)).toEqual([ra.request_id]);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('a canceled request keeps its offset for 30 days too; after 30 days the offset is free again', async () => {
    t = await startService({}, { ids: lowestOffsets() });
    const a = await partner(t, 'Alpha');
    const b = await partner(t, 'Beta');
    const ra = (await t.admin('POST', `/partners/${a}/topup-requests`, { currency: 'USD', amount: '50' })).body;
    expect(ra.amount_to_send).toBe('50.01');
    expect((await t.admin('DELETE', `/partners/${a}/topup-requests/${ra.request_id}`)).body.status).toBe('canceled');
    expect((await t.admin('POST', `/partners/${b}/topup-requests`, { currency: 'USD', amount: '50' })).body.amount_to_send).toBe('50.02');
    // A pays the canceled request after all: not B's, A's partner for support
    expect((await usdt(t, '50.01')).body).toMatchObject({ status: 'unmatched', reason: 'expired_request', partner_id: a, request_id: ra.request_id });
    await t.advance(30 * DAY + 1);
    // 30 days after it ended the offset may be given again (B's 50.02 expired a day after A's cancel: still held)
    expect((await t.admin('POST', `/partners/${b}/topup-requests`, { currency: 'USD', amount: '50' })).body.amount_to_send).toBe('50.01');
  });

  it('when every offset of a sum is held, an ended one is reused but its transfer goes to support, to neither partner', async () => {
    t = await startService({ TOPUP_REQUESTS_MAX_OPEN: '100' }, { ids: lowestOffsets() });
    const a = await partner(t, 'Alpha');
    const b = await partner(t, 'Beta');
    const ra = (await t.admin('POST', `/partners/${a}/topup-requests`, { currency: 'USD', amount: '20' })).body;
    expect(ra.amount_to_send).toBe('20.01');
    await t.advance(DAY + 1);
    // B holds 20.02 … 20.99 (98 open requests): the only offset left is A's ended 20.01
    for (let i = 0; i < 98; i++) expect((await t.admin('POST', `/partners/${b}/topup-requests`, { currency: 'USD', amount: '20' })).body.amount_to_send).toBe(`20.${String(i + 2).padStart(2, '0')}`);
    const reused = (await t.admin('POST', `/partners/${b}/topup-requests`, { currency: 'USD', amount: '20' })).body;
    expect(reused.amount_to_send).toBe('20.01');
    // a transfer of 20.01 may be A's late one or B's: support decides
    const d = await usdt(t, '20.01');
    expect(d.body).toMatchObject({ status: 'unmatched', reason: 'expired_request', partner_id: a, request_id: ra.request_id });
    expect(await balances(t, a)).toEqual({ USD: '10.00', TON: '10.000' });
    expect(await balances(t, b)).toEqual({ USD: '10.00', TON: '10.000' });
    expect((await t.admin('GET', '/ledger/check')).body.ok).toBe(true);
  });

  it('TON: a comment naming an expired request never credits another partner, even with the exact amount of an open request', async () => {
    // the service's own randomness: the lowest-offset source would also draw one comment code again and again
    t = await startService();
    const a = await partner(t, 'Alpha');
    const b = await partner(t, 'Beta');
    const ra = (await t.admin('POST', `/partners/${a}/topup-requests`, { currency: 'TON', amount: '10' })).body;
    await t.advance(DAY + 1);
    const rb = (await t.admin('POST', `/partners/${b}/topup-requests`, { currency: 'TON', amount: '10' })).body;
    expect(rb.amount_to_send).not.toBe(ra.amount_to_send);
    // B's exact amount, but A's code in the comment: the code names A's ended request
    const d = await tonCoin(t, rb.amount_to_send, { comment: ra.comment_code });
    expect(d.body).toMatchObject({ status: 'unmatched', reason: 'expired_request', partner_id: a, request_id: ra.request_id });
    expect(await balances(t, b)).toEqual({ USD: '10.00', TON: '10.000' });
    // a comment naming A's paid request does not pay B's open one either
    const ra2 = (await t.admin('POST', `/partners/${a}/topup-requests`, { currency: 'TON', amount: '10' })).body;
    expect((await tonCoin(t, ra2.amount_to_send, { comment: ra2.comment_code })).body).toMatchObject({ status: 'credited', partner_id: a });
    const again = await tonCoin(t, rb.amount_to_send, { comment: ra2.comment_code });
    expect(again.body).toMatchObject({ status: 'unmatched', request_id: ra2.request_id, topup_id: null });
    expect(await balances(t, b)).toEqual({ USD: '10.00', TON: '10.000' });
    // B's own transfer with B's code is credited
    expect((await tonCoin(t, rb.amount_to_send, { comment: rb.comment_code })).body).toMatchObject({ status: 'credited', partner_id: b });
  });

  it('a transfer made before expiry but confirmed after it is credited normally (judged by when it was made)', async () => {
    t = await startService();
    const a = await partner(t, 'Alpha');
    const ra = (await t.admin('POST', `/partners/${a}/topup-requests`, { currency: 'USD', amount: '30' })).body;
    await t.advance(DAY - 60);
    const hash = txh();
    // seen a minute before expiry with 3 of its 19 confirmations
    expect((await usdt(t, ra.amount_to_send, { tx_hash: hash, confirmations: 3 })).body.status).toBe('pending');
    await t.advance(3600);
    const done = await usdt(t, ra.amount_to_send, { tx_hash: hash, confirmations: 19 });
    expect(done.body).toMatchObject({ status: 'credited', partner_id: a, request_id: ra.request_id });
    expect((await balances(t, a)).USD).toBe((10 + Number(ra.amount_to_send)).toFixed(2));
    const listed = (await t.admin('GET', `/partners/${a}/topup-requests?status=paid`)).body.items;
    expect(listed.map((r: { request_id: string }) => r.request_id)).toEqual([ra.request_id]);
  });
});
