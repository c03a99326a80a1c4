import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/kernel/log.js';
import { createService, type Service } from '../../src/service.js';
import { ADMIN_TOKEN, START, testConfig } from '../helpers.js';

/** Issue 14: buildHttpApp registers every route group, and every partner route has its OpenAPI entry. */
describe('the HTTP app', () => {
  let svc: Service;
  let dir: string;
  const routes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-routes-'));
    svc = await createService({
      config: testConfig({ DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN }),
      log: silentLogger,
      realNow: () => START,
      startWorkers: false,
      instrumentHttp: (app) =>
        app.addHook('onRoute', (r: RouteOptions) => {
          for (const m of [r.method].flat()) routes.push({ method: m, url: r.url });
        }),
    });
  });
  afterAll(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('documents every partner route, and documents no route that does not exist', async () => {
    const prefix = '/api/partner/v1';
    const registered = routes
      .filter((r) => r.method !== 'HEAD' && r.url.startsWith(`${prefix}/`) && r.url !== `${prefix}/openapi.json`)
      .map((r) => `${r.method} ${r.url.slice(prefix.length).replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    const doc = (await svc.app.inject({ method: 'GET', url: `${prefix}/openapi.json` })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(registered.length).toBeGreaterThanOrEqual(11);
    expect(registered).toEqual(documented);
  });

  it('registers every route group itself: partner, operator, sandbox, Mini App, pages, pictures', () => {
    const urls = new Set(routes.map((r) => r.url));
    for (const u of [
      '/healthz',
      '/api/partner/v1/orders',
      '/api/admin/v1/partners',
      '/api/admin/v1/partners/:partner_id/invites',
      '/api/admin/v1/deposits',
      '/api/admin/v1/sandbox/clock/advance',
      '/api/admin/v1/sandbox/deposits',
      '/api/app/v1/session',
      '/app',
      '/sandbox/gifts/:file',
    ])
      expect(urls, u).toContain(u);
  });

  it('limits unknown URLs per client address like a key (scope not_found), without touching the API budget', async () => {
    const probe = (ip: string) => svc.app.inject({ method: 'GET', url: '/api/partner/v1/no-such-route', remoteAddress: ip });
    for (let i = 0; i < 30; i++) {
      const r = await probe('10.9.8.7');
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ detail: { code: 'route_not_found', detail: 'No endpoint GET /api/partner/v1/no-such-route.' } });
    }
    const limited = await probe('10.9.8.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatchObject({ code: 'rate_limited', scope: 'not_found', limit: 120, window_seconds: 60 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // another address has its own budget, and the real routes are not limited by it
    expect((await probe('10.9.8.8')).statusCode).toBe(404);
    expect((await svc.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.9.8.7' })).statusCode).toBe(200);
  });

  it('judges long path ids in their routes after authentication, and answers undecodable URLs in the contract format, never Fastify\'s own body', async () => {
    const partner = await svc.app.inject({ method: 'POST', url: '/api/admin/v1/partners', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Long ids' } });
    const id = partner.json().partner_id as number;
    await svc.app.inject({ method: 'POST', url: `/api/admin/v1/partners/${id}/topups`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { currency: 'USD', amount: '100.00', network: 'ton', tx_hash: 'long-ids-1' } });
    const key = (await svc.app.inject({ method: 'POST', url: `/api/admin/v1/partners/${id}/keys`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: {} })).json().api_key as string;
    const asPartner = (url: string) => svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` }, remoteAddress: '10.1.1.1' });
    // ids of any length reach their route, which answers after the key is checked
    for (const n of [150, 300, 5000]) {
      const r = await asPartner(`/api/partner/v1/orders/${'x'.repeat(n)}`);
      expect(r.statusCode, `${n} characters`).toBe(404);
      expect(r.json()).toMatchObject({ code: 'not_found' });
      const anonymous = await svc.app.inject({ method: 'GET', url: `/api/partner/v1/orders/${'x'.repeat(n)}`, remoteAddress: '10.1.1.1' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().detail.code).toBe('unauthorized');
    }
    const admin = await svc.app.inject({ method: 'GET', url: `/api/admin/v1/orders/${'y'.repeat(300)}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, remoteAddress: '10.1.1.2' });
    expect(admin.statusCode).toBe(404);
    expect(admin.json().code).toBe('not_found');
    const bad = await asPartner('/api/partner/v1/orders/%E0%A4%A');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: { code: 'bad_request', detail: 'The URL is malformed.' } });
  });
});
