/**
 * Issue 15 point 1: `client_reference` on POST /orders: validated (400 validation_error naming the
 * field), stored, part of the idempotency fingerprint, in every order view and webhook body (null when
 * absent), and a filter of GET /orders.
 */
import { describe, expect, it } from 'vitest';
import { codeOf, hdr, perTest } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service, receiver } = perTest();

describe('client_reference on POST /orders', () => {
  it('is stored and returned by the creation, GET /orders/{id}, the list and the webhook bodies; null when absent', async () => {
    const t = await service();
    const r = await receiver();
    const p = await t.newPartner({ webhookUrl: r.url });
    const withRef = await p.order('stars', { quantity: 100, recipient: '@ref_user' }, 'ref-1', { client_reference: 'shop #8841 — Zoë' });
    expect(withRef.status, withRef.raw).toBe(200);
    expect(withRef.body.client_reference).toBe('shop #8841 — Zoë');
    const without = await p.order('stars', { quantity: 100, recipient: 'failstars_ref' }, 'ref-2');
    expect(without.status, without.raw).toBe(200);
    expect(without.body.client_reference).toBeNull();
    expect('client_reference' in without.body).toBe(true);

    const read = await p.call('GET', `/orders/${withRef.body.order_id}`);
    expect(read.body).toEqual(withRef.body);
    const list = await p.call('GET', '/orders');
    expect(list.body.items.map((o: any) => o.client_reference)).toEqual([null, 'shop #8841 — Zoë']);

    await t.advance(5);
    const bodies = r.requests.map((q) => ({ event: hdr(q, 'x-webhook-event'), body: JSON.parse(q.raw.toString('utf8')) }));
    const completed = bodies.find((b) => b.event === 'order.completed')!;
    expect(completed.body.data.client_reference).toBe('shop #8841 — Zoë');
    const failed = bodies.find((b) => b.event === 'order.failed')!;
    expect(failed.body.order_id).toBe(without.body.order_id);
    expect(failed.body.data.client_reference).toBeNull();
    const refunded = bodies.find((b) => b.event === 'order.refunded')!;
    expect(refunded.body.data).toEqual({ order_id: without.body.order_id, refund_amount: Number(without.body.partner_price), reason: 'stars_failed', currency: 'USD', client_reference: null });
  });

  it('is refused with 400 validation_error naming the field when too long, empty, not a string or not printable; nothing is debited', async () => {
    const t = await service();
    const p = await t.newPartner({ usd: '100.00' });
    const bad: unknown[] = ['x'.repeat(129), '', 'tab\there', 'line\nbreak', 'bell\u0007', 'zero\u200bwidth', 'sep\u2028', 42, ['a'], { a: 1 }];
    for (const [i, ref] of bad.entries()) {
      const res = await p.order('stars', { quantity: 100, recipient: '@ref_user' }, `bad-${i}`, { client_reference: ref });
      expect(res.status, JSON.stringify(ref)).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.field).toBe('client_reference');
      expect(res.body.detail).toContain('client_reference');
    }
    expect((await p.call('GET', '/me')).body.balance).toBe('100.00');
    expect((await p.call('GET', '/orders')).body.count).toBe(0);
    // the bounds themselves are accepted: 128 characters (counted as characters, not UTF-16 units), null
    const max = await p.order('stars', { quantity: 100, recipient: '@ref_user' }, 'ok-1', { client_reference: '😀'.repeat(128) });
    expect(max.status, max.raw).toBe(200);
    expect(max.body.client_reference).toBe('😀'.repeat(128));
    const nul = await p.order('stars', { quantity: 100, recipient: '@ref_user' }, 'ok-2', { client_reference: null });
    expect(nul.status).toBe(200);
    expect(nul.body.client_reference).toBeNull();
  });

  it('is part of the idempotency fingerprint: the same key with another reference is 409 idempotency_key_reuse, the same one replays', async () => {
    const t = await service();
    const p = await t.newPartner({ usd: '100.00' });
    const params = { quantity: 100, recipient: '@ref_user' };
    const first = await p.order('stars', params, 'idem-ref', { client_reference: 'A-1' });
    expect(first.status).toBe(200);
    const replay = await p.order('stars', params, 'idem-ref', { client_reference: 'A-1' });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    for (const other of [{ client_reference: 'A-2' }, {}, { client_reference: null }]) {
      const r = await p.order('stars', params, 'idem-ref', other);
      expect(r.status, JSON.stringify(other)).toBe(409);
      expect(codeOf(r)).toBe('idempotency_key_reuse');
    }
    // without a reference, absent and null are the same request
    const plain = await p.order('stars', params, 'idem-plain');
    expect((await p.order('stars', params, 'idem-plain', { client_reference: null })).body).toEqual(plain.body);
    expect(codeOf(await p.order('stars', params, 'idem-plain', { client_reference: 'late' }))).toBe('idempotency_key_reuse');
    const entries = t.db.$client.prepare("select count(*) as n from ledger_entries where partner_id = ? and kind = 'order_debit'").get(p.id) as { n: number };
    expect(entries.n).toBe(2);
  });

  it('filters GET /orders exactly, with paging, only the partner\'s own orders; a bad filter is 400 bad_param', async () => {
    const t = await service();
    const p = await t.newPartner();
    const q = await t.newPartner();
    for (let i = 0; i < 3; i++) expect((await p.order('stars', { quantity: 50, recipient: '@ref_user' }, `f-${i}`, { client_reference: 'batch 7' })).status).toBe(200);
    await p.order('stars', { quantity: 50, recipient: '@ref_user' }, 'f-x', { client_reference: 'batch 70' });
    await p.order('stars', { quantity: 50, recipient: '@ref_user' }, 'f-y');
    await q.order('stars', { quantity: 50, recipient: '@ref_user' }, 'f-q', { client_reference: 'batch 7' });
    const page1 = await p.call('GET', `/orders?client_reference=${encodeURIComponent('batch 7')}&limit=2`);
    expect(page1.status, page1.raw).toBe(200);
    expect(page1.body.count).toBe(2);
    expect(page1.body.items.every((o: any) => o.client_reference === 'batch 7')).toBe(true);
    const page2 = await p.call('GET', `/orders?client_reference=${encodeURIComponent('batch 7')}&limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body.count).toBe(1);
    expect(page2.body.next_cursor).toBeNull();
    const ids = [...page1.body.items, ...page2.body.items].map((o: any) => o.order_id);
    expect(ids).toEqual(['PA-100003', 'PA-100002', 'PA-100001']);
    expect((await p.call('GET', '/orders?client_reference=none')).body).toEqual({ items: [], count: 0, next_cursor: null });
    for (const bad of ['', 'x'.repeat(129), '%07']) {
      const r = await p.call('GET', `/orders?client_reference=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.code).toBe('bad_param');
      expect(r.body.param).toBe('client_reference');
    }
  });
});

describe('client_reference in the OpenAPI document and the generated client', () => {
  it('is documented on the request, the order, the refund event and the list filter; live answers conform; a generated client sends and filters it', async () => {
    const t = await service();
    const p = await t.newPartner();
    const d = await documentOf(t);
    expect(d.doc.components.schemas.StarsOrderRequest.properties.client_reference).toBeDefined();
    expect(d.doc.components.schemas.Order.required).toContain('client_reference');
    expect(d.doc.components.schemas.WebhookOrder.required).toContain('client_reference');
    expect(d.doc.components.schemas.RefundEvent.properties.data.required).toContain('client_reference');
    expect(d.doc.paths['/orders'].get.parameters.map((x: any) => x.name)).toContain('client_reference');
    expect(d.doc.paths['/orders'].post.responses['400'].content['application/json'].examples.validation_error.value.field).toBe('client_reference');

    const made = await p.order('stars', { quantity: 50, recipient: '@doc_ref' }, 'doc-1', { client_reference: 'doc ref' });
    expect(d.violations('post', '/orders', made)).toEqual([]);
    expect(d.violations('post', '/orders', await p.order('stars', { quantity: 50, recipient: '@doc_ref' }, 'doc-2'))).toEqual([]);
    const bad = await p.order('stars', { quantity: 50, recipient: '@doc_ref' }, 'doc-3', { client_reference: '' });
    expect(bad.status).toBe(400);
    expect(d.violations('post', '/orders', bad)).toEqual([]);
    expect(d.violations('get', '/orders', await p.call('GET', '/orders?client_reference=doc%20ref'))).toEqual([]);
    expect(d.violations('get', '/orders', await p.call('GET', '/orders?client_reference='))).toEqual([]);
    // a drifting answer is caught
    expect(d.violations('post', '/orders', { ...made, body: { ...made.body, client_reference: 5 } })).not.toEqual([]);

    const types = await d.generatedTypes();
    expect(types).toMatch(/client_reference\?: string \| null/);
    const client = await d.client(p);
    const created = await client.POST('/orders', { body: { type: 'stars', idempotency_key: 'gen-ref', client_reference: 'gen ref', params: { quantity: 50, recipient: '@gen_ref' } } });
    expect(created.response.status).toBe(200);
    expect((created.data as any).client_reference).toBe('gen ref');
    const listed = await client.GET('/orders', { params: { query: { client_reference: 'gen ref' } } });
    expect((listed.data as any).items.map((o: any) => o.order_id)).toEqual([(created.data as any).order_id]);
  });
});
