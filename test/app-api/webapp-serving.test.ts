import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { webappDir } from '../../src/http/webapp.js';
import { ensureWebappBuilt } from '../browser/browser-helpers.js';
import { perTest } from '../helpers.js';

const w = perTest();

describe('the Mini App pages under /app/', () => {
  it('serves the built app: index revalidated, hashed assets cached for a year, nothing from another origin', async () => {
    ensureWebappBuilt();
    const t = await w.service();
    const redirect = await t.app.inject({ method: 'GET', url: '/app' });
    expect([redirect.statusCode, redirect.headers.location]).toEqual([301, '/app/']);
    const index = await t.app.inject({ method: 'GET', url: '/app/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    const assets = [...index.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const a of assets) expect(a).toMatch(/^\/app\/assets\/[\w.-]+\.(js|css)$/);
    for (const a of assets) {
      const r = await t.app.inject({ method: 'GET', url: a });
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // no script, style or font is fetched from a CDN at run time
      expect(r.body).not.toMatch(/(?:import|src=|url\()\s*["']?https?:\/\/(?!t\.me|telegram\.org)/);
    }
    expect((await t.app.inject({ method: 'GET', url: '/app/assets/nope.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/app/../package.json' })).statusCode).not.toBe(200);
    const dir = webappDir()!;
    expect(fs.existsSync(path.join(dir, 'index.html'))).toBe(true);
  });
});
