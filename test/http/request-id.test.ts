import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { randomUuid } from '../../src/kernel/ids.js';
import { createLogger } from '../../src/kernel/log.js';
import { ADMIN_TOKEN, startService } from '../helpers.js';

/** A pino logger of the service's own shape whose lines the test reads. */
function capturedLog() {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { log: createLogger('info', sink), lines };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('every answer carries one: a sane incoming id is kept, anything else replaced by a fresh one, and the request log line has it', async () => {
    const { log, lines } = capturedLog();
    const t = await startService({}, { log });
    try {
      const fresh = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers['x-request-id']).toMatch(UUID);
      const other = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(other.headers['x-request-id']).toMatch(UUID);
      expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);

      for (const kept of ['b1946ac9-2f3e-4c1c-9f6a-3e1c2d4b5a69', 'shop-42:order/7@edge', 'A'.repeat(128)]) {
        const r = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': kept } });
        expect(r.headers['x-request-id']).toBe(kept);
      }
      for (const insane of ['', 'two words', 'A'.repeat(129), 'quote"d', 'semi;colon', '<script>', 'ünïcode']) {
        const r = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': insane } });
        expect(r.headers['x-request-id'], JSON.stringify(insane)).toMatch(UUID);
      }

      // errors of every kind carry it: an unknown route, an undecodable URL, a refused token, bad JSON
      const notFound = await t.app.inject({ method: 'GET', url: '/no/such/route', headers: { 'x-request-id': 'trace-404' } });
      expect([notFound.statusCode, notFound.headers['x-request-id']]).toEqual([404, 'trace-404']);
      const badUrl = await t.app.inject({ method: 'GET', url: '/api/partner/v1/orders/%E0%A4%A', headers: { 'x-request-id': 'trace-400' } });
      expect([badUrl.statusCode, badUrl.headers['x-request-id']]).toEqual([400, 'trace-400']);
      const badJson = await t.app.inject({ method: 'POST', url: '/api/admin/v1/partners', payload: '{', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'x-request-id': 'trace-json' } });
      expect([badJson.statusCode, badJson.headers['x-request-id']]).toEqual([400, 'trace-json']);

      const line = lines.find((l) => l.msg === 'request' && l.req_id === 'trace-404');
      expect(line).toMatchObject({ level: 'info', method: 'GET', route: 'unmatched', status: 404 });
      expect(lines.filter((l) => l.msg === 'request' && l.req_id === fresh.headers['x-request-id'])).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('a 500 answer carries the id that its error log line carries', async () => {
    const { log, lines } = capturedLog();
    const t = await startService({}, { log });
    try {
      // an unexpected fault (not a storage fault): the table the operator's writes audit into is gone
      t.db.$client.exec('DROP TABLE audit_log');
      const r = await t.app.inject({ method: 'POST', url: '/api/admin/v1/partners', payload: { name: 'Shop' }, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-request-id': 'trace-500' } });
      expect(r.statusCode).toBe(500);
      expect(r.headers['x-request-id']).toBe('trace-500');
      // the operator API's flat format (operator-api.md section 2)
      expect(JSON.parse(r.body)).toEqual({ code: 'internal_error', detail: 'Internal error. The request may be retried.' });
      // the body never shows the fault; the log does, under the same id
      expect(r.body).not.toMatch(/audit_log/);
      const err = lines.find((l) => l.msg === 'request failed');
      expect(err).toMatchObject({ level: 'error', req_id: 'trace-500', err: { message: expect.stringMatching(/audit_log/), stack: expect.any(String) } });
      expect(lines.find((l) => l.msg === 'request' && l.req_id === 'trace-500')).toMatchObject({ status: 500 });

      // a generated id is the one logged too
      const again = await t.app.inject({ method: 'POST', url: '/api/admin/v1/partners', payload: { name: 'Shop' }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(again.statusCode).toBe(500);
      expect(lines.filter((l) => l.msg === 'request failed').map((l) => l.req_id)).toEqual(['trace-500', again.headers['x-request-id']]);
    } finally {
      await t.close();
    }
  });
});

describe('WWW-Authenticate', () => {
  it('every 401 says how to authenticate: Bearer for keys and tokens, tma for the Mini App', async () => {
    const t = await startService({ METRICS_TOKEN: 'metrics_token_0123456789abcdef' });
    try {
      const cases: [string, string, Record<string, string>, string][] = [
        ['GET', '/api/partner/v1/me', {}, 'Bearer'],
        ['GET', '/api/partner/v1/me', { authorization: 'Bearer pk_live_made_up_0123456789' }, 'Bearer'],
        ['GET', '/api/admin/v1/reviews', { authorization: 'Bearer wrong_operator_token_0123' }, 'Bearer'],
        ['GET', '/metrics', {}, 'Bearer'],
        ['GET', '/api/app/v1/session', {}, 'tma'],
      ];
      for (const [method, url, headers, scheme] of cases) {
        const r = await t.app.inject({ method: method as 'GET', url, headers });
        expect([url, r.statusCode, r.headers['www-authenticate']]).toEqual([url, 401, scheme]);
      }
      // other answers do not carry it
      const ok = await t.app.inject({ method: 'GET', url: '/api/admin/v1/reviews', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['www-authenticate']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('fresh request ids', () => {
  it('are random version 4 UUIDs, all different, across the batches they are drawn in', () => {
    const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const ids = Array.from({ length: 5000 }, () => randomUuid());
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
    // every hex digit of the random part turns up in every position (a stuck or skipped digit would not)
    const hex = ids.map((id) => id.replace(/-/g, ''));
    for (const pos of [0, 5, 13, 17, 31]) expect(new Set(hex.map((h) => h[pos])).size, `position ${pos}`).toBe(16);
    // the variant digit takes its four values
    expect(new Set(hex.map((h) => h[16]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });
});
