import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Alert, TopupCredited } from '../../src/kernel/event-bus.js';
import { SANDBOX_DEPOSIT_ADDRESSES, depositAddresses } from '../../src/config/deposit-addresses.js';
import { requestAddresses } from '../../src/app/topup-requests.js';
import { ApiError } from '../../src/domain/errors.js';
import { expectFlatError, startService, stopService, testConfig, type Res, type TestService } from '../helpers.js';

/**
 * Automatic top-ups through the operator API and the sandbox: exact-amount requests, deposits reported as
 * a watcher would see them (POST /sandbox/deposits), matching, crediting, manual handling.
 */

const A = SANDBOX_DEPOSIT_ADDRESSES;
const TO: Record<string, string> = { ton: A.DEPOSIT_ADDRESS_USDT_TON, trc20: A.DEPOSIT_ADDRESS_USDT_TRC20, bep20: A.DEPOSIT_ADDRESS_USDT_BEP20 };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let t: TestService;
let alerts: Alert[];
let credited: TopupCredited[];
let n = 0;
const txh = () => `tx-${process.pid}-${++n}`;

beforeEach(async () => {
  t = await startService();
  alerts = [];
  credited = [];
  t.deps.bus.on('alert', (a) => alerts.push(a));
  t.deps.bus.on('topup_credited', (e) => credited.push(e));
});
afterEach(async () => {
  await stopService(t);
});

async function partner(active = false): Promise<number> {
  const r = await t.admin('POST', '/partners', { name: 'Acme' });
  expect(r.status).toBe(201);
  if (active) {
    const before = credited.length;
    const c = await t.admin('POST', `/partners/${r.body.partner_id}/topups`, { currency: 'USD', amount: '10.00', network: 'ton', tx_hash: txh() });
    expect(c.status).toBe(201);
    // The activating credit is told to the owner like any other (checked in partners-topups.test.ts); it is setup here.
    expect(credited.splice(before)).toEqual([{ partnerId: r.body.partner_id, topupId: c.body.topup_id, currency: 'USD', amount: '10.00', activated: true }]);
  }
  return r.body.partner_id;
}

const request = (id: number, currency: string, amount: unknown) => t.admin('POST', `/partners/${id}/topup-requests`, { currency, amount });
/** The sum of decimal amounts of one currency, as the service prints it (2 places USD, 3 TON). */
const sum = (places: 2 | 3, ...amounts: string[]) => (amounts.reduce((a, x) => a + Math.round(Number(x) * 10 ** places), 0) / 10 ** places).toFixed(places);

function deposit(body: Record<string, unknown>): Promise<Res> {
  return t.admin('POST', '/sandbox/deposits', { tx_hash: txh(), ...body });
}
const usdt = (network: string, amount: string, extra: Record<string, unknown> = {}) => deposit({ network, asset: 'USDT', amount, to: TO[network], ...extra });
const tonCoin = (amount: string, extra: Record<string, unknown> = {}) => deposit({ network: 'ton', asset: 'TON', amount, to: A.DEPOSIT_ADDRESS_TON, ...extra });

async function balances(id: number) {
  return (await t.admin('GET', `/partners/${id}`)).body as { status: string; balances: { USD: string; TON: string } };
}

async function ledgerOk() {
  const c = await t.admin('GET', '/ledger/check');
  expect(c.body).toEqual({ ok: true, problems: [] });
}

const expectError = expectFlatError;

describe('POST /partners/{id}/topup-requests', () => {
  it('USD: the exact amount to send, every USDT address, the expiry; no comment code', async () => {
    const id = await partner();
    const r = await request(id, 'USD', '25');
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toEqual({
      request_id: expect.stringMatching(/^rq_[0-9a-f]{16}$/),
      currency: 'USD',
      amount: '25.00',
      amount_to_send: expect.stringMatching(/^25\.(0[1-9]|[1-9]\d)$/),
      addresses: [
        { network: 'ton', address: A.DEPOSIT_ADDRESS_USDT_TON },
        { network: 'trc20', address: A.DEPOSIT_ADDRESS_USDT_TRC20 },
        { network: 'bep20', address: A.DEPOSIT_ADDRESS_USDT_BEP20 },
      ],
      status: 'open',
      created_at: expect.stringMatching(ISO),
      expires_at: expect.stringMatching(ISO),
      seconds_left: 24 * 3600,
    });
    expect(Date.parse(r.body.expires_at) - t.deps.clock.now()).toBe(24 * 3600_000);
  });

  it('TON: the TON address only and a short comment code of unambiguous characters', async () => {
    const id = await partner();
    const r = await request(id, 'TON', '12.5');
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toMatchObject({ currency: 'TON', amount_to_send: expect.stringMatching(/^1[23]\.\d{3}$/), addresses: [{ network: 'ton', address: A.DEPOSIT_ADDRESS_TON }] });
    // 12.500 plus 0.001 to 0.999, never the round 13.000
    const sent = Math.round(Number(r.body.amount_to_send) * 1000);
    expect(sent > 12_500 && sent <= 13_499 && sent !== 13_000).toBe(true);
    expect(r.body.comment_code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
  });

  it('exact amounts carry a random offset, are unique among open requests of a currency; a paid request frees its amount, an expired one after 30 days', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => partner()));
    const usd: string[] = [];
    const ton: string[] = [];
    for (const id of ids) for (let i = 0; i < 3; i++) usd.push((await request(id, 'USD', '25.00')).body.amount_to_send);
    for (const id of ids.slice(0, 3)) for (let i = 0; i < 3; i++) ton.push((await request(id, 'TON', '25')).body.amount_to_send);
    // 25.01 to 25.99, never 25.00, never twice; random, not counted up from the asked amount
    expect(usd.every((a) => /^25\.\d\d$/.test(a) && a !== '25.00')).toBe(true);
    expect(new Set(usd).size).toBe(24);
    expect(usd.slice(0, 3)).not.toEqual(['25.01', '25.02', '25.03']);
    expect(ton.every((a) => /^25\.\d{3}$/.test(a) && a !== '25.000')).toBe(true);
    expect(new Set(ton).size).toBe(9);
    const codes = new Set<string>(t.db.$client.prepare("select comment_code from topup_requests where currency = 'TON'").pluck().all() as string[]);
    expect(codes.size).toBe(9);

    // Once a request is paid, its amount can be given again; an expired one's is given last (late-payments.test.ts).
    const paid = await usdt('trc20', usd[0]);
    expect(paid.body).toMatchObject({ status: 'credited', partner_id: ids[0] });
    const taken = () => new Set(t.db.$client.prepare("select amount_to_send from topup_requests where currency = 'USD' and status = 'open'").pluck().all() as number[]);
    expect(taken().size).toBe(23);
    expect(taken().has(Math.round(Number(usd[0]) * 100))).toBe(false);
    await t.advance(24 * 3600 + 1);
    const again = (await request(ids[0], 'USD', '25')).body.amount_to_send;
    expect(again).toMatch(/^25\.\d\d$/);
    expect(taken()).toEqual(new Set([Math.round(Number(again) * 100)]));
  });

  it('minimums: the first top-up 10 in either currency, later USD 5 and TON 10', async () => {
    const fresh = await partner();
    expectError(await request(fresh, 'USD', '9.99'), 400, 'topup_below_minimum');
    expect((await request(fresh, 'USD', '9.99')).body).toMatchObject({ minimum: '10.00', currency: 'USD' });
    expectError(await request(fresh, 'USD', '5'), 400, 'topup_below_minimum');
    expectError(await request(fresh, 'TON', '9.999'), 400, 'topup_below_minimum');
    expect((await request(fresh, 'USD', '10')).status).toBe(201);
    expect((await request(fresh, 'TON', '10')).status).toBe(201);

    const active = await partner(true);
    expect((await request(active, 'USD', '5')).body.amount_to_send).toMatch(/^5\.\d\d$/);
    expectError(await request(active, 'USD', '4.99'), 400, 'topup_below_minimum');
    expectError(await request(active, 'TON', '9.999'), 400, 'topup_below_minimum');
    expect((await request(active, 'TON', '10')).status).toBe(201);
  });

  it('bad bodies are 400 validation_error; an unknown partner is 404 not_found', async () => {
    const id = await partner();
    for (const body of [{ currency: 'EUR', amount: '10' }, { currency: 'USD', amount: '10.001' }, { currency: 'TON', amount: '10.0001' }, { currency: 'USD', amount: '-10' }, { currency: 'USD', amount: '0' }, { currency: 'USD' }, { amount: '10' }, { currency: 'USD', amount: '10', extra: 1 }, { currency: 'USD', amount: true }])
      expectError(await t.admin('POST', `/partners/${id}/topup-requests`, body), 400, 'validation_error');
    expectError(await t.admin('POST', `/partners/${id}/topup-requests`, [1]), 400, 'validation_error');
    expectError(await request(999_999, 'USD', '10'), 404, 'not_found');
    expectError(await request('abc' as unknown as number, 'USD', '10'), 404, 'not_found');
  });

  it('503 topups_not_configured without an address for the currency (outside sandbox mode; the pure rule)', () => {
    const live = depositAddresses({ UPSTREAM: 'live' });
    expect(live).toEqual([]);
    try {
      requestAddresses(live, 'USD');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe('topups_not_configured');
      expect((e as ApiError).status).toBe(503);
    }
    const tonOnly = depositAddresses({ UPSTREAM: 'live', DEPOSIT_ADDRESS_TON: 'UQDP-0CULkl1EbwLrs4i8hrj2mFVu6e33aCLPalaoHeZ20eK' });
    expect(requestAddresses(tonOnly, 'TON')).toEqual([{ network: 'ton', address: 'UQDP-0CULkl1EbwLrs4i8hrj2mFVu6e33aCLPalaoHeZ20eK' }]);
    expect(() => requestAddresses(tonOnly, 'USD')).toThrow(/not configured/);
    // Sandbox mode fills every unset address with its demo address; a set one wins.
    const sandbox = depositAddresses({ UPSTREAM: 'sandbox', DEPOSIT_ADDRESS_USDT_TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' });
    expect(requestAddresses(sandbox, 'USD').map((a) => a.address)).toEqual([A.DEPOSIT_ADDRESS_USDT_TON, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', A.DEPOSIT_ADDRESS_USDT_BEP20]);
  });
});

describe('amount squatting', () => {
  it('a round transfer meant for one partner never pays another partner\'s request: it goes to manual handling', async () => {
    const a = await partner(true);
    const b = await partner(true);
    const ra = (await request(a, 'USD', '100')).body;
    const rb = (await request(b, 'USD', '100')).body;
    for (const r of [ra, rb]) expect(r.amount_to_send).toMatch(/^100\.(0[1-9]|[1-9]\d)$/);
    expect(ra.amount_to_send).not.toBe(rb.amount_to_send);
    // B mistypes the round sum
    const d = await usdt('trc20', '100.00');
    expect(d.body).toMatchObject({ status: 'unmatched', reason: 'wrong_amount', partner_id: null, topup_id: null });
    expect(alerts).toEqual([expect.objectContaining({ kind: 'unmatched_deposit', depositId: d.body.deposit_id, amount: '100.00' })]);
    expect((await balances(a)).balances.USD).toBe('10.00');
    expect((await balances(b)).balances.USD).toBe('10.00');
    // support credits it to B by hand; each request is still paid by its own exact amount
    expect((await t.admin('POST', `/deposits/${d.body.deposit_id}/resolve`, { action: 'credit', partner_id: b })).body.status).toBe('credited');
    expect((await usdt('bep20', ra.amount_to_send)).body).toMatchObject({ status: 'credited', partner_id: a, request_id: ra.request_id });
    expect((await balances(a)).balances.USD).toBe(sum(2, '10.00', ra.amount_to_send));
    expect((await balances(b)).balances.USD).toBe('110.00');
    await ledgerOk();
  });
});

describe('TOPUP_REQUESTS_MAX_OPEN', () => {
  it('at most 3 open requests per partner and currency by default, then 409 too_many_topup_requests; paid or expired ones free a place', async () => {
    const id = await partner(true);
    const other = await partner(true);
    const made: any[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await request(id, 'USD', '20');
      expect(r.status).toBe(201);
      made.push(r.body);
    }
    const fourth = await request(id, 'USD', '50');
    expectError(fourth, 409, 'too_many_topup_requests');
    expect(fourth.body).toEqual({ code: 'too_many_topup_requests', detail: expect.stringContaining('3 open top-up requests in USD'), currency: 'USD', max_open: 3 });
    expect(t.db.$client.prepare('select count(*) from topup_requests where partner_id = ?').pluck().get(id)).toBe(3);
    // the other currency and the other partner have their own places
    for (let i = 0; i < 3; i++) expect((await request(id, 'TON', '10')).status).toBe(201);
    expectError(await request(id, 'TON', '10'), 409, 'too_many_topup_requests');
    expect((await request(other, 'USD', '20')).status).toBe(201);
    // a paid request frees a place
    expect((await usdt('trc20', made[0].amount_to_send)).body.status).toBe('credited');
    expect((await request(id, 'USD', '50')).status).toBe(201);
    expectError(await request(id, 'USD', '50'), 409, 'too_many_topup_requests');
    // so do expired ones
    await t.advance(24 * 3600);
    for (let i = 0; i < 3; i++) expect((await request(id, 'USD', '20')).status).toBe(201);
    expectError(await request(id, 'USD', '20'), 409, 'too_many_topup_requests');
    // the limit is checked after the body and the minimum
    expectError(await request(id, 'USD', '4'), 400, 'topup_below_minimum');
    expectError(await request(id, 'USD', 'abc'), 400, 'validation_error');
  });

  it('the variable sets the limit; it must be a whole number from 1 to 100', async () => {
    const s = await startService({ TOPUP_REQUESTS_MAX_OPEN: '1' });
    try {
      const id = (await s.admin('POST', '/partners', { name: 'One' })).body.partner_id;
      expect((await s.admin('POST', `/partners/${id}/topup-requests`, { currency: 'USD', amount: '10' })).status).toBe(201);
      const r = await s.admin('POST', `/partners/${id}/topup-requests`, { currency: 'USD', amount: '10' });
      expect([r.status, r.body.code, r.body.max_open]).toEqual([409, 'too_many_topup_requests', 1]);
    } finally {
      await stopService(s);
    }
    expect(testConfig().TOPUP_REQUESTS_MAX_OPEN).toBe(3);
    for (const bad of ['0', '101', 'x', '2.5']) expect(() => testConfig({ TOPUP_REQUESTS_MAX_OPEN: bad }), bad).toThrow(/TOPUP_REQUESTS_MAX_OPEN/);
  });

  it('every open offset of an amount taken: 503 topup_amount_unavailable, and the amount is chosen with the injected randomness source', async () => {
    let next = 0;
    // a randomness source whose random integers are always 0 (so the smallest free offset), with distinct ids otherwise
    const ids = { hex: (b: number) => (b === 4 ? '00000000' : (++next).toString(16).padStart(b * 2, '0')), uuid: () => crypto.randomUUID(), token: (b: number) => crypto.randomBytes(b).toString('base64url') };
    const s = await startService({ TOPUP_REQUESTS_MAX_OPEN: '100' }, { ids });
    try {
      const id = (await s.admin('POST', '/partners', { name: 'Hoarder' })).body.partner_id;
      const amounts: string[] = [];
      for (let i = 0; i < 99; i++) {
        const r = await s.admin('POST', `/partners/${id}/topup-requests`, { currency: 'USD', amount: '10' });
        expect(r.status, r.raw).toBe(201);
        amounts.push(r.body.amount_to_send);
      }
      expect(amounts.slice(0, 3)).toEqual(['10.01', '10.02', '10.03']);
      expect(amounts[98]).toBe('10.99');
      const full = await s.admin('POST', `/partners/${id}/topup-requests`, { currency: 'USD', amount: '10' });
      expect([full.status, full.body.code]).toEqual([503, 'topup_amount_unavailable']);
      // another amount still has the offsets no open request holds; 10.50 + 0.50 would be round, so 10.50 gets 11.01 first
      expect((await s.admin('POST', `/partners/${id}/topup-requests`, { currency: 'USD', amount: '10.50' })).body.amount_to_send).toBe('11.01');
    } finally {
      await stopService(s);
    }
  });
});

describe('deposits matched and credited automatically', () => {
  it('the first top-up by exact amount activates the partner; the ledger and the owner notification follow', async () => {
    const id = await partner();
    expect((await t.admin('POST', `/partners/${id}/keys`, {})).status).toBe(409);
    const rq = (await request(id, 'USD', '10')).body;
    const sent: string = rq.amount_to_send;
    // a round 10.00 pays no request: manual handling
    expect((await usdt('bep20', '10.00')).body).toMatchObject({ status: 'unmatched', reason: 'wrong_amount', partner_id: null });
    expect(alerts.splice(0)).toHaveLength(1);
    const d = await usdt('bep20', `${sent}0000000000000000`, { from: '0x1111111111111111111111111111111111111111' });
    expect(d.status, d.raw).toBe(201);
    expect(d.body).toMatchObject({
      deposit_id: expect.stringMatching(/^dep_/),
      network: 'bep20',
      asset: 'USDT',
      amount: sent,
      from: '0x1111111111111111111111111111111111111111',
      comment: null,
      status: 'credited',
      partner_id: id,
      request_id: rq.request_id,
      topup_id: expect.stringMatching(/^tp_/),
      created_at: expect.stringMatching(ISO),
    });
    expect(await balances(id)).toMatchObject({ status: 'active', balances: { USD: sent, TON: '0.000' } });
    expect((await t.admin('POST', `/partners/${id}/keys`, {})).status).toBe(201);
    // the event names the request it paid (the bot marks the request's message paid)
    expect(credited).toEqual([{ partnerId: id, topupId: d.body.topup_id, currency: 'USD', amount: sent, activated: true, requestId: rq.request_id }]);
    expect(alerts).toEqual([]);
    const ledger = await t.admin('GET', `/partners/${id}/ledger?currency=USD`);
    expect(ledger.body.items).toEqual([expect.objectContaining({ currency: 'USD', amount: sent, kind: 'topup', topup_id: d.body.topup_id, balance_after: sent })]);
    // The request is paid: the same amount again is not credited.
    expect((await usdt('trc20', sent)).body).toMatchObject({ status: 'unmatched', reason: 'unknown_request', request_id: rq.request_id });
    expect(await balances(id)).toMatchObject({ balances: { USD: sent } });
    await ledgerOk();
  });

  it('later USD top-ups from 5, on each network', async () => {
    const id = await partner(true);
    const sent: string[] = [];
    for (const [network, amount] of [['ton', '5'], ['trc20', '7.5'], ['bep20', '100']] as const) {
      const rq = (await request(id, 'USD', amount)).body;
      const d = await usdt(network, rq.amount_to_send);
      expect(d.body).toMatchObject({ status: 'credited', partner_id: id, request_id: rq.request_id });
      sent.push(rq.amount_to_send);
    }
    expect((await balances(id)).balances.USD).toBe(sum(2, '10.00', ...sent));
    expect(credited.map((c) => c.amount)).toEqual(sent);
    await ledgerOk();
  });

  it('TON: the comment code identifies the request; without it the exact amount does', async () => {
    const p1 = await partner();
    const p2 = await partner();
    const r1 = (await request(p1, 'TON', '10')).body;
    const r2 = (await request(p2, 'TON', '10')).body;
    expect(r1.amount_to_send).not.toBe(r2.amount_to_send);
    // The right code with another request's amount: wrong amount, nothing credited.
    const wrong = await tonCoin(r1.amount_to_send, { comment: r2.comment_code });
    expect(wrong.body).toMatchObject({ status: 'unmatched', reason: 'wrong_amount', request_id: r2.request_id, partner_id: null });
    const byCode = await tonCoin(r2.amount_to_send, { comment: `  ${r2.comment_code.toLowerCase()} ` });
    expect(byCode.body).toMatchObject({ status: 'credited', partner_id: p2, request_id: r2.request_id, amount: r2.amount_to_send, comment: `  ${r2.comment_code.toLowerCase()} ` });
    const byAmount = await tonCoin(`${r1.amount_to_send}000000`);
    expect(byAmount.body).toMatchObject({ status: 'credited', partner_id: p1, request_id: r1.request_id, amount: r1.amount_to_send });
    expect((await balances(p1)).balances.TON).toBe(r1.amount_to_send);
    expect((await balances(p2)).balances.TON).toBe(r2.amount_to_send);
    expect((await balances(p2)).status).toBe('active');
    await ledgerOk();
  });

  it('duplicate reports of one transaction credit once; the same hash on another network is another deposit', async () => {
    const id = await partner(true);
    const a1 = (await request(id, 'USD', '20')).body.amount_to_send;
    const a2 = (await request(id, 'USD', '20')).body.amount_to_send;
    const hash = txh();
    const first = await usdt('trc20', a1, { tx_hash: hash });
    expect(first.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      const again = await usdt('trc20', a1, { tx_hash: hash });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    }
    expect((await balances(id)).balances.USD).toBe(sum(2, '10.00', a1));
    const other = await usdt('bep20', a2, { tx_hash: hash });
    expect(other.status).toBe(201);
    expect(other.body.deposit_id).not.toBe(first.body.deposit_id);
    expect((await balances(id)).balances.USD).toBe(sum(2, '10.00', a1, a2));
    expect(credited).toHaveLength(2);
    const rows = t.db.$client.prepare("select count(*) as n from topups where tx_hash like '%' || ?").get(hash) as { n: number };
    expect(rows.n).toBe(2);
    await ledgerOk();
  });

  it('a transaction already credited by support (POST /partners/{id}/topups, same hash) is linked, not credited again', async () => {
    const id = await partner();
    await request(id, 'USD', '10');
    const hash = txh();
    expect((await t.admin('POST', `/partners/${id}/topups`, { currency: 'USD', amount: '10.00', network: 'trc20', tx_hash: hash })).status).toBe(201);
    const d = await usdt('trc20', '10.00', { tx_hash: hash });
    expect(d.body).toMatchObject({ status: 'credited', partner_id: id, topup_id: expect.stringMatching(/^tp_/) });
    expect((await balances(id)).balances.USD).toBe('10.00');
    await ledgerOk();
  });

  it('confirmations below the requirement: pending, then processed when reported again with enough', async () => {
    const id = await partner();
    const a = (await request(id, 'USD', '15')).body.amount_to_send;
    const hash = txh();
    const p = await usdt('trc20', a, { tx_hash: hash, confirmations: 3 });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ status: 'pending', confirmations: 3, partner_id: null });
    expect((await usdt('trc20', a, { tx_hash: hash, confirmations: 10 })).body).toMatchObject({ status: 'pending', confirmations: 10 });
    expect((await balances(id)).balances.USD).toBe('0.00');
    expect((await t.admin('GET', '/deposits?status=pending')).body.items.map((x: any) => x.deposit_id)).toEqual([p.body.deposit_id]);
    const done = await usdt('trc20', a, { tx_hash: hash, confirmations: 19 });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ deposit_id: p.body.deposit_id, status: 'credited', confirmations: 19, partner_id: id });
    expect((await balances(id)).balances.USD).toBe(a);
    // TON needs 1 confirmation by default: 0 is pending.
    expect((await tonCoin('10', { confirmations: 0 })).body.status).toBe('pending');
  });
});

describe('deposits that do not match go to manual handling', () => {
  it('wrong amount, expired request, unknown request, below minimum, wrong network, wrong address: unmatched, alerted, listed', async () => {
    const id = await partner(true);
    const rq = (await request(id, 'USD', '40')).body;
    const tonRq = (await request(id, 'TON', '20')).body;
    const results: Record<string, Res> = {};
    results.wrong_amount = await usdt('trc20', '39.99');
    results.unknown_request = await usdt('trc20', '777.00');
    results.below_minimum = await usdt('ton', '4.99');
    results.wrong_network = await deposit({ network: 'bep20', asset: 'TON', amount: '20', to: TO.bep20 });
    results.wrong_address = await usdt('trc20', '40.00', { to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' });
    results.ton_to_usdt_address = await deposit({ network: 'ton', asset: 'TON', amount: '20', to: A.DEPOSIT_ADDRESS_USDT_TON });
    await t.advance(24 * 3600 + 1);
    results.expired_request = await usdt('bep20', rq.amount_to_send);
    results.expired_by_code = await tonCoin('20', { comment: tonRq.comment_code });
    const expected: Record<string, string> = {
      wrong_amount: 'wrong_amount',
      unknown_request: 'unknown_request',
      below_minimum: 'below_minimum',
      wrong_network: 'wrong_network',
      wrong_address: 'wrong_address',
      ton_to_usdt_address: 'wrong_address',
      expired_request: 'expired_request',
      expired_by_code: 'expired_request',
    };
    for (const [k, r] of Object.entries(results)) {
      expect(r.status, `${k}: ${r.raw}`).toBe(201);
      // a late payment names the partner whose request it was (for support), and is credited to nobody
      const partnerId = expected[k] === 'expired_request' ? id : null;
      expect(r.body, k).toMatchObject({ status: 'unmatched', reason: expected[k], partner_id: partnerId, topup_id: null, note: expect.any(String) });
    }
    expect(results.expired_request.body.request_id).toBe(rq.request_id);
    expect(results.wrong_amount.body.request_id).toBe(rq.request_id);
    expect((await balances(id)).balances).toEqual({ USD: '10.00', TON: '0.000' });
    expect(alerts).toHaveLength(8);
    expect(alerts[0]).toEqual({ kind: 'unmatched_deposit', depositId: results.wrong_amount.body.deposit_id, network: 'trc20', asset: 'USDT', amount: '39.99', reason: 'wrong_amount' });
    expect(credited).toEqual([]);

    const list = await t.admin('GET', '/deposits?status=unmatched');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(8);
    expect(new Set(list.body.items.map((i: any) => i.deposit_id))).toEqual(new Set(Object.values(results).map((r) => r.body.deposit_id)));
    for (const item of list.body.items)
      for (const f of ['deposit_id', 'network', 'asset', 'amount', 'tx_hash', 'from', 'comment', 'status', 'partner_id', 'created_at']) expect(item).toHaveProperty(f);
    expect((await t.admin('GET', '/deposits?status=credited')).body.items).toEqual([]);
    expect((await t.admin('GET', '/deposits')).body.items).toHaveLength(8);
    expectError(await t.admin('GET', '/deposits?status=bogus'), 400, 'validation_error');
  });

  it('other tokens or coins are recorded as ignored: no credit, no alert', async () => {
    const id = await partner(true);
    await request(id, 'USD', '10');
    const d = await deposit({ network: 'trc20', asset: 'USDC', amount: '10.00', to: TO.trc20 });
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ asset: 'USDC', amount: '10', status: 'ignored', partner_id: null, note: expect.stringMatching(/USDC/) });
    const odd = await deposit({ network: 'ton', asset: 'NOT', amount: '123.456789', to: A.DEPOSIT_ADDRESS_TON });
    expect(odd.body).toMatchObject({ asset: 'NOT', amount: '123.456789', status: 'ignored' });
    expect(alerts).toEqual([]);
    expect((await t.admin('GET', '/deposits?status=ignored')).body.items).toHaveLength(2);
    expect((await balances(id)).balances.USD).toBe('10.00');
  });

  it('POST /deposits/{id}/resolve: credit following the top-up rules, or close with a note; 409 when not unmatched', async () => {
    const fresh = await partner();
    const other = await partner(true);
    const wrong = (await usdt('trc20', '10.50')).body; // unknown amount, first top-up of `fresh` once credited
    const small = (await usdt('trc20', '7.00')).body;
    const tiny = (await usdt('bep20', '3.00')).body;
    const odd = (await usdt('bep20', '12.345')).body;
    const tonOff = (await deposit({ network: 'bep20', asset: 'TON', amount: '50', to: TO.bep20 })).body;
    for (const d of [wrong, small, tiny, odd, tonOff]) expect(d.status).toBe('unmatched');

    // 7.00 is below the first top-up minimum of `fresh`, and 3.00 below every minimum.
    expectError(await t.admin('POST', `/deposits/${small.deposit_id}/resolve`, { action: 'credit', partner_id: fresh }), 400, 'topup_below_minimum');
    expectError(await t.admin('POST', `/deposits/${tiny.deposit_id}/resolve`, { action: 'credit', partner_id: other }), 400, 'topup_below_minimum');
    expect((await t.admin('GET', '/deposits?status=unmatched')).body.items).toHaveLength(5);
    // TON is accepted only on ton.
    expectError(await t.admin('POST', `/deposits/${tonOff.deposit_id}/resolve`, { action: 'credit', partner_id: other }), 400, 'bad_network');

    const c = await t.admin('POST', `/deposits/${wrong.deposit_id}/resolve`, { action: 'credit', partner_id: fresh });
    expect(c.status, c.raw).toBe(200);
    expect(c.body).toMatchObject({ deposit_id: wrong.deposit_id, status: 'credited', partner_id: fresh, topup_id: expect.stringMatching(/^tp_/), resolved_at: expect.stringMatching(ISO) });
    expect(await balances(fresh)).toMatchObject({ status: 'active', balances: { USD: '10.50' } });
    expect(credited).toEqual([{ partnerId: fresh, topupId: c.body.topup_id, currency: 'USD', amount: '10.50', activated: true }]);
    // Now active: 7.00 is enough.
    expect((await t.admin('POST', `/deposits/${small.deposit_id}/resolve`, { action: 'credit', partner_id: fresh })).body.status).toBe('credited');
    // A fraction of a cent is rounded down.
    const o = await t.admin('POST', `/deposits/${odd.deposit_id}/resolve`, { action: 'credit', partner_id: other, note: 'checked with the partner' });
    expect(o.body).toMatchObject({ status: 'credited', note: 'checked with the partner', amount: '12.345' });
    expect((await balances(other)).balances.USD).toBe('22.34');

    const closed = await t.admin('POST', `/deposits/${tiny.deposit_id}/resolve`, { action: 'close', note: 'returned manually' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', note: 'returned manually', partner_id: null, resolved_at: expect.stringMatching(ISO) });

    expectError(await t.admin('POST', `/deposits/${wrong.deposit_id}/resolve`, { action: 'credit', partner_id: other }), 409, 'deposit_not_unmatched');
    expectError(await t.admin('POST', `/deposits/${tiny.deposit_id}/resolve`, { action: 'close', note: 'again' }), 409, 'deposit_not_unmatched');
    expectError(await t.admin('POST', `/deposits/dep_nope/resolve`, { action: 'close', note: 'x' }), 404, 'not_found');
    expectError(await t.admin('POST', `/deposits/${tonOff.deposit_id}/resolve`, { action: 'credit', partner_id: 999_999 }), 404, 'not_found');
    for (const body of [{ action: 'close' }, { action: 'close', note: '  ' }, { action: 'credit' }, { action: 'credit', partner_id: '1' }, { action: 'refund' }, {}])
      expectError(await t.admin('POST', `/deposits/${tonOff.deposit_id}/resolve`, body), 400, 'validation_error');

    const audit = t.db.$client.prepare("select actor, action, target from audit_log where action like 'deposit.%' order by audit_id").all() as { actor: string; action: string; target: string }[];
    expect(audit.filter((a) => a.action === 'deposit.credit').map((a) => a.target)).toEqual([wrong.deposit_id, small.deposit_id, odd.deposit_id]);
    expect(audit.filter((a) => a.action === 'deposit.close')).toEqual([{ actor: 'operator', action: 'deposit.close', target: tiny.deposit_id }]);
    expect(audit.filter((a) => a.action === 'deposit.report')).toHaveLength(5);
    await ledgerOk();
  });

  it('sandbox deposit bodies are validated', async () => {
    for (const body of [
      { network: 'eth', asset: 'USDT', amount: '10', to: 'x', tx_hash: 'h' },
      { network: 'ton', asset: 'USDT', amount: '-1', to: 'x', tx_hash: 'h' },
      { network: 'ton', asset: 'USDT', amount: '1e3', to: 'x', tx_hash: 'h' },
      { network: 'ton', asset: '', amount: '10', to: 'x', tx_hash: 'h' },
      { network: 'ton', asset: 'USDT', amount: '10', tx_hash: 'h' },
      { network: 'ton', asset: 'USDT', amount: '10', to: 'x' },
      { network: 'ton', asset: 'USDT', amount: '10', to: 'x', tx_hash: 'h', confirmations: -1 },
      { network: 'ton', asset: 'USDT', amount: '10', to: 'x', tx_hash: 'h', bogus: 1 },
    ])
      expectError(await t.admin('POST', '/sandbox/deposits', body), 400, 'validation_error');
  });
});
