import { Ajv } from 'ajv';
import { Validator } from '@seriousme/openapi-schema-validator';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../../src/domain/errors.js';
import { conformanceProblems } from '../openapi-conformance.js';
import { codeOf, settleOrder, startService, stopService, type Res, type TestPartner, type TestService } from '../helpers.js';

let t: TestService;
let p: TestPartner;
let doc: any;
let ajv: Ajv;

beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', VALIDATE_RECIPIENT_RATE_LIMIT: '100000', NFT_CATALOG_RATE_LIMIT: '100000' });
  p = await t.newPartner({ usd: '100.00', ton: '5000.000' });
  doc = (await t.app.inject({ method: 'GET', url: '/api/partner/v1/openapi.json' })).json();
  ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
afterAll(() => stopService(t));

/** Checks a live response against what the document says for that operation and status. */
function conforms(method: string, path: string, r: Res): void {
  const op = doc.paths[path]?.[method];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const documented = op.responses[String(r.status)];
  expect(documented, `${method} ${path} documents status ${r.status} (${r.raw.slice(0, 200)})`).toBeDefined();
  expect(conformanceProblems(method.toUpperCase(), `/api/partner/v1${path}`, r.status, r.headers, JSON.stringify(r.body))).toEqual([]);
  if (r.status >= 400) {
    const code = codeOf(r) as ErrorCode;
    expect(documented.content['application/json'].examples[code], `${code} is documented for ${method} ${path}`).toBeDefined();
    if (ERRORS[code].format === 'nested') expect(typeof r.body.detail).toBe('object');
    else expect(typeof r.body.detail).toBe('string');
    if (code === 'rate_limited' || code === 'resolver_error' || (code === 'product_unavailable' && r.body.reason === 'upstream_unavailable')) {
      expect(documented.headers['Retry-After']).toBeDefined();
      expect(r.headers['retry-after']).toBe(String(r.body.retry_after));
    }
  }
}

describe('when the OpenAPI document is read', () => {
  it('then it is valid OpenAPI 3.0.3 with interface version 1.0, the bearer scheme and every partner endpoint', async () => {
    const v = new Validator();
    const res = await v.validate(doc);
    expect(res.errors).toBeUndefined();
    expect(res.valid).toBe(true);
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('1.0');
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(Object.keys(doc.paths).sort()).toEqual(['/ledger', '/ledger/export.csv', '/me', '/nft/collections', '/nft/gifts', '/nft/gifts/{gift}', '/orders', '/orders/export.csv', '/orders/{order_id}', '/products', '/stats', '/validate/game', '/validate/recipient', '/webhook-deliveries', '/webhook-deliveries/{delivery_id}/redeliver', '/webhook/test']);
    expect(Object.keys(doc.paths['/orders'].post.callbacks)).toEqual(['order.completed', 'order.failed', 'order.refunded', 'balance.low']);
    expect(doc.paths['/orders'].post.responses['429'].headers['Retry-After']).toBeDefined();
  });

  it('then the interactive documentation is served at /docs', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('swagger');
    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.json().info.version).toBe('1.0');
  });

  // Swagger UI is built on the first request to /docs and answers through the service's routes: the
  // HTTP semantics of its assets (HEAD, validators, ranges) and the service's own 404 come through.
  it("then Swagger UI's assets answer HEAD, conditional and range requests, and an unknown page is the service's 404", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/docs/json' })).json()).toEqual(doc);
    const css = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toContain('.swagger-ui');
    const etag = css.headers.etag as string;
    expect(etag).toMatch(/^(W\/)?"/);

    const head = await t.app.inject({ method: 'HEAD', url: '/docs/static/swagger-ui.css' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(css.rawPayload.length));
    expect(head.headers['referrer-policy']).toBe('no-referrer');
    expect(head.rawPayload.length).toBe(0);

    const same = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css', headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);

    const part = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css', headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${css.rawPayload.length}`);
    expect(part.rawPayload.equals(css.rawPayload.subarray(0, 100))).toBe(true);

    const missing = await t.app.inject({ method: 'GET', url: '/docs/static/no-such-file.css' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: { code: 'route_not_found', detail: 'No endpoint GET /docs/static/no-such-file.css.' } });
  });
});

describe('when live responses are compared with the document', () => {
  it('then every success response matches its documented schema', async () => {
    conforms('get', '/me', await p.call('GET', '/me'));
    conforms('get', '/products', await p.call('GET', '/products'));
    await t.admin('PUT', '/sandbox/market', { unavailable: true });
    conforms('get', '/products', await p.call('GET', '/products'));
    await t.admin('PUT', '/sandbox/market', { unavailable: false });
    conforms('post', '/validate/recipient', await p.call('POST', '/validate/recipient', { type: 'premium', username: 'premium_doc' }));
    conforms('post', '/validate/recipient', await p.call('POST', '/validate/recipient', { type: 'nft', username: 'nogift_doc' }));
    conforms('post', '/validate/game', await p.call('POST', '/validate/game', { username: 'gamer_doc' }));
    const stars = await p.order('stars', { quantity: 100, recipient: 'doc_user' });
    conforms('post', '/orders', stars);
    conforms('post', '/orders', await p.order('premium', { months: 3, recipient: 'doc_user' }));
    const gifts = await p.call('GET', '/nft/gifts?collection=HomemadeCake&limit=3');
    conforms('get', '/nft/gifts', gifts);
    conforms('get', '/nft/collections', await p.call('GET', '/nft/collections'));
    const gift = gifts.body.items[0].gift;
    conforms('get', '/nft/gifts/{gift}', await p.call('GET', `/nft/gifts/${gift}`));
    const nft = await p.order('nft', { gift, recipient: 'doc_user', max_price: '1000' });
    conforms('post', '/orders', nft);
    const failing = await p.order('nft', { gift: gifts.body.items[1].gift, recipient: 'nogift_doc', max_price: '1000' });
    await settleOrder(t, p, stars.body.order_id);
    await settleOrder(t, p, nft.body.order_id, 5, 30);
    await settleOrder(t, p, failing.body.order_id, 5, 30);
    conforms('get', '/orders/{order_id}', await p.call('GET', `/orders/${stars.body.order_id}`));
    conforms('get', '/orders/{order_id}', await p.call('GET', `/orders/${nft.body.order_id}`));
    conforms('get', '/orders/{order_id}', await p.call('GET', `/orders/${failing.body.order_id}`));
    conforms('get', '/orders', await p.call('GET', '/orders?limit=2'));
  });

  it('then a response that drifts from the document is caught', async () => {
    const me = await p.call('GET', '/me');
    expect(() => conforms('get', '/me', { ...me, body: { ...me.body, balance: 100 } })).toThrow();
    expect(() => conforms('get', '/me', { ...me, body: { ...me.body, nft_balance: '1.5' } })).toThrow();
    const { limits, ...withoutLimits } = me.body;
    expect(limits).toBeDefined();
    expect(() => conforms('get', '/me', { ...me, body: withoutLimits })).toThrow();
    expect(() => conforms('get', '/me', { ...me, status: 418 })).toThrow();
  });

  it('then every webhook body matches the documented callback schema', async () => {
    const q = await t.newPartner({ usd: '50.00', ton: '5000.000' });
    const ok = await q.order('stars', { quantity: 50, recipient: 'hook_doc' });
    const bad = await q.order('stars', { quantity: 50, recipient: 'failstars_doc' });
    const gift = (await q.call('GET', '/nft/gifts?collection=SignetRing&limit=10')).body.items[5].gift;
    await t.admin('PUT', `/sandbox/gifts/${gift}`, { outcome: 'hub_rejected' });
    const nft = await q.order('nft', { gift, recipient: 'hook_doc', max_price: '100000' });
    for (const o of [ok, bad, nft]) await settleOrder(t, q, o.body.order_id, 5, 30);
    const rows = t.db.$client.prepare('select event, body from events where partner_id = ?').all(q.id) as { event: string; body: string }[];
    expect(rows.map((r) => r.event).sort()).toEqual(['order.completed', 'order.failed', 'order.failed', 'order.refunded', 'order.refunded']);
    for (const r of rows) {
      const cb = doc.paths['/orders'].post.callbacks[r.event]['{$request.body#/webhook_url}'].post;
      const validate = ajv.compile({ $ref: `doc${cb.requestBody.content['application/json'].schema.$ref}` });
      expect(validate(JSON.parse(r.body)), `${r.event}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('then every error response matches its documented status and format', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/partner/v1/me' });
    conforms('get', '/me', { status: none.statusCode, headers: none.headers, body: none.json(), raw: none.body });
    const o = (body: unknown) => p.call('POST', '/orders', body);
    const cases: [unknown, ErrorCode][] = [
      [{ type: 'stars', params: {} }, 'idempotency_required'],
      [{ type: 'x', idempotency_key: 'e1' }, 'bad_type'],
      [{ type: 'stars', idempotency_key: 'e2', params: { quantity: 1, recipient: 'abcde' } }, 'bad_quantity'],
      [{ type: 'premium', idempotency_key: 'e3', params: { months: 2, recipient: 'abcde' } }, 'bad_months'],
      [{ type: 'stars', idempotency_key: 'e4', params: { quantity: 50 } }, 'recipient_required'],
      [{ type: 'stars', idempotency_key: 'e5', params: { quantity: 50, recipient: 'ghost_doc' } }, 'recipient_not_found'],
      [{ type: 'nft', idempotency_key: 'e6', params: { gift: 'X-1', recipient: 'abcde', max_price: 'x' } }, 'bad_max_price'],
      [{ type: 'nft', idempotency_key: 'e7', params: { gift: 'X-1', recipient: 'abcde', max_price: '1' } }, 'bad_gift'],
      [{ type: 'stars', idempotency_key: 'e8', params: { quantity: 50, recipient: 'abcde' }, webhook_url: 'ftp://x.com/' }, 'bad_webhook_url'],
      [{ type: 'premium', idempotency_key: 'e9', params: { months: 12, recipient: 'abcde' } }, 'insufficient_balance'],
    ];
    const poor = await t.newPartner({ usd: '10.00', ton: null });
    for (const [body, code] of cases) {
      const r = code === 'insufficient_balance' ? await poor.call('POST', '/orders', body) : await o(body);
      expect(codeOf(r), JSON.stringify(body)).toBe(code);
      conforms('post', '/orders', r);
    }
    const first = await o({ type: 'stars', idempotency_key: 'reuse', params: { quantity: 50, recipient: 'abcde' } });
    expect(first.status).toBe(200);
    conforms('post', '/orders', await o({ type: 'stars', idempotency_key: 'reuse', params: { quantity: 51, recipient: 'abcde' } }));
    await t.admin('PUT', '/sandbox/faults', { ledger_unavailable: true, resolver_error: false });
    conforms('post', '/orders', await o({ type: 'stars', idempotency_key: 'led', params: { quantity: 50, recipient: 'abcde' } }));
    await t.admin('PUT', '/sandbox/faults', { ledger_unavailable: false, resolver_error: true });
    conforms('post', '/orders', await o({ type: 'stars', idempotency_key: 'res', params: { quantity: 50, recipient: 'abcde' } }));
    conforms('post', '/validate/recipient', await p.call('POST', '/validate/recipient', { type: 'stars', username: 'abcde' }));
    await t.admin('PUT', '/sandbox/faults', { resolver_error: false, upstream_unavailable: { stars: true, nft: true } });
    conforms('post', '/orders', await o({ type: 'stars', idempotency_key: 'up', params: { quantity: 50, recipient: 'abcde' } }));
    conforms('post', '/validate/game', await p.call('POST', '/validate/game', { username: 'abcde' }));
    conforms('get', '/nft/collections', await p.call('GET', '/nft/collections'));
    await t.admin('PUT', '/sandbox/faults', { upstream_unavailable: { stars: false, nft: false } });
    const prem = await o({ type: 'premium', idempotency_key: 'd1', params: { months: 3, recipient: 'premium_dup' } });
    expect(prem.status).toBe(200);
    conforms('post', '/orders', await o({ type: 'premium', idempotency_key: 'd2', params: { months: 3, recipient: 'premium_dup' } }));
    for (const [path, url] of [
      ['/orders', '/orders?status=nope'],
      ['/orders', '/orders?limit=9999'],
      ['/orders', '/orders?cursor=bad'],
      ['/orders', '/orders?from=never'],
      ['/orders', '/orders?what=1'],
      ['/nft/gifts', '/nft/gifts'],
      ['/nft/gifts', '/nft/gifts?collection=LootBag&sort=up'],
      ['/nft/gifts', '/nft/gifts?collection=LootBag&cursor=bad'],
      ['/nft/gifts', '/nft/gifts?collection=LootBag&attr_rarity=x'],
      ['/nft/gifts', '/nft/gifts?collection=NoSuch'],
      ['/nft/gifts/{gift}', '/nft/gifts/NoSuch-1'],
      ['/orders/{order_id}', '/orders/PA-1'],
    ] as const) {
      const r = await p.call('GET', url);
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      conforms('get', path, r);
    }
    const limited = await startService({ API_RATE_BURST: '1', API_RATE_LIMIT: '1' });
    try {
      const q = await limited.newPartner();
      await q.call('GET', '/me');
      const r = await q.call('GET', '/me');
      expect(codeOf(r)).toBe('rate_limited');
      conforms('get', '/me', r);
      await limited.admin('PUT', '/settings', { program_available: false });
      conforms('get', '/products', await q.call('GET', '/products'));
    } finally {
      await stopService(limited);
    }
  });
});

describe('when a client is generated from the document', () => {
  it('then it can create and read an order against the running service', async () => {
    const types = astToString(await openapiTS(doc));
    expect(types).toContain('createOrder');
    expect(types).toContain('"/orders/{order_id}"');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = createClient<any>({ baseUrl: `${address}/api/partner/v1`, headers: { Authorization: `Bearer ${p.key}` } });
    const created = await client.POST('/orders', { body: { type: 'stars', idempotency_key: 'generated-client-1', params: { quantity: 50, recipient: '@client_user' } } });
    expect(created.response.status).toBe(200);
    expect((created.data as any).status).toBe('processing');
    const read = await client.GET('/orders/{order_id}', { params: { path: { order_id: (created.data as any).order_id } } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(created.data);
  });
});
