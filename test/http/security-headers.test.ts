import { describe, expect, it } from 'vitest';
import { ensureWebappBuilt } from '../browser/browser-helpers.js';
import { perTest } from '../helpers.js';

/** Content-Security-Policy and Referrer-Policy of the browser pages: the Mini App (/app/) and the documentation (/docs). */
const w = perTest();

/** `directive → sources` of a CSP header. */
function directives(csp: unknown): Record<string, string[]> {
  expect(typeof csp).toBe('string');
  const out: Record<string, string[]> = {};
  for (const part of String(csp).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

describe('security headers', () => {
  it('the Mini App: its own scripts only, framable by Telegram Web, no referrer', async () => {
    ensureWebappBuilt();
    const t = await w.service();
    for (const url of ['/app/', '/app/index.html', '/app']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.headers['referrer-policy'], url).toBe('no-referrer');
      const d = directives(r.headers['content-security-policy']);
      expect(d['default-src']).toEqual(["'self'"]);
      expect(d['script-src']).toEqual(["'self'"]);
      expect(d['connect-src']).toEqual(["'self'"]);
      expect(d['object-src']).toEqual(["'none'"]);
      expect(d['base-uri']).toEqual(["'self'"]);
      expect(d['frame-ancestors']).toEqual(["'self'", 'https://web.telegram.org']);
      expect(r.headers['x-frame-options']).toBeUndefined(); // would forbid Telegram's frame
    }
    const index = await t.app.inject({ method: 'GET', url: '/app/' });
    const asset = /src="([^"]+\.js)"/.exec(index.body)![1];
    expect((await t.app.inject({ method: 'GET', url: asset })).headers['content-security-policy']).toContain('frame-ancestors');
    // the API's JSON answers carry no page policy
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy']).toBeUndefined();
  });

  it("the documentation: Swagger UI's own policy, calls to the API allowed, no insecure-request upgrade over plain http", async () => {
    const t = await w.service();
    for (const url of ['/docs', '/docs/static/swagger-initializer.js', '/docs/static/swagger-ui.css']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['referrer-policy'], url).toBe('no-referrer');
      const d = directives(r.headers['content-security-policy']);
      expect(d['default-src'], url).toEqual(["'self'"]);
      expect(d['script-src'][0]).toBe("'self'");
      expect(d['script-src']).not.toContain("'unsafe-inline'");
      expect(d['object-src']).toEqual(["'none'"]);
      expect(d['connect-src']).toEqual(["'self'", 'http://127.0.0.1:8080']);
      expect(d['upgrade-insecure-requests']).toBeUndefined();
    }
  });

  it('the documentation behind https keeps the upgrade and names the public origin', async () => {
    const t = await w.service({ PUBLIC_BASE_URL: 'https://api.example.com' });
    const d = directives((await t.app.inject({ method: 'GET', url: '/docs' })).headers['content-security-policy']);
    expect(d['upgrade-insecure-requests']).toEqual([]);
    expect(d['connect-src']).toEqual(["'self'", 'https://api.example.com']);
  });
});
