import { Ajv } from 'ajv';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startService, stopService, type TestPartner, type TestService } from '../helpers.js';
import { conformanceHook, conformanceProblems, DOC } from '../openapi-conformance.js';

/**
 * The OpenAPI document says exactly what the service does: POST /orders is a union chosen by
 * `type`; request bodies accept and ignore unknown fields, in the document and in the service; nullable
 * fields are plain nullable types; errors with extra fields have typed schemas; Retry-After is declared
 * wherever it is sent. Every answer of the test traffic is checked by the hook of test/openapi-conformance.ts.
 */
let t: TestService;
let p: TestPartner;
let doc: any;
const ajv = new Ajv({ strict: false, allErrors: true });

beforeAll(async () => {
  t = await startService({ API_RATE_LIMIT: '100000', API_RATE_BURST: '100000', VALIDATE_RECIPIENT_RATE_LIMIT: '100000' });
  p = await t.newPartner({ usd: '100.00' });
  doc = (await t.app.inject({ method: 'GET', url: '/api/partner/v1/openapi.json' })).json();
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
afterAll(() => stopService(t));

const schema = (name: string) => doc.components.schemas[name];
const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const requestValidator = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` });

/** Every schema object in a value, with the path that leads to it. */
function* walk(v: unknown, at = ''): Generator<[string, any]> {
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* walk(v[i], `${at}/${i}`);
  else if (v && typeof v === 'object') {
    yield [at, v];
    for (const [k, x] of Object.entries(v)) yield* walk(x, `${at}/${k}`);
  }
}

/** The schemas a request schema reaches through $ref, itself included. */
function reachable(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const [, o] of walk(schema(name))) if (typeof o.$ref === 'string') reachable(o.$ref.split('/').pop(), seen);
  return seen;
}

describe('when the document describes POST /orders', () => {
  it('then the body is a oneOf of three request schemas with a discriminator on type', () => {
    expect(doc.paths['/orders'].post.requestBody.content['application/json'].schema).toEqual(refTo('OrderRequest'));
    expect(schema('OrderRequest').oneOf).toEqual([refTo('StarsOrderRequest'), refTo('PremiumOrderRequest'), refTo('NftOrderRequest')]);
    expect(schema('OrderRequest').discriminator).toEqual({
      propertyName: 'type',
      mapping: { stars: '#/components/schemas/StarsOrderRequest', premium: '#/components/schemas/PremiumOrderRequest', nft: '#/components/schemas/NftOrderRequest' },
    });
    for (const [name, type, params] of [['StarsOrderRequest', 'stars', 'StarsParams'], ['PremiumOrderRequest', 'premium', 'PremiumParams'], ['NftOrderRequest', 'nft', 'NftParams']]) {
      expect(schema(name).properties.type).toEqual({ type: 'string', enum: [type] });
      expect(schema(name).properties.params).toEqual(refTo(params));
      expect(schema(name).required).toEqual(expect.arrayContaining(['type', 'idempotency_key', 'params']));
    }
  });

  it('then a body the validator refuses is refused by the service too, and one it accepts is accepted', async () => {
    const valid = requestValidator('OrderRequest');
    const cases: [unknown, number, string | null][] = [
      [{ type: 'stars', idempotency_key: 'c-1', params: { months: 3, recipient: 'mixed_up' } }, 400, 'bad_quantity'],
      [{ type: 'premium', idempotency_key: 'c-2', params: { quantity: 100, recipient: 'mixed_up' } }, 400, 'bad_months'],
      [{ type: 'nft', idempotency_key: 'c-3', params: { quantity: 100, recipient: 'mixed_up' } }, 400, 'bad_max_price'],
      [{ type: 'stars', idempotency_key: 'c-4', params: { quantity: 50, recipient: 'mixed_up' } }, 200, null],
      [{ type: 'premium', idempotency_key: 'c-5', params: { months: 3, recipient: 'mixed_up' } }, 200, null],
    ];
    for (const [body, status, code] of cases) {
      expect(valid(body), JSON.stringify(body)).toBe(status === 200);
      const r = await p.call('POST', '/orders', body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      if (code) expect(codeOf(r)).toBe(code);
    }
  });
});

describe('when a request body carries fields the interface does not know', () => {
  it('then the document allows them: no request schema says additionalProperties false', () => {
    const requests = new Set<string>();
    for (const name of ['OrderRequest', 'ValidateRecipientRequest', 'ValidateGameRequest']) for (const s of reachable(name)) requests.add(s);
    expect([...requests].sort()).toEqual(
      ['NftOrderRequest', 'NftParams', 'OrderRequest', 'PremiumOrderRequest', 'PremiumParams', 'StarsOrderRequest', 'StarsParams', 'ValidateGameRequest', 'ValidateRecipientRequest'],
    );
    for (const name of requests) for (const [at, o] of walk(schema(name))) expect(o.additionalProperties, `${name}${at}`).not.toBe(false);
    for (const [path, ops] of Object.entries<any>(doc.paths))
      for (const op of Object.values<any>(ops)) if (op.requestBody) expect(op.requestBody.content['application/json'].schema.$ref, path).toMatch(/Request$/);
  });

  it('then the service accepts and ignores them, at the root and in params, and the validator agrees', async () => {
    const valid = requestValidator('OrderRequest');
    const plain = { type: 'stars', idempotency_key: 'u-1', params: { quantity: 50, recipient: 'extra_fields' } };
    const extra = { ...plain, idempotency_key: 'u-2', note: 'for my records', metadata: { shop: 7 }, params: { ...plain.params, colour: 'blue' } };
    expect(valid(extra)).toBe(true);
    const a = await p.call('POST', '/orders', plain);
    const b = await p.call('POST', '/orders', extra);
    expect(b.status).toBe(200);
    const { order_id: _a, created_at: _ca, ...sameA } = a.body;
    const { order_id: _b, created_at: _cb, ...sameB } = b.body;
    expect(sameB).toEqual(sameA);
    expect(Object.keys(b.body)).not.toContain('note');
    // replaying the same body returns the same order
    expect((await p.call('POST', '/orders', extra)).body.order_id).toBe(b.body.order_id);
    const v = await p.call('POST', '/validate/recipient', { type: 'stars', username: 'extra_fields', locale: 'en' });
    expect(v.status).toBe(200);
    expect(requestValidator('ValidateRecipientRequest')({ type: 'stars', username: 'extra_fields', locale: 'en' })).toBe(true);
    const g = await p.call('POST', '/validate/game', { username: 'extra_fields', platform: 'x' });
    expect(g.status).toBe(200);
    expect(requestValidator('ValidateGameRequest')({ username: 'extra_fields', platform: 'x' })).toBe(true);
  });
});

describe('when the document describes nullable fields', () => {
  it('then they are plain nullable types, and no schema anywhere uses enum [null]', () => {
    for (const [at, o] of walk(doc)) if (Array.isArray(o.enum)) expect(o.enum, at).not.toContain(null);
    const fields = [
      schema('PartnerAccount').properties.limits.properties.nft_max_order_ton,
      schema('Catalog').properties.nft.properties.max_order_ton,
      schema('Order').properties.retail,
      schema('GiftQuote').properties.max_order_price,
    ];
    for (const f of fields) {
      expect(f).toMatchObject({ type: 'string', nullable: true });
      expect(f.enum).toBeUndefined();
    }
    const validate = ajv.compile({ $ref: 'doc#/components/schemas/Order' });
    const order = { order_id: 'PA-1', type: 'stars', status: 'processing', partner_price: '1.00', currency: 'USD', retail: null, quantity: 50, recipient: 'x', label: 'x', created_at: '2026-03-01T12:00:00.000000', completed_at: null, refunded: false, client_reference: null };
    expect(validate(order)).toBe(true);
    expect(validate({ ...order, retail: 5 })).toBe(false);
  });
});

describe('when errors carry extra fields or a Retry-After header', () => {
  it('then each such code has a typed schema, used by the statuses that answer it', () => {
    const typed: Record<string, [string, string[]]> = {
      InsufficientBalanceError: ['insufficient_balance', ['code', 'detail', 'currency', 'balance']],
      PriceChangedError: ['price_changed', ['code', 'detail', 'current_price', 'currency']],
      ResolverError: ['resolver_error', ['code', 'detail', 'retry_after']],
      BadQuantityError: ['bad_quantity', ['code', 'detail', 'min', 'max']],
      BadWebhookUrlError: ['bad_webhook_url', ['code', 'detail', 'reason']],
      ValidationError: ['validation_error', ['code', 'detail']],
    };
    for (const [name, [code, required]] of Object.entries(typed)) {
      expect(schema(name).properties.code, name).toEqual({ type: 'string', enum: [code] });
      expect(schema(name).required, name).toEqual(required);
      expect(schema(name).additionalProperties, name).toBe(false);
    }
    expect(schema('ValidationError').properties.field).toEqual(expect.objectContaining({ type: 'string' }));
    const su = schema('StorageUnavailableError');
    expect(su.required).toEqual(['detail', 'reason']);
    expect(su.properties.detail.required).toEqual(['code', 'detail', 'reason']);
    expect(su.properties.reason.enum).toEqual(['disk_full', 'io_error', 'read_only', 'busy']);
    expect(schema('BadParamError').properties.code.enum).toEqual(['bad_param', 'bad_attr']);
    expect(schema('BadParamError').required).toEqual(['code', 'detail', 'param']);
    expect(schema('ProductUnavailableError').required).toEqual(['code', 'detail', 'reason']);
    expect(schema('ProductUnavailableError').properties.retry_after).toEqual(expect.objectContaining({ type: 'integer' }));
    const rl = schema('RateLimitedError');
    expect(rl.required).toEqual(['detail', 'scope', 'limit', 'window_seconds', 'retry_after']);
    expect(rl.properties.detail.required).toEqual(['code', 'detail', 'scope', 'limit', 'window_seconds', 'retry_after']);
    const post = doc.paths['/orders'].post.responses;
    const branches = (r: any) => (r.content['application/json'].schema.oneOf ?? [r.content['application/json'].schema]).map((s: any) => s.$ref ?? 'plain');
    expect(branches(post['402'])).toEqual(['#/components/schemas/InsufficientBalanceError']);
    expect(branches(post['409'])).toEqual(['#/components/schemas/PriceChangedError', 'plain']);
    expect(branches(post['400'])).toEqual(['#/components/schemas/ValidationError', '#/components/schemas/BadQuantityError', '#/components/schemas/BadWebhookUrlError', 'plain', 'plain']);
    expect(branches(post['429'])).toEqual(['#/components/schemas/RateLimitedError']);
    expect(branches(post['502'])).toEqual(['#/components/schemas/ResolverError']);
    expect(branches(post['503'])).toEqual(['#/components/schemas/ProductUnavailableError', '#/components/schemas/StorageUnavailableError', 'plain']);
    expect(JSON.stringify(doc.paths['/orders'].get.responses)).not.toContain('StorageUnavailableError'); // reads never need a write
    expect(branches(doc.paths['/orders'].get.responses['400'])).toEqual(['#/components/schemas/BadParamError', 'plain', 'plain']); // bad_type is nested
    // flat bad_sort, bad_cursor … and nested bad_request (a URL that cannot be decoded)
    expect(branches(doc.paths['/nft/gifts'].get.responses['400'])).toEqual(['#/components/schemas/BadParamError', 'plain', 'plain']);
  });

  it('then 502 resolver_error sends Retry-After equal to retry_after, and the document declares it', async () => {
    await t.admin('PUT', '/sandbox/faults', { resolver_error: true });
    try {
      for (const [path, body] of [
        ['/orders', { type: 'stars', idempotency_key: 'r-502', params: { quantity: 50, recipient: 'resolver_down' } }],
        ['/validate/recipient', { type: 'stars', username: 'resolver_down' }],
      ] as const) {
        const r = await p.call('POST', path, body);
        expect(r.status, path).toBe(502);
        expect(r.body).toEqual({ code: 'resolver_error', detail: expect.any(String), retry_after: 30 });
        expect(r.headers['retry-after']).toBe('30');
        expect(doc.paths[path].post.responses['502'].headers['Retry-After'].schema).toEqual({ type: 'integer' });
      }
    } finally {
      await t.admin('PUT', '/sandbox/faults', { resolver_error: false });
    }
    for (const [path, ops] of Object.entries<any>(doc.paths))
      for (const [m, op] of Object.entries<any>(ops))
        for (const status of ['429', '502']) if (op.responses[status]) expect(op.responses[status].headers?.['Retry-After'], `${m} ${path} ${status}`).toBeDefined();
  });
});

describe('when the test app answers', () => {
  it('then the hook checks every answer against the served document', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/api/partner/v1/openapi.json' })).json();
    expect({ ...served, servers: [] }).toEqual({ ...DOC, servers: [] });
    expect(t.conformance).toEqual([]);
  });

  it('then a drifting answer is reported: a field of the wrong type, an undocumented status, an undeclared Retry-After', async () => {
    const violations: string[] = [];
    const app = Fastify();
    conformanceHook(violations)(app);
    app.get('/api/partner/v1/me', async () => ({ ...(await p.call('GET', '/me')).body, balance: 100 }));
    app.get('/api/partner/v1/orders/:id', async (_req, reply) => reply.code(418).send({ code: 'teapot', detail: 'x' }));
    app.get('/api/partner/v1/products', async (_req, reply) => reply.header('Retry-After', '5').send((await p.call('GET', '/products')).body));
    app.get('/api/partner/v1/nft/collections', async (_req, reply) => reply.code(503).send({ code: 'product_unavailable', detail: 'x', reason: 'other' }));
    app.get('/elsewhere', async () => ({ anything: true }));
    for (const url of ['/api/partner/v1/me', '/api/partner/v1/orders/PA-1', '/api/partner/v1/products', '/api/partner/v1/nft/collections', '/elsewhere']) await app.inject({ method: 'GET', url });
    await app.close();
    expect(violations).toEqual([
      expect.stringMatching(/^GET \/me 200: .*balance/),
      expect.stringMatching(/^GET \/orders\/\{order_id\} 418: status 418 is not documented/),
      'GET /products 200: sends Retry-After, which is not declared',
      expect.stringMatching(/^GET \/nft\/collections 503: /),
    ]);
    expect(conformanceProblems('GET', '/api/partner/v1/me', 200, { 'content-type': 'application/json' }, (await p.call('GET', '/me')).raw)).toEqual([]);
  });
});
