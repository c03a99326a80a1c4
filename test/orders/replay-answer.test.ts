import { describe, expect, it } from 'vitest';
import { perTest, type TestService } from '../helpers.js';

/**
 * A replay of a bound key is answered without a promise (the order's cached text, at once): its answer is
 * the first answer exactly, byte for byte and header for header, and a refusal before the key's check is
 * the same answer it always was, with every header a partner answer carries.
 */
const { service } = perTest();

const BODY = '{"type":"stars","idempotency_key":"same-answer-1","params":{"quantity":100,"recipient":"same_answer"}}';

async function post(t: TestService, key: string, payload: string) {
  return t.app.inject({ method: 'POST', url: '/api/partner/v1/orders', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload });
}

/** The headers that are the same on every answer of one request: all but the request's id and the budget left. */
function stableHeaders(h: Record<string, unknown>) {
  const { 'x-request-id': _id, 'ratelimit-remaining': _remaining, 'ratelimit-reset': _reset, date: _date, ...rest } = h;
  return rest;
}

const debits = (t: TestService, partnerId: number) =>
  (t.db.$client.prepare("select count(*) as n from ledger_entries where partner_id = ? and kind = 'order_debit'").get(partnerId) as { n: number }).n;

describe('a replayed order request', () => {
  it('answers the first answer exactly: the same bytes, status and headers, each with its own request id and budget', async () => {
    const t = await service({ API_RATE_BURST: '10', API_RATE_LIMIT: '60' });
    const p = await t.newPartner();
    const first = await post(t, p.key, BODY);
    expect(first.statusCode).toBe(200);
    // the first replay binds the text's memo, the next ones are answered from it; the same request in another
    // text (spacing) takes the full path: every one of them is the same answer
    const replays = [await post(t, p.key, BODY), await post(t, p.key, BODY), await post(t, p.key, BODY.replace(/,/g, ', '))];
    for (const r of replays) {
      expect(r.statusCode).toBe(200);
      expect(r.body).toBe(first.body);
      expect(stableHeaders(r.headers)).toEqual(stableHeaders(first.headers));
    }
    expect(stableHeaders(first.headers)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(first.body)),
      'ratelimit-limit': '10',
      connection: 'keep-alive',
    });
    const all = [first, ...replays];
    expect(all.map((r) => r.headers['ratelimit-remaining'])).toEqual(['9', '8', '7', '6']);
    const ids = all.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(4);
    // one order, one debit
    expect(debits(t, p.id)).toBe(1);
    expect((await t.partnerCall(p.key, 'GET', '/orders')).body.items.map((o: any) => o.order_id)).toEqual([JSON.parse(first.body).order_id]);
  });

  it('with other parameters is the contract\'s 409 idempotency_key_reuse, with the headers of every answer, and debits nothing', async () => {
    const t = await service({ API_RATE_BURST: '10', API_RATE_LIMIT: '60' });
    const p = await t.newPartner();
    expect((await post(t, p.key, BODY)).statusCode).toBe(200);
    expect((await post(t, p.key, BODY)).statusCode).toBe(200); // remembered now
    for (const other of [BODY.replace('"quantity":100', '"quantity":101'), BODY.replace('same_answer', 'other_answer')]) {
      const r = await post(t, p.key, other);
      expect(r.statusCode).toBe(409);
      expect(JSON.parse(r.body)).toEqual({ code: 'idempotency_key_reuse', detail: expect.any(String) });
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers['ratelimit-limit']).toBe('10');
    }
    // a body that is not an order at all is still refused before the key is looked at
    const bad = await post(t, p.key, '{"type":"stars","params":{"quantity":100,"recipient":"same_answer"}}');
    expect([bad.statusCode, JSON.parse(bad.body).detail.code]).toEqual([400, 'idempotency_required']);
    expect(bad.headers['ratelimit-limit']).toBe('10');
    expect(debits(t, p.id)).toBe(1);
  });
});
