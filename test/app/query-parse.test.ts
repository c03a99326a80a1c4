/**
 * The query strings of the partner API parsed by the zod schemas of src/app/requests/queries.ts (the same
 * that make the OpenAPI document's parameter lists): typed values out, the contract's codes and body
 * formats for what is wrong, in the document's order of parameters.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ApiError, errorBody } from '../../src/domain/errors.js';
import { encodeCursor } from '../../src/app/paging.js';
import { parseRequest, type IssueRules } from '../../src/app/requests/parse.js';
import {
  DELIVERY_LIST_RULES,
  DeliveryListQuery,
  GiftListQuery,
  giftListQuery,
  giftListRules,
  LEDGER_LIST_RULES,
  LedgerListQuery,
  ORDER_LIST_RULES,
  ORDER_READ_RULES,
  OrderListQuery,
  OrderReadQuery,
  STATS_RULES,
  StatsQuery,
} from '../../src/app/requests/queries.js';
import { queryParameters } from '../../src/http/route.js';

function answer(schema: z.ZodType, value: unknown, rules: IssueRules): { ok: unknown } | { status: number; body: unknown } {
  try {
    return { ok: parseRequest(schema, value, rules) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: e.status, body: errorBody(e) };
  }
}
const flat = (code: string, detail: string, extra: Record<string, unknown> = {}) => ({ status: 400, body: { code, detail, ...extra } });

describe('GET /orders (OrderListQuery)', () => {
  it('parses the filters, decodes the cursor and defaults the limit', () => {
    expect(answer(OrderListQuery, { status: 'completed', type: 'nft', from: '2026-03-01', cursor: encodeCursor('o', 41) }, ORDER_LIST_RULES)).toEqual({
      ok: { status: 'completed', type: 'nft', from: Date.UTC(2026, 2, 1), cursor: 41, limit: 50 },
    });
    expect(answer(OrderListQuery, { limit: '200', to: '1700000000' }, ORDER_LIST_RULES)).toEqual({ ok: { limit: 200, to: 1_700_000_000_000 } });
  });
  it.each([
    ['an unknown parameter first', { colour: 'red', status: 'bogus' }, flat('bad_param', 'Unknown query parameter: colour.', { param: 'colour' })],
    ['a parameter given twice', { limit: ['1', '2'] }, flat('bad_param', 'limit is given more than once.', { param: 'limit' })],
    ['a bad status', { status: 'done' }, flat('bad_status', 'status must be one of processing, completed, partial, canceled, failed.')],
    ['a bad type (the nested format)', { type: 'gems' }, { status: 400, body: { detail: { code: 'bad_type', detail: 'type must be one of stars, premium, nft.' } } }],
    ['a bad client_reference', { client_reference: 'a\u0000b' }, flat('bad_param', 'client_reference must be 1 to 128 printable characters.', { param: 'client_reference' })],
    ['a bad from', { from: '2026-02-30' }, flat('bad_time', 'from is not a valid time.')],
    ['a bad to', { to: 'yesterday' }, flat('bad_time', 'to is not a valid time.')],
    ['limit 0', { limit: '0' }, flat('bad_limit', 'limit must be a whole number from 1 to 200.')],
    ['limit 201', { limit: '201' }, flat('bad_limit', 'limit must be a whole number from 1 to 200.')],
    ['limit not digits', { limit: '1e2' }, flat('bad_limit', 'limit must be a whole number from 1 to 200.')],
    ['limit before cursor', { limit: 'x', cursor: 'zz' }, flat('bad_limit', 'limit must be a whole number from 1 to 200.')],
    ['a cursor of another list', { cursor: encodeCursor('e', 3) }, flat('bad_cursor', 'The cursor is invalid.')],
  ])('%s', (_, q, expected) => {
    expect(answer(OrderListQuery, q, ORDER_LIST_RULES)).toEqual(expected);
  });
});

describe('the other lists', () => {
  it('GET /orders/{id}: wait 1..30, other parameters ignored', () => {
    expect(answer(OrderReadQuery, { wait: '30', x: '1' }, ORDER_READ_RULES)).toEqual({ ok: { wait: 30, x: '1' } });
    expect(answer(OrderReadQuery, { wait: '31' }, ORDER_READ_RULES)).toEqual(flat('bad_param', 'wait must be a whole number of seconds from 1 to 30.', { param: 'wait' }));
    expect(answer(OrderReadQuery, { wait: ['1', '2'] }, ORDER_READ_RULES)).toEqual(flat('bad_param', 'wait is given more than once.', { param: 'wait' }));
  });
  it('GET /ledger: currency USD or TON', () => {
    expect(answer(LedgerListQuery, { currency: 'TON' }, LEDGER_LIST_RULES)).toEqual({ ok: { currency: 'TON', limit: 50 } });
    expect(answer(LedgerListQuery, { currency: 'EUR' }, LEDGER_LIST_RULES)).toEqual(flat('bad_param', 'currency must be USD or TON.', { param: 'currency' }));
  });
  it('GET /stats: group_by day only', () => {
    expect(answer(StatsQuery, { group_by: 'week' }, STATS_RULES)).toEqual(flat('bad_param', 'group_by must be day.', { param: 'group_by' }));
    expect(answer(StatsQuery, { cursor: 'x' }, STATS_RULES)).toEqual(flat('bad_param', 'Unknown query parameter: cursor.', { param: 'cursor' }));
  });
  it('GET /webhook-deliveries: event, status, order_id', () => {
    expect(answer(DeliveryListQuery, { status: 'sent' }, DELIVERY_LIST_RULES)).toEqual(flat('bad_status', 'status must be one of pending, delivered, failed.'));
    expect(answer(DeliveryListQuery, { order_id: '' }, DELIVERY_LIST_RULES)).toEqual(flat('bad_param', 'order_id must be 1 to 128 characters.', { param: 'order_id' }));
    expect(answer(DeliveryListQuery, { event: 'order.completed', limit: '5' }, DELIVERY_LIST_RULES)).toEqual({ ok: { event: 'order.completed', limit: 5 } });
  });
  it('GET /nft/gifts: attribute filters under their other names, unknown parameters ignored, collection required', () => {
    const g = giftListQuery({ collection: 'PlushPepe', attr_model: 'Gold', colour: 'red' });
    expect(g).toEqual({ query: { collection: 'PlushPepe', model: 'Gold' }, cameAs: { model: 'attr_model' }, ignored: ['colour'] });
    expect(answer(GiftListQuery, g.query, giftListRules(g.cameAs))).toEqual({ ok: { collection: 'PlushPepe', model: 'Gold', sort: 'price_asc', limit: 20 } });
    const blank = giftListQuery({ collection: 'PlushPepe', 'attr.backdrop': ' ' });
    expect(answer(GiftListQuery, blank.query, giftListRules(blank.cameAs))).toEqual(flat('bad_param', 'attr.backdrop must be given once, non-empty.', { param: 'attr.backdrop' }));
    expect(() => giftListQuery({ attr_colour: 'red' })).toThrow(expect.objectContaining({ code: 'bad_attr', extra: { param: 'attr_colour' } }));
    expect(answer(GiftListQuery, {}, giftListRules({}))).toEqual(flat('collection_required', 'collection is required.'));
    expect(answer(GiftListQuery, { collection: 'A', sort: 'name' }, giftListRules({}))).toEqual(flat('bad_sort', 'sort must be price_asc or price_desc.'));
    expect(answer(GiftListQuery, { collection: 'A', limit: '101' }, giftListRules({}))).toEqual(flat('bad_param', 'limit must be a whole number from 1 to 100.', { param: 'limit' }));
  });
});

describe('the document reads its parameters from the same schemas', () => {
  it('GET /orders: names, order, required, descriptions and schemas', () => {
    expect(queryParameters(OrderListQuery)).toEqual([
      { name: 'status', in: 'query', required: false, description: 'processing, completed, partial, canceled or failed', schema: { type: 'string', enum: ['processing', 'completed', 'partial', 'canceled', 'failed'] } },
      { name: 'type', in: 'query', required: false, description: 'stars, premium or nft', schema: { type: 'string', enum: ['stars', 'premium', 'nft'] } },
      { name: 'client_reference', in: 'query', required: false, description: 'only orders created with exactly this client_reference (1 to 128 printable characters, else 400 bad_param)', schema: { type: 'string', minLength: 1, maxLength: 128 } },
      { name: 'from', in: 'query', required: false, description: 'created at or after: ISO 8601 date or date-time (offset optional), or unix seconds', schema: { type: 'string' } },
      { name: 'to', in: 'query', required: false, description: 'created at or before: same formats as from', schema: { type: 'string' } },
      { name: 'cursor', in: 'query', required: false, description: 'the next_cursor of the previous page', schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, description: 'page size, 1 to 200, default 50', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
    ]);
    expect(queryParameters(GiftListQuery)[0]).toEqual({ name: 'collection', in: 'query', required: true, description: 'collection identifier (required)', schema: { type: 'string' } });
  });
});
