import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startService, stopService, toRes, type TestService } from '../helpers.js';
import { MAX_JSON_DEPTH } from '../../src/http/json-body.js';

/**
 * A JSON body nested deeper than MAX_JSON_DEPTH is refused with 400 bad_request (nested format) before any
 * code reads it: 30,000 nested arrays once reached the validators and answered 500.
 */
let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

const nestedArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const nestedObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

async function post(url: string, payload: string, headers: Record<string, string>) {
  return toRes(await t!.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } }));
}

function expectBadRequest(r: { status: number; body: any; raw: string }) {
  expect(r.status, r.raw).toBe(400);
  expect(r.body).toEqual({ detail: { code: 'bad_request', detail: expect.stringMatching(/nested/) } });
}

describe('JSON nesting depth', () => {
  it('30,000 nested arrays (and objects, and arrays inside a valid order) are 400 bad_request on the partner and operator APIs, nothing written', async () => {
    t = await startService();
    const p = await t.newPartner();
    const ordersBefore = t.db.$client.prepare('select count(*) as n from orders').get();
    const partner = { authorization: `Bearer ${p.key}` };
    expectBadRequest(await post('/api/partner/v1/orders', nestedArrays(30_000), partner));
    expectBadRequest(await post('/api/partner/v1/orders', nestedObjects(10_000), partner));
    const deepInOrder = JSON.stringify({ type: 'stars', idempotency_key: 'deep-1', params: { quantity: 100, recipient: '@deep_user' } }).replace(
      '"deep-1"',
      `"deep-1","extra":${nestedArrays(20_000)}`,
    );
    expectBadRequest(await post('/api/partner/v1/orders', deepInOrder, partner));
    // inside params, where the order code reads it (this one answered 500)
    expectBadRequest(await post('/api/partner/v1/orders', `{"type":"stars","idempotency_key":"deep-2","params":{"quantity":100,"recipient":"@deep_user","x":${nestedArrays(30_000)}}}`, partner));
    expectBadRequest(await post('/api/partner/v1/orders', `{"type":"nft","idempotency_key":"deep-3","params":{"gift":${nestedArrays(30_000)},"recipient":"@deep_user"}}`, partner));
    // the operator API answers the same code in its flat format (operator-api.md section 2)
    const operator = await post('/api/admin/v1/partners', nestedArrays(30_000), { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(operator.status, operator.raw).toBe(400);
    expect(operator.body).toEqual({ code: 'bad_request', detail: expect.stringMatching(/nested/) });
    // brackets inside strings are text, not depth
    const inString = await post('/api/admin/v1/partners', JSON.stringify({ name: `${'['.repeat(50)} Shop ${'{'.repeat(50)}` }), { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(inString.status, inString.raw).toBe(201);
    expect(t.db.$client.prepare('select count(*) as n from orders').get()).toEqual(ordersBefore);
  });

  it('accepts MAX_JSON_DEPTH levels and refuses one more', async () => {
    t = await startService();
    const p = await t.newPartner();
    const partner = { authorization: `Bearer ${p.key}` };
    // a valid order whose params hold an array nested to exactly the limit goes through
    const within = (depth: number) => `{"type":"stars","idempotency_key":"d-${depth}","params":{"quantity":100,"recipient":"@deep_user","x":${nestedArrays(depth - 2)}}}`;
    const ok = await post('/api/partner/v1/orders', within(MAX_JSON_DEPTH), partner);
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.status).toBe('processing');
    expectBadRequest(await post('/api/partner/v1/orders', within(MAX_JSON_DEPTH + 1), partner));
    // broken JSON keeps its own code
    const broken = await post('/api/partner/v1/orders', '{"type":', partner);
    expect(broken.status).toBe(400);
    expect(broken.body.detail.code).toBe('bad_json');
  });
});
