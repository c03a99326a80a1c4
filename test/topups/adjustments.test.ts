import { describe, expect, it } from 'vitest';
import { codeOf, type Res, type TestService } from '../helpers.js';
import { appWorld, asUser } from '../app-api/app-helpers.js';

/**
 * Support's correction of a mistaken credit or debit: POST /partners/{id}/adjustments in the operator API
 * and the console, one `adjustment` entry of a signed amount with the operator's note, audited; shown in the
 * partner's ledger and exports; refused when it would make the balance negative or the input is bad.
 */
const w = appWorld();
const OPERATOR = 779_001;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

async function world() {
  const x = await w.start({ ADMIN_CHAT_IDS: String(OPERATOR), APP_RATE_LIMIT: '100000' });
  return { ...x, op: asUser(x.t, OPERATOR) };
}

const adjust = (t: TestService, id: number | string, body: unknown) => t.admin('POST', `/partners/${id}/adjustments`, body);
const entries = (t: TestService, id: number) => t.db.$client.prepare('select kind, amount, note, balance_after from ledger_entries where partner_id = ? order by entry_id').all(id);
const audits = (t: TestService) => t.db.$client.prepare("select actor, target, data from audit_log where action = 'ledger.adjust' order by audit_id").all() as { actor: string; target: string; data: string }[];

function expectFlat(r: Res, status: number, code: string) {
  expect(r.status, r.raw).toBe(status);
  expect(r.body).toMatchObject({ code, detail: expect.any(String) });
}

describe('POST /partners/{id}/adjustments', () => {
  it('201 the ledger entry (kind adjustment, signed amount, the note); the balance moves; audited; the ledger check stays ok', async () => {
    const { t, p } = await world();
    const r = await adjust(t, p.id, { currency: 'USD', amount: '-25.50', note: 'Top-up tp_x credited twice (same transfer, two spellings): reversed.' });
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toEqual({
      entry_id: expect.any(Number),
      currency: 'USD',
      amount: '-25.50',
      kind: 'adjustment',
      note: 'Top-up tp_x credited twice (same transfer, two spellings): reversed.',
      balance_after: '974.50',
      created_at: expect.stringMatching(ISO),
    });
    const ton = await adjust(t, p.id, { currency: 'TON', amount: '+1.5', note: '  goodwill  ' });
    expect(ton.status).toBe(201);
    expect(ton.body).toMatchObject({ currency: 'TON', amount: '1.500', note: 'goodwill', balance_after: '1001.500' });
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances).toEqual({ USD: '974.50', TON: '1001.500' });
    expect(audits(t)).toEqual([
      { actor: 'operator', target: String(p.id), data: JSON.stringify({ entry_id: r.body.entry_id, currency: 'USD', amount: '-25.50', balance_after: '974.50', note: r.body.note }) },
      { actor: 'operator', target: String(p.id), data: JSON.stringify({ entry_id: ton.body.entry_id, currency: 'TON', amount: '1.500', balance_after: '1001.500', note: 'goodwill' }) },
    ]);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('is shown in the operator’s and the partner’s ledger and in the CSV export, with its note', async () => {
    const { t, p } = await world();
    const r = await adjust(t, p.id, { currency: 'USD', amount: '-1.00', note: 'fee, as agreed' });
    const ops = (await t.admin('GET', `/partners/${p.id}/ledger?currency=USD`)).body.items;
    expect(ops[ops.length - 1]).toEqual(r.body);
    const mine = (await p.call('GET', '/ledger?currency=USD')).body.items[0];
    expect(mine).toEqual({ entry_id: r.body.entry_id, kind: 'adjustment', currency: 'USD', amount: '-1.00', balance_after: '999.00', order_id: null, topup_id: null, note: 'fee, as agreed', created_at: expect.stringMatching(ISO) });
    const csv = await p.call('GET', '/ledger/export.csv?currency=USD');
    const [header, first] = csv.raw.split('\r\n');
    expect(header).toBe('entry_id,created_at,currency,kind,amount,balance_after,order_id,topup_id,note');
    expect(first).toMatch(new RegExp(`^${r.body.entry_id},[^,]+,USD,adjustment,-1\\.00,999\\.00,,,"fee, as agreed"$`));
  });

  it('409 insufficient_balance when the balance would go negative: nothing written, nothing audited', async () => {
    const { t, p } = await world();
    const before = entries(t, p.id);
    const r = await adjust(t, p.id, { currency: 'USD', amount: '-1000.01', note: 'too much' });
    expectFlat(r, 409, 'insufficient_balance');
    expect(r.body).toMatchObject({ currency: 'USD', balance: '1000.00' });
    expect(entries(t, p.id)).toEqual(before);
    expect(audits(t)).toEqual([]);
    // exactly to zero is allowed
    expect((await adjust(t, p.id, { currency: 'USD', amount: '-1000', note: 'closing the account' })).body.balance_after).toBe('0.00');
  });

  it('400 for bad input (flat {code, detail}); 404 for an unknown partner; nothing written', async () => {
    const { t, p } = await world();
    const before = entries(t, p.id);
    const cases: [unknown, string][] = [
      [{ currency: 'USD', amount: '-1.00' }, 'validation_error'],
      [{ currency: 'USD', amount: '-1.00', note: '   ' }, 'validation_error'],
      [{ currency: 'USD', amount: '-1.00', note: 'x'.repeat(501) }, 'validation_error'],
      [{ currency: 'EUR', amount: '1.00', note: 'x' }, 'validation_error'],
      [{ amount: '1.00', note: 'x' }, 'validation_error'],
      [{ currency: 'USD', note: 'x' }, 'validation_error'],
      [{ currency: 'USD', amount: '1.00', note: 'x', partner_id: 2 }, 'validation_error'],
      [[1, 2], 'validation_error'],
      [{ currency: 'USD', amount: '0', note: 'x' }, 'bad_amount'],
      [{ currency: 'USD', amount: '-0.00', note: 'x' }, 'bad_amount'],
      [{ currency: 'USD', amount: '1.005', note: 'x' }, 'bad_amount'],
      [{ currency: 'TON', amount: '1.0005', note: 'x' }, 'bad_amount'],
      [{ currency: 'USD', amount: 'ten', note: 'x' }, 'bad_amount'],
      [{ currency: 'USD', amount: '1e3', note: 'x' }, 'bad_amount'],
      [{ currency: 'USD', amount: '--1', note: 'x' }, 'bad_amount'],
    ];
    for (const [body, code] of cases) expectFlat(await adjust(t, p.id, body), 400, code);
    expectFlat(await adjust(t, 999_999, { currency: 'USD', amount: '1.00', note: 'x' }), 404, 'not_found');
    expectFlat(await adjust(t, 'abc', { currency: 'USD', amount: '1.00', note: 'x' }), 404, 'not_found');
    expect(entries(t, p.id)).toEqual(before);
    expect(audits(t)).toEqual([]);
  });
});

describe('the console’s adjustment (POST /api/app/v1/operator/partners/{id}/adjustments)', () => {
  it('the same service: 201 the entry, audited with the operator’s Telegram id; 409 and 400 in the Mini App’s format; 403 for others', async () => {
    const { t, p, op, owner } = await world();
    const r = await op.call('POST', `/operator/partners/${p.id}/adjustments`, { currency: 'TON', amount: '-0.5', note: 'network fee we owe' });
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toMatchObject({ kind: 'adjustment', currency: 'TON', amount: '-0.500', balance_after: '999.500', note: 'network fee we owe' });
    expect(audits(t).map((a) => [a.actor, a.target])).toEqual([[`telegram:${OPERATOR}`, String(p.id)]]);
    const broke = await op.call('POST', `/operator/partners/${p.id}/adjustments`, { currency: 'USD', amount: '-5000', note: 'x' });
    expect([broke.status, codeOf(broke)]).toEqual([409, 'insufficient_balance']);
    const bad = await op.call('POST', `/operator/partners/${p.id}/adjustments`, { currency: 'USD', amount: '5' });
    expect([bad.status, codeOf(bad)]).toEqual([400, 'validation_error']);
    const notOperator = await owner.call('POST', `/operator/partners/${p.id}/adjustments`, { currency: 'USD', amount: '5', note: 'x' });
    expect([notOperator.status, codeOf(notOperator)]).toEqual([403, 'forbidden']);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances).toEqual({ USD: '1000.00', TON: '999.500' });
  });
});
