import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, freePort, startReceiver, startService, stopService } from '../helpers.js';
import { startProcess } from './service-process.js';

/**
 * OpenTelemetry traces: the real process exports to a local OTLP/HTTP receiver (this test's own server, which
 * decodes the JSON export); without an endpoint the SDK is never loaded.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

interface Span {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP receiver of traces (JSON encoding, as @opentelemetry/exporter-trace-otlp-http sends). */
async function otlpReceiver() {
  const spans: Span[] = [];
  const resources: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        const doc = JSON.parse(body) as { resourceSpans: { resource: { attributes: Attr[] }; scopeSpans: { spans: (Omit<Span, 'attributes'> & { attributes?: Attr[] })[] }[] }[] };
        for (const rs of doc.resourceSpans) {
          resources.push(attrs(rs.resource.attributes));
          for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, attributes: attrs(s.attributes ?? []) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, spans, resources, close: () => new Promise((r) => server.close(r)) };
}
type Attr = { key: string; value: Record<string, unknown> };
const attrs = (list: Attr[]) => Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));

async function until<T>(what: string, fn: () => T | undefined, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const v = fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('traces', { timeout: 120_000 }, () => {
  it('with OTEL_EXPORTER_OTLP_ENDPOINT the service exports the request (with its request id), the order’s job, the supplier call and the webhook delivery (with the order id)', async () => {
    const otlp = await otlpReceiver();
    cleanups.push(otlp.close);
    const hook = await startReceiver('127.0.0.1');
    cleanups.push(hook.close);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-otel-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const p = startProcess(dir, {
      PORT: String(await freePort()),
      DATABASE_PATH: path.join(dir, 'service.db'),
      ADMIN_TOKEN,
      SANDBOX_DEMO: '0',
      WEBHOOK_ALLOW_SUBNETS: '127.0.0.0/8',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: 'partner-service-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    cleanups.push(() => p.kill());
    await p.ready();
    const admin = (method: string, url: string, body?: unknown) =>
      fetch(`${p.base}/api/admin/v1${url}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const partner = (await admin('POST', '/partners', { name: 'Traced' })).body.partner_id;
    expect((await admin('POST', `/partners/${partner}/topups`, { currency: 'USD', amount: '50.00', network: 'ton', tx_hash: 'otel-1' })).status).toBe(201);
    expect((await admin('PUT', `/partners/${partner}/webhook`, { url: hook.url })).status).toBe(200);
    const key = (await admin('POST', `/partners/${partner}/keys`, {})).body.api_key;
    const res = await fetch(`${p.base}/api/partner/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'trace-me-0001' },
      body: JSON.stringify({ type: 'stars', idempotency_key: 'otel-1', params: { quantity: 50, recipient: '@traced_user' } }),
    });
    expect(res.status).toBe(200);
    const orderId = ((await res.json()) as { order_id: string }).order_id;
    await admin('POST', '/sandbox/clock/advance', { seconds: 120 });
    await until('the webhook', () => (hook.requests.length > 0 ? true : undefined));

    const request = await until('the request span', () => otlp.spans.find((s) => s.attributes['http.request_id'] === 'trace-me-0001'));
    expect(request.name).toMatch(/POST|request/i);
    const job = await until('the order job span', () => otlp.spans.find((s) => s.name === 'job order.process' && s.attributes['order.id'] === orderId));
    expect(job.attributes['job.kind']).toBe('order.process');
    await until('a supplier span inside the order job', () => otlp.spans.find((s) => s.name.startsWith('supplier goods.') && s.traceId === job.traceId));
    const delivery = await until('the webhook delivery span', () => otlp.spans.find((s) => s.name === 'job webhook.deliver' && s.attributes['order.id'] === orderId));
    expect(delivery.attributes['webhook.event']).toBe('order.completed');
    // the POST to the partner's receiver is an undici span inside the delivery's
    await until('the outgoing POST inside the delivery', () => otlp.spans.find((s) => s.traceId === delivery.traceId && s.parentSpanId === delivery.spanId && /POST/.test(s.name)));
    expect(otlp.resources.some((r) => r['service.name'] === 'partner-service-test' && typeof r['service.version'] === 'string')).toBe(true);
    p.signal('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('without an endpoint nothing of OpenTelemetry is loaded: only src/ops/tracing.ts imports it, and main imports that file dynamically', async () => {
    const offenders: string[] = [];
    const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.ts') ? [path.join(d, e.name)] : []));
    for (const f of [...walk(path.join(ROOT, 'src')), ...walk(path.join(ROOT, 'bot'))]) {
      const text = fs.readFileSync(f, 'utf8');
      if (/from '(@opentelemetry\/|@fastify\/otel)/.test(text) && !f.endsWith(path.join('src', 'ops', 'tracing.ts'))) offenders.push(path.relative(ROOT, f));
      if (/^import .*ops\/tracing\.js'/m.test(text)) offenders.push(`${path.relative(ROOT, f)} (static import of ops/tracing.js)`);
    }
    expect(offenders).toEqual([]);
    expect(fs.readFileSync(path.join(ROOT, 'src', 'main.ts'), 'utf8')).toMatch(/otlpEndpointSet\(process\.env\) \? \(await import\('\.\/ops\/tracing\.js'\)\)\.startTracing\(\) : null/);
    // a service built here (no endpoint) has loaded none of its packages
    const t = await startService();
    try {
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => /@opentelemetry|@fastify[\\/]otel/.test(k));
      expect(loaded).toEqual([]);
    } finally {
      await stopService(t);
    }
  });
});
