import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { loadConfig } from '../src/config/env.js';
import { silentLogger } from '../src/kernel/log.js';
import { createService } from '../src/service.js';
import { median } from './lib.js';

/**
 * `npx tsx bench/route-cost.ts`: the CPU cost of the service's own request path (hooks, authentication,
 * rate-limit headers, the route, serialisation) per request, in CPU time of this process (robust to
 * other work on the machine), without the sockets: the real service and a
 * bare Fastify app serving the same JSON texts, both driven in process by `app.inject`, in alternating
 * rounds; µs per request, the median of the rounds. The network stack costs both the same, so this is the
 * part of a read's rate the service's code decides, measured free of the machine's noise.
 */
const ROUNDS = 7;
const N = Number(process.env.ROUTE_COST_N ?? 20_000);
const ADMIN = 'adm_route_cost_token_0123456789';

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-cost-'));
  const svc = await createService({
    config: loadConfig({ SANDBOX_DEMO: '0', DATABASE_PATH: path.join(dir, 'svc.db'), ADMIN_TOKEN: ADMIN, API_RATE_LIMIT: '10000000', API_RATE_BURST: '10000000', ...(process.env.METRICS === '1' ? { METRICS_TOKEN: 'route_cost_metrics_token_0123' } : {}) }),
    log: silentLogger,
    adminToken: ADMIN,
  });
  const admin = async (method: 'POST' | 'PUT', url: string, body: unknown) =>
    JSON.parse((await svc.app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN}` }, payload: body as object })).body);
  const p = await admin('POST', '/partners', { name: 'cost' });
  await admin('POST', `/partners/${p.partner_id}/topups`, { currency: 'USD', amount: '100000.00', network: 'ton', tx_hash: 'cost-1' });
  const key = (await admin('POST', `/partners/${p.partner_id}/keys`, {})).api_key as string;
  const auth = { authorization: `Bearer ${key}` };
  const orderBody = JSON.stringify({ type: 'stars', idempotency_key: 'replay-1', params: { quantity: 100, recipient: 'bench_user' } });
  const created = await svc.app.inject({ method: 'POST', url: '/api/partner/v1/orders', headers: { ...auth, 'content-type': 'application/json' }, payload: orderBody });
  const order = JSON.parse(created.body);
  const me = JSON.parse((await svc.app.inject({ method: 'GET', url: '/api/partner/v1/me', headers: auth })).body);

  const bare = Fastify({ logger: false });
  bare.get('/order', async () => order);
  bare.get('/me', async () => me);
  bare.post('/echo', async (req) => ({ status: 'ok', type: (req.body as { type: string }).type }));
  await bare.ready();

  const cases: { name: string; svc: InjectOptions; bare: InjectOptions }[] = [
    { name: 'GET /orders/{id}', svc: { method: 'GET', url: `/api/partner/v1/orders/${order.order_id}`, headers: auth }, bare: { method: 'GET', url: '/order' } },
    { name: 'GET /me', svc: { method: 'GET', url: '/api/partner/v1/me', headers: auth }, bare: { method: 'GET', url: '/me' } },
    {
      name: 'POST /orders replay',
      svc: { method: 'POST', url: '/api/partner/v1/orders', headers: { ...auth, 'content-type': 'application/json' }, payload: orderBody },
      bare: { method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: orderBody },
    },
  ];
  const only = process.argv[2];
  for (const c of cases) {
    if (only && !c.name.includes(only)) continue;
    const per = async (app: FastifyInstance, opts: InjectOptions) => {
      const t0 = process.cpuUsage();
      for (let i = 0; i < N; i++) {
        const r = await app.inject(opts);
        if (r.statusCode !== 200) throw new Error(`${c.name}: ${r.statusCode} ${r.body}`);
        // inject answers through promises alone: let the event loop run its immediates (Node's socket
        // clean-up) now and then, as a server's loop would
        if (i % 64 === 63) await new Promise((res) => setImmediate(res));
      }
      const used = process.cpuUsage(t0);
      return (used.user + used.system) / N;
    };
    await per(svc.app, c.svc);
    // ROUTE_COST_PROFILE=1: the service's side alone, for `node --cpu-prof`
    if (process.env.ROUTE_COST_PROFILE) {
      for (let r = 0; r < ROUNDS; r++) await per(svc.app, c.svc);
      continue;
    }
    await per(bare, c.bare);
    const s: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      s.push(await per(svc.app, c.svc));
      b.push(await per(bare, c.bare));
    }
    console.log(`${c.name.padEnd(22)} service ${median(s).toFixed(1)} µs, bare ${median(b).toFixed(1)} µs of CPU per injected request: the service adds ${(median(s) - median(b)).toFixed(2)} µs`);
  }
  await bare.close();
  await svc.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
