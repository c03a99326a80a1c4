import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeOf, startService, stopService, type Res, type TestService } from '../helpers.js';

const OFFSET_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
let t: TestService;
let tx = 0;
const hash = () => `0xtx-${process.pid}-${++tx}`;

beforeEach(async () => {
  t = await startService();
});
afterEach(async () => {
  await stopService(t);
});

async function createPartner(name = 'Acme'): Promise<number> {
  const r = await t.admin('POST', '/partners', { name });
  expect(r.status).toBe(201);
  return r.body.partner_id;
}

function topup(id: number, currency: string, amount: string, network = 'ton', txHash = hash()): Promise<Res> {
  return t.admin('POST', `/partners/${id}/topups`, { currency, amount, network, tx_hash: txHash });
}

function expectFlat(r: Res, status: number, code: string) {
  expect(r.status, r.raw).toBe(status);
  expect(codeOf(r)).toBe(code);
  expect(r.body).toMatchObject({ code, detail: expect.any(String) });
}

function ledgerRows(partnerId: number): { currency: string; amount: number; kind: string; topup_id: string | null; order_id: string | null; balance_after: number }[] {
  return t.db.$client
    .prepare('select currency, amount, kind, topup_id, order_id, balance_after from ledger_entries where partner_id = ? order by entry_id')
    .all(partnerId) as never;
}

async function balances(id: number): Promise<{ USD: string; TON: string }> {
  const r = await t.admin('GET', `/partners/${id}`);
  expect(r.status).toBe(200);
  return r.body.balances;
}

async function ledgerCheckOk() {
  const c = await t.admin('GET', '/ledger/check');
  expect(c.status).toBe(200);
  expect(c.body).toEqual({ ok: true, problems: [] });
}

describe('POST /partners and GET /partners/{id}', () => {
  it('creates an inactive partner with zero balances, no keys and an unsaved webhook block', async () => {
    const r = await t.admin('POST', '/partners', { name: 'Acme Ltd' });
    expect(r.status).toBe(201);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({
      partner_id: expect.any(Number),
      name: 'Acme Ltd',
      status: 'inactive',
      balances: { USD: '0.00', TON: '0.000' },
      keys: [],
      webhook: { url: null, has_secret: false, events: ['order.completed', 'order.failed', 'order.refunded'] },
    });
    expect(Number.isInteger(r.body.partner_id)).toBe(true);
    const g = await t.admin('GET', `/partners/${r.body.partner_id}`);
    expect(g.status).toBe(200);
    expect(g.body).toEqual(r.body);
    // every change is audited
    const audit = t.db.$client.prepare("select actor, action, target from audit_log where action = 'partner.create'").all();
    expect(audit).toEqual([{ actor: 'operator', action: 'partner.create', target: String(r.body.partner_id) }]);
    // no money moved
    expect(ledgerRows(r.body.partner_id)).toEqual([]);
  });

  it('gives each partner its own id', async () => {
    const a = await createPartner('A');
    const b = await createPartner('B');
    expect(b).not.toBe(a);
    expect((await t.admin('GET', `/partners/${a}`)).body.name).toBe('A');
    expect((await t.admin('GET', `/partners/${b}`)).body.name).toBe('B');
  });

  it('rejects a missing or empty name with 400 (flat)', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 42 }]) {
      const r = await t.admin('POST', '/partners', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
    expect(t.db.$client.prepare('select count(*) as n from partners').get()).toEqual({ n: 0 });
  });

  it('answers 404 not_found (flat) for an unknown partner', async () => {
    for (const url of ['/partners/999999', '/partners/abc', '/partners/999999/ledger']) {
      const r = await t.admin('GET', url);
      expectFlat(r, 404, 'not_found');
    }
    expectFlat(await topup(999999, 'USD', '10.00'), 404, 'not_found');
    expectFlat(await t.admin('POST', '/partners/999999/keys', {}), 404, 'not_found');
  });
});

describe('POST /partners/{id}/topups', () => {
  it('activates on the first top-up of at least 10.00 USD, with the exact 201 body', async () => {
    const id = await createPartner();
    const r = await topup(id, 'USD', '10.00');
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['amount', 'balance', 'currency', 'status', 'topup_id']);
    expect(r.body).toEqual({ topup_id: expect.any(String), currency: 'USD', amount: '10.00', balance: '10.00', status: 'active' });
    const p = await t.admin('GET', `/partners/${id}`);
    expect(p.body.status).toBe('active');
    expect(p.body.balances).toEqual({ USD: '10.00', TON: '0.000' });
    expect(ledgerRows(id)).toEqual([{ currency: 'USD', amount: 1000, kind: 'topup', topup_id: r.body.topup_id, order_id: null, balance_after: 1000 }]);
    await ledgerCheckOk();
  });

  it('activates on the first top-up of at least 10 TON', async () => {
    const id = await createPartner();
    const r = await topup(id, 'TON', '10');
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ topup_id: expect.any(String), currency: 'TON', amount: '10.000', balance: '10.000', status: 'active' });
    expect(await balances(id)).toEqual({ USD: '0.00', TON: '10.000' });
  });

  it('refuses a first top-up below 10 in either currency with 400 topup_below_minimum (flat), nothing credited', async () => {
    const id = await createPartner();
    for (const [currency, amount] of [
      ['USD', '9.99'],
      ['USD', '5.00'],
      ['TON', '9.999'],
    ]) {
      const r = await topup(id, currency, amount);
      expectFlat(r, 400, 'topup_below_minimum');
      expect(Object.keys(r.body)).toEqual(expect.arrayContaining(['code', 'detail']));
      expect(r.body.detail).toEqual(expect.any(String));
    }
    const p = await t.admin('GET', `/partners/${id}`);
    expect(p.body.status).toBe('inactive');
    expect(p.body.balances).toEqual({ USD: '0.00', TON: '0.000' });
    expect(ledgerRows(id)).toEqual([]);
    expect(t.db.$client.prepare('select count(*) as n from topups').get()).toEqual({ n: 0 });
  });

  it('after activation: USD from 5.00 (4.99 refused), TON from 10 always', async () => {
    const id = await createPartner();
    expect((await topup(id, 'USD', '10.00')).status).toBe(201);
    expectFlat(await topup(id, 'USD', '4.99'), 400, 'topup_below_minimum');
    const five = await topup(id, 'USD', '5.00');
    expect(five.status).toBe(201);
    expect(five.body).toMatchObject({ currency: 'USD', amount: '5.00', balance: '15.00', status: 'active' });
    expectFlat(await topup(id, 'TON', '9.999'), 400, 'topup_below_minimum');
    expectFlat(await topup(id, 'TON', '5'), 400, 'topup_below_minimum');
    const ten = await topup(id, 'TON', '10.000');
    expect(ten.status).toBe(201);
    expect(ten.body).toMatchObject({ currency: 'TON', amount: '10.000', balance: '10.000', status: 'active' });
    expect(await balances(id)).toEqual({ USD: '15.00', TON: '10.000' });
    expect(ledgerRows(id).map((e) => [e.currency, e.amount, e.balance_after])).toEqual([
      ['USD', 1000, 1000],
      ['USD', 500, 1500],
      ['TON', 10000, 10000],
    ]);
    await ledgerCheckOk();
  });

  it('accepts USD on ton, trc20 and bep20 but TON only on ton', async () => {
    const id = await createPartner();
    expect((await topup(id, 'USD', '10.00', 'trc20')).status).toBe(201);
    expect((await topup(id, 'USD', '6.00', 'bep20')).status).toBe(201);
    expect((await topup(id, 'USD', '7.00', 'ton')).status).toBe(201);
    for (const net of ['trc20', 'bep20']) {
      const r = await topup(id, 'TON', '20.000', net);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
    const bogus = await topup(id, 'USD', '10.00', 'erc20');
    expect(bogus.status).toBe(400);
    expect(await balances(id)).toEqual({ USD: '23.00', TON: '0.000' });
    expect(ledgerRows(id)).toHaveLength(3);
  });

  it('refuses amounts with too many decimals, non-positive or non-numeric amounts, and bad currencies', async () => {
    const id = await createPartner();
    const cases: [string, unknown][] = [
      ['USD', '10.001'],
      ['USD', '10.5000001'],
      ['TON', '10.0001'],
      ['USD', '0'],
      ['USD', '-10.00'],
      ['USD', 'ten'],
      ['USD', '1e3'],
      ['USD', ''],
      ['USD', null],
      ['EUR', '10.00'],
      ['usd', '10.00'],
    ];
    for (const [currency, amount] of cases) {
      const r = await t.admin('POST', `/partners/${id}/topups`, { currency, amount, network: 'ton', tx_hash: hash() });
      expect(r.status, `${currency} ${String(amount)}: ${r.raw}`).toBe(400);
      expect(r.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
    const noHash = await t.admin('POST', `/partners/${id}/topups`, { currency: 'USD', amount: '10.00', network: 'ton' });
    expect(noHash.status).toBe(400);
    expect((await t.admin('GET', `/partners/${id}`)).body.status).toBe('inactive');
    expect(ledgerRows(id)).toEqual([]);
  });

  it('answers the same tx_hash again with 200 and the first top-up, without a second credit', async () => {
    const id = await createPartner();
    const first = await topup(id, 'USD', '25.00', 'trc20', 'same-hash-1');
    expect(first.status).toBe(201);
    const again = await topup(id, 'USD', '25.00', 'trc20', 'same-hash-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // with another amount it is not the same credit: 409 tx_already_credited, naming the first, nothing written
    const other = await topup(id, 'USD', '99.00', 'trc20', 'same-hash-1');
    expectFlat(other, 409, 'tx_already_credited');
    expect(other.body).toMatchObject({ topup_id: first.body.topup_id, partner_id: id, network: 'trc20', currency: 'USD', amount: '25.00' });
    expect(await balances(id)).toEqual({ USD: '25.00', TON: '0.000' });
    expect(ledgerRows(id)).toHaveLength(1);
    // another partner crediting the same transaction: 409, not credited
    const b = await createPartner('B');
    const replay = await topup(b, 'USD', '25.00', 'trc20', 'same-hash-1');
    expectFlat(replay, 409, 'tx_already_credited');
    expect(replay.body.topup_id).toBe(first.body.topup_id);
    expect(await balances(b)).toEqual({ USD: '0.00', TON: '0.000' });
    expect(ledgerRows(b)).toEqual([]);
    await ledgerCheckOk();
  });

  it('keeps the balance and ledger exact under concurrent top-ups', async () => {
    const id = await createPartner();
    // 5 first top-ups at once on an inactive partner: all credited, one activation
    const firsts = await Promise.all(Array.from({ length: 5 }, () => topup(id, 'USD', '10.00')));
    expect(firsts.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    // 20 distinct hashes + 5 sharing one hash, all in flight together
    const distinct = Array.from({ length: 20 }, (_, i) => topup(id, 'USD', '7.25', i % 2 ? 'trc20' : 'bep20'));
    const shared = Array.from({ length: 5 }, () => topup(id, 'TON', '12.345', 'ton', 'shared-hash'));
    const rs = await Promise.all([...distinct, ...shared]);
    expect(rs.slice(0, 20).every((r) => r.status === 201)).toBe(true);
    const sharedRs = rs.slice(20);
    expect(sharedRs.filter((r) => r.status === 201)).toHaveLength(1);
    expect(sharedRs.filter((r) => r.status === 200)).toHaveLength(4);
    expect(new Set(sharedRs.map((r) => r.body.topup_id)).size).toBe(1);
    // distinct top-ups got distinct ids and each saw its own running balance
    const ids = rs.slice(0, 20).map((r) => r.body.topup_id);
    expect(new Set(ids).size).toBe(20);
    const seenBalances = rs
      .slice(0, 20)
      .map((r) => r.body.balance)
      .sort((a, b) => Number(a) - Number(b));
    expect(seenBalances).toEqual(Array.from({ length: 20 }, (_, i) => (50 + 7.25 * (i + 1)).toFixed(2)));

    expect(await balances(id)).toEqual({ USD: '195.00', TON: '12.345' });
    const rows = ledgerRows(id);
    expect(rows.filter((e) => e.currency === 'USD')).toHaveLength(25);
    expect(rows.filter((e) => e.currency === 'TON')).toEqual([
      { currency: 'TON', amount: 12345, kind: 'topup', topup_id: sharedRs[0].body.topup_id, order_id: null, balance_after: 12345 },
    ]);
    expect(rows.every((e) => e.kind === 'topup' && e.topup_id !== null)).toBe(true);
    expect(t.db.$client.prepare('select count(*) as n from topups where partner_id = ?').get(id)).toEqual({ n: 26 });
    // balance_after is a strict running sum in entry order
    let run = 0;
    for (const e of rows.filter((x) => x.currency === 'USD')) {
      run += e.amount;
      expect(e.balance_after).toBe(run);
    }
    expect(t.db.$client.prepare("select count(*) as n from audit_log where action = 'topup.credit'").get()).toEqual({ n: 26 });
    await ledgerCheckOk();
  });
});

describe('GET /partners/{id}/ledger', () => {
  async function fundedPartnerWithOrder() {
    const p = await t.newPartner({ usd: '100.00', ton: '50.000' });
    const more = await topup(p.id, 'USD', '5.50', 'trc20');
    expect(more.status).toBe(201);
    const o = await p.order('stars', { quantity: 1000, recipient: '@ledger_user' });
    expect(o.status, o.raw).toBe(200);
    return { p, order: o.body };
  }

  it('lists entries oldest first with the documented shape and signed amounts', async () => {
    const { p, order } = await fundedPartnerWithOrder();
    const r = await t.admin('GET', `/partners/${p.id}/ledger`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['items', 'next_cursor']);
    expect(r.body.next_cursor).toBeNull();
    const items = r.body.items;
    expect(items).toHaveLength(4);
    for (const e of items) {
      expect(typeof e.entry_id === 'number' || typeof e.entry_id === 'string').toBe(true);
      expect(e.created_at).toMatch(OFFSET_ISO);
      expect(Object.keys(e)).toEqual(expect.arrayContaining(['entry_id', 'currency', 'amount', 'kind', 'balance_after', 'created_at']));
    }
    const [usd1, ton1, usd2, debit] = items;
    expect(usd1).toMatchObject({ currency: 'USD', amount: '100.00', kind: 'topup', topup_id: expect.any(String), balance_after: '100.00' });
    expect(usd1).not.toHaveProperty('order_id');
    expect(ton1).toMatchObject({ currency: 'TON', amount: '50.000', kind: 'topup', balance_after: '50.000' });
    expect(usd2).toMatchObject({ currency: 'USD', amount: '5.50', kind: 'topup', balance_after: '105.50' });
    expect(order.partner_price).toBe('15.75');
    expect(debit).toMatchObject({ currency: 'USD', amount: '-15.75', kind: 'order_debit', order_id: order.order_id, balance_after: '89.75' });
    expect(debit).not.toHaveProperty('topup_id');
    expect(await balances(p.id)).toEqual({ USD: '89.75', TON: '50.000' });
    await ledgerCheckOk();
  });

  it('pages with limit and cursor without gaps or repeats', async () => {
    const id = await createPartner();
    expect((await topup(id, 'USD', '10.00')).status).toBe(201);
    for (let i = 0; i < 6; i++) expect((await topup(id, 'USD', `${5 + i}.00`)).status).toBe(201);
    const all = (await t.admin('GET', `/partners/${id}/ledger`)).body.items;
    expect(all).toHaveLength(7);
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const r = await t.admin('GET', `/partners/${id}/ledger${q}`);
      expect(r.status).toBe(200);
      expect(r.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...r.body.items);
      cursor = r.body.next_cursor;
      if (cursor !== null) expect(typeof cursor).toBe('string');
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it('filters by currency', async () => {
    const { p } = await fundedPartnerWithOrder();
    const usd = await t.admin('GET', `/partners/${p.id}/ledger?currency=USD`);
    expect(usd.status).toBe(200);
    expect(usd.body.items.map((e: any) => e.amount)).toEqual(['100.00', '5.50', '-15.75']);
    const ton = await t.admin('GET', `/partners/${p.id}/ledger?currency=TON`);
    expect(ton.body.items.map((e: any) => [e.currency, e.amount])).toEqual([['TON', '50.000']]);
    const page = await t.admin('GET', `/partners/${p.id}/ledger?currency=USD&limit=2`);
    expect(page.body.items).toHaveLength(2);
    const next = await t.admin('GET', `/partners/${p.id}/ledger?currency=USD&limit=2&cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expect(next.body.items.map((e: any) => e.amount)).toEqual(['-15.75']);
    expect(next.body.next_cursor).toBeNull();
  });

  it('GET /ledger/check compares each partner and currency with its own entries only', async () => {
    const a = await createPartner('A');
    const b = await createPartner('B');
    expect((await topup(a, 'USD', '10.00')).status).toBe(201);
    expect((await topup(a, 'TON', '20.000')).status).toBe(201);
    expect((await topup(b, 'USD', '30.00')).status).toBe(201);
    await ledgerCheckOk();
    // a balance that disagrees with its entries is reported, for that partner and currency alone (the
    // database refuses such a write: a file edited behind its guards is what the check is left to find)
    expect(() => t.db.$client.prepare("update accounts set balance = balance + 1 where partner_id = ? and currency = 'USD'").run(b)).toThrow(/accounts_follow_ledger/);
    t.db.$client.exec('drop trigger accounts_follow_ledger_update');
    t.db.$client.prepare("update accounts set balance = balance + 1 where partner_id = ? and currency = 'USD'").run(b);
    const c = await t.admin('GET', '/ledger/check');
    expect(c.status).toBe(200);
    expect(c.body.ok).toBe(false);
    expect(c.body.problems).toContainEqual(expect.objectContaining({ problem: 'balance_mismatch', partner_id: b, currency: 'USD', balance: '30.01', entries_sum: '30.00' }));
    expect(c.body.problems.every((p: any) => p.partner_id === b && p.currency === 'USD')).toBe(true);
  });

  it('refuses a bad cursor, currency or limit with 400 (flat)', async () => {
    const id = await createPartner();
    expect((await topup(id, 'USD', '10.00')).status).toBe(201);
    for (const c of ['garbage', '!!!', Buffer.from('o:1').toString('base64url'), 'bDox'.repeat(80)]) {
      const r = await t.admin('GET', `/partners/${id}/ledger?cursor=${encodeURIComponent(c)}`);
      expectFlat(r, 400, 'bad_cursor');
    }
    const cur = await t.admin('GET', `/partners/${id}/ledger?currency=EUR`);
    expect(cur.status).toBe(400);
    expect(cur.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    for (const l of ['0', '-1', 'x', '100000']) {
      const r = await t.admin('GET', `/partners/${id}/ledger?limit=${l}`);
      expect(r.status, `limit=${l}`).toBe(400);
      expect(r.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
  });
});

describe('when a top-up is credited, the owner is told once', () => {
  it('then an operator credit raises one topup_credited, a repeated tx_hash none, and a deposit replaying a credited tx none', async () => {
    const heard: unknown[] = [];
    t.deps.bus.on('topup_credited', (e) => heard.push(e));
    const id = await createPartner();
    const h = hash();
    expect((await topup(id, 'USD', '12.50', 'trc20', h)).status).toBe(201);
    expect(heard).toEqual([{ partnerId: id, topupId: expect.stringMatching(/^tp_/), currency: 'USD', amount: '12.50', activated: true }]);
    expect((await topup(id, 'USD', '12.50', 'trc20', h)).status).toBe(200);
    expect(heard).toHaveLength(1);
    // A request for the partner, then the watcher reports the credited transfer once and again.
    const req = await t.admin('POST', `/partners/${id}/topup-requests`, { currency: 'USD', amount: '20.00' });
    expect(req.status).toBe(201);
    const to = req.body.addresses.find((a: { network: string }) => a.network === 'trc20').address;
    const deposit = { network: 'trc20', asset: 'USDT', amount: req.body.amount_to_send, to, tx_hash: 'watcher-tx-1' };
    expect((await t.admin('POST', '/sandbox/deposits', deposit)).status).toBe(201);
    expect(heard).toHaveLength(2);
    expect((await t.admin('POST', '/sandbox/deposits', deposit)).status).toBe(200);
    expect(heard).toHaveLength(2);
    const ledger = (await t.admin('GET', `/partners/${id}/ledger`)).body.items;
    expect(ledger.map((e: { amount: string }) => e.amount)).toEqual(['12.50', req.body.amount_to_send]);
  });
});
