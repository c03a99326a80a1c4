import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers.js';
import { startProcess } from './service-process.js';

/** The real process (`tsx src/main.ts`): the metrics listener, /readyz while draining after SIGTERM. */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('operations of the service process', { timeout: 90_000 }, () => {
  it('METRICS_PORT serves /metrics apart from the API; after SIGTERM /readyz answers 503 draining, then the process exits 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-ops-'));
    dirs.push(dir);
    const [port, metricsPort] = [await freePort(), await freePort()];
    const proc = startProcess(dir, {
      PORT: String(port),
      DATABASE_PATH: path.join(dir, 'service.db'),
      ADMIN_TOKEN: 'adm_ops_process_token_0123456789',
      SANDBOX_DEMO: '0',
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_DRAIN_SECONDS: '2',
    });
    const { base } = proc;
    try {
      await proc.ready();
      const m = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(m.status).toBe(200);
      const text = await m.text();
      expect(text).toMatch(/^partner_service_http_request_duration_seconds_count\{route="\/readyz",method="GET",status="200"\} \d+$/m);
      expect((await fetch(`${base}/metrics`)).status).toBe(404); // no METRICS_TOKEN: not on the API port
      const sent = Date.now();
      proc.signal('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const r = await fetch(`${base}/readyz`);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ status: 'not_ready', reason: 'draining' });
      expect((await fetch(`${base}/healthz`)).status).toBe(200); // still live while draining
      expect(await proc.exited).toBe(0);
      expect(Date.now() - sent).toBeLessThan(10_000);
      // one JSON line per request, with the route template and status
      const lines = proc.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
      expect(lines.some((l) => l.msg === 'request' && l.route === '/readyz' && l.status === 503 && typeof l.req_id === 'string' && typeof l.ms === 'number')).toBe(true);
    } finally {
      proc.kill();
    }
  });
});
