import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import { silentLogger } from '../src/kernel/log.js';
import { createService, type Service } from '../src/service.js';
import type { Logger } from '../src/kernel/log.js';
import type { Ids } from '../src/kernel/ids.js';
import type { GiftGateway } from '../src/suppliers/telegram-gifts/gateway.js';
import { conformanceHook, webhookProblems } from './openapi-conformance.js';

/**
 * Test harness: the real service on a real SQLite file in a temp folder, driven through HTTP with
 * `app.inject`. Real time is frozen (START), so only `advance()` moves the service clock.
 */
/** A test-friendly config: defaults plus overrides (no demo partner). */
export { testConfig } from './test-config.js';
import { testConfig } from './test-config.js';

export const ADMIN_TOKEN = 'adm_test_token_0123456789abcdef';
export const START = Date.parse('2026-03-01T12:00:00Z');

export interface Res {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  raw: string;
}

export interface TestService extends Service {
  dir: string;
  /** Answers of the partner API that the OpenAPI document does not describe (test/openapi-conformance.ts). */
  conformance: string[];
  env: Record<string, string>;
  admin(method: string, url: string, body?: unknown): Promise<Res>;
  partnerCall(key: string, method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  advance(seconds: number): Promise<Res>;
  newPartner(opts?: { usd?: string | null; ton?: string | null; webhookUrl?: string; ipWhitelist?: string[] }): Promise<TestPartner>;
}

export interface TestPartner {
  id: number;
  key: string;
  secret?: string;
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  order(type: string, params: Record<string, unknown>, key?: string, extra?: Record<string, unknown>): Promise<Res>;
}

let txCounter = 0;
let keyCounter = 0;

/** An inject answer as a Res (body parsed when it is JSON). */
export function toRes(r: { statusCode: number; headers: Res['headers']; body: string }): Res {
  let body: any = null;
  try {
    body = r.body ? JSON.parse(r.body) : null;
  } catch {
    body = null;
  }
  return { status: r.statusCode, headers: r.headers, body, raw: r.body };
}

/** The error code by the contract's reliable parsing rule: `detail` object first, else the root. */
export function codeOf(r: Res): string | undefined {
  const b = r.body;
  if (!b || typeof b !== 'object') return undefined;
  return typeof b.detail === 'object' && b.detail !== null ? b.detail.code : b.code;
}

export async function startService(env: Record<string, string> = {}, opts: { dir?: string; workers?: boolean; realNow?: () => number; log?: Logger; ids?: Ids; giftGateway?: GiftGateway } = {}): Promise<TestService> {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pos-test-'));
  const fullEnv = { DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN, WEBHOOK_ALLOW_SUBNETS: '127.0.0.2/32', ...env };
  const conformance: string[] = [];
  const svc = await createService({
    config: testConfig(fullEnv),
    log: opts.log ?? silentLogger,
    realNow: opts.realNow ?? (() => START),
    startWorkers: opts.workers ?? false,
    giftGateway: opts.giftGateway,
    instrumentHttp: conformanceHook(conformance),
    ...(opts.ids ? { ids: opts.ids } : {}),
  });
  const inject = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = toRes(
      await svc.app.inject({
        method: method as any,
        url,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
    assertConforms(conformance);
    return r;
  };
  const t: TestService = Object.assign(svc, {
    dir,
    conformance,
    env: fullEnv,
    admin: (method: string, url: string, body?: unknown) => inject(method, `/api/admin/v1${url}`, body, { authorization: `Bearer ${ADMIN_TOKEN}` }),
    partnerCall: (key: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
      inject(method, `/api/partner/v1${url}`, body, { authorization: `Bearer ${key}`, ...headers }),
    advance: (seconds: number) => inject('POST', '/api/admin/v1/sandbox/clock/advance', { seconds }, { authorization: `Bearer ${ADMIN_TOKEN}` }),
    async newPartner(o: { usd?: string | null; ton?: string | null; webhookUrl?: string; ipWhitelist?: string[] } = {}) {
      const p = await t.admin('POST', '/partners', { name: 'Test partner' });
      if (p.status !== 201) throw new Error(`create partner: ${p.raw}`);
      const id = p.body.partner_id as number;
      const usd = o.usd === undefined ? '1000.00' : o.usd;
      const ton = o.ton === undefined ? '1000.000' : o.ton;
      for (const [currency, amount] of [['USD', usd], ['TON', ton]] as const) {
        if (amount === null) continue;
        const r = await t.admin('POST', `/partners/${id}/topups`, { currency, amount, network: 'ton', tx_hash: `tx-${process.pid}-${++txCounter}` });
        if (r.status !== 201) throw new Error(`topup: ${r.raw}`);
      }
      const k = await t.admin('POST', `/partners/${id}/keys`, o.ipWhitelist ? { ip_whitelist: o.ipWhitelist } : {});
      if (k.status !== 201) throw new Error(`key: ${k.raw}`);
      let secret: string | undefined;
      if (o.webhookUrl !== undefined) {
        const w = await t.admin('PUT', `/partners/${id}/webhook`, { url: o.webhookUrl });
        if (w.status !== 200) throw new Error(`webhook: ${w.raw}`);
        secret = w.body.secret;
      }
      const key = k.body.api_key as string;
      return {
        id,
        key,
        secret,
        call: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => t.partnerCall(key, method, url, body, headers),
        order: (type: string, params: Record<string, unknown>, idem?: string, extra: Record<string, unknown> = {}) =>
          t.partnerCall(key, 'POST', '/orders', { type, idempotency_key: idem ?? `k-${process.pid}-${++keyCounter}`, params, ...extra }),
      };
    },
  });
  return t;
}

export async function stopService(t: TestService | undefined, removeDir = true): Promise<void> {
  if (!t) return;
  checkWebhookBodies(t);
  await t.close();
  if (removeDir) fs.rmSync(t.dir, { recursive: true, force: true });
  assertConforms(t.conformance); // answers of requests made around the helpers (app.inject, a real port)
}

/** Every webhook body the test made (the `events` outbox) against the documented callbacks. */
function checkWebhookBodies(t: TestService): void {
  let rows: { event: string; body: string }[];
  try {
    rows = t.db.$client.prepare('select event, body from events').all() as { event: string; body: string }[];
  } catch {
    return; // the database is already closed (a test that stopped the service itself)
  }
  for (const r of rows) t.conformance.push(...webhookProblems(r.event, r.body));
}

/** Fails with the answers the OpenAPI document does not describe (each reported once). */
export function assertConforms(violations: string[]): void {
  if (violations.length) throw new Error(`responses drift from the OpenAPI document:\n${violations.splice(0).join('\n')}`);
}

/** An operator API refusal in the flat format `{code, detail}`: the status, the code and a detail. */
export function expectFlatError(r: Res, status: number, code: string): void {
  expect(r.status, r.raw).toBe(status);
  expect(codeOf(r)).toBe(code);
  expect(r.body).toMatchObject({ code, detail: expect.any(String) });
}

/** Advances the clock step by step until the order leaves `processing` (or the budget runs out). */
export async function settleOrder(t: TestService, p: TestPartner, orderId: string, stepSeconds = 5, maxSteps = 50): Promise<any> {
  let last: Res | undefined;
  for (let i = 0; i < maxSteps; i++) {
    last = await p.call('GET', `/orders/${orderId}`);
    if (last.body?.status !== 'processing') return last.body;
    await t.advance(stepSeconds);
  }
  return last?.body;
}

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/** What the receiver answers to one request: a status, never, or a status after a real pause (a slow receiver). */
export type ReceiverAnswer = number | 'hang' | { status: number; delayMs: number };

/** A real HTTP webhook receiver on 127.0.0.2 answering scripted statuses (200 when the script is empty). */
export async function startReceiver(host = '127.0.0.2'): Promise<{ url: string; port: number; requests: Received[]; script: ReceiverAnswer[]; close(): Promise<void> }> {
  const requests: Received[] = [];
  const script: ReceiverAnswer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method!, path: req.url!, headers: req.headers, raw: Buffer.concat(chunks) });
      const next = script.shift() ?? 200;
      if (next === 'hang') return; // never answer
      const status = typeof next === 'number' ? next : next.status;
      const answer = () => {
        if (status >= 300 && status < 400) res.setHeader('Location', `http://${host}:${port}/redirected`);
        res.writeHead(status);
        res.end();
      };
      if (typeof next === 'number') answer();
      else setTimeout(answer, next.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/hook`,
    port,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A free local TCP port (for tests that run the service as a real process). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** Services, receivers and clean-ups made by a test, all closed after each test of the file. */
export function perTest() {
  const services: TestService[] = [];
  const receivers: Receiver[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const t of services.splice(0)) await stopService(t);
    for (const r of receivers.splice(0)) await r.close();
    for (const c of cleanups.splice(0)) await c();
  });
  return {
    async service(env: Record<string, string> = {}): Promise<TestService> {
      const t = await startService(env);
      services.push(t);
      return t;
    },
    async receiver(): Promise<Receiver> {
      const r = await startReceiver();
      receivers.push(r);
      return r;
    },
    cleanup(fn: () => Promise<void> | void): void {
      cleanups.push(fn);
    },
  };
}

/** One request header as a string. */
export function hdr(r: Received, name: string): string | undefined {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
