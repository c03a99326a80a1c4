import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPinnedPoster, pinnedLookup, postPinned } from '../../src/http-out/pinned-post.js';
import { resolveAndCheck, type DnsOverrides } from '../../src/http-out/webhook-transport.js';

// Linux routes all of 127/8 to loopback; 127.0.0.2 proves the connection goes to the pinned address.
const ADDR = '127.0.0.2';
const HOST = 'hook.partner.example'; // resolves nowhere: only the pinned lookup can reach the server
const pinned = [{ address: ADDR, family: 4 as const }];

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  remotePort: number | undefined;
}

type Mode = 'ok' | 'redirect' | 'hang' | 'big';
let mode: Mode = 'ok';
let seen: Seen[] = [];
let connections = 0;
let server: http.Server;
let port: number;

function table(entries: Record<string, string[]>): DnsOverrides {
  return { lookup: (h) => entries[h] };
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), remotePort: req.socket.remotePort });
      if (mode === 'hang') return; // never answers
      if (mode === 'redirect') {
        res.writeHead(302, { location: `http://${HOST}:${port}/elsewhere` }).end('moved');
        return;
      }
      if (mode === 'big') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
        return;
      }
      res.writeHead(204).end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, ADDR, resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(() => {
  mode = 'ok';
  seen = [];
  connections = 0;
  server.closeAllConnections();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('resolveAndCheck', () => {
  it('a host table entry inside allowSubnets is ok', async () => {
    const r = await resolveAndCheck(HOST, null, ['127.0.0.2/32'], table({ [HOST]: [ADDR] }));
    expect(r).toEqual({ ok: true, addresses: [{ address: ADDR, family: 4 }] });
  });

  it('the same entry without allowSubnets is private', async () => {
    const r = await resolveAndCheck(HOST, null, [], table({ [HOST]: [ADDR] }));
    expect(r).toMatchObject({ ok: false, kind: 'private' });
    expect(!r.ok && r.detail).toContain(ADDR);
  });

  it('an entry to 10.0.0.5 is private', async () => {
    const r = await resolveAndCheck(HOST, null, [], table({ [HOST]: ['10.0.0.5'] }));
    expect(r).toMatchObject({ ok: false, kind: 'private' });
    expect(!r.ok && r.detail).toContain('10.0.0.5');
  });

  it('one private address among public ones makes the whole answer private', async () => {
    const r = await resolveAndCheck(HOST, null, [], table({ [HOST]: ['8.8.8.8', '2606:4700::1111', '169.254.169.254'] }));
    expect(r).toMatchObject({ ok: false, kind: 'private' });
    expect(!r.ok && r.detail).toContain('169.254.169.254');
  });

  it('public addresses from the table come back with their family', async () => {
    const r = await resolveAndCheck(HOST, null, [], table({ [HOST]: ['8.8.8.8', '2606:4700::1111'] }));
    expect(r).toEqual({
      ok: true,
      addresses: [
        { address: '8.8.8.8', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
    });
  });

  it('an unknown name is a dns_failure', async () => {
    const r = await resolveAndCheck('nonexistent.invalid', null, [], table({}));
    expect(r).toMatchObject({ ok: false, kind: 'dns_failure' });
  });

  it('a broken table entry is a dns_failure', async () => {
    const r = await resolveAndCheck(HOST, null, [], table({ [HOST]: [] }));
    expect(r).toMatchObject({ ok: false, kind: 'dns_failure' });
    const r2 = await resolveAndCheck(HOST, null, [], table({ [HOST]: ['not-an-ip'] }));
    expect(r2).toMatchObject({ ok: false, kind: 'dns_failure' });
  });

  it('real DNS answers are checked too (localhost is loopback)', async () => {
    const r = await resolveAndCheck('localhost', null, [], table({}));
    expect(r.ok).toBe(false);
  });

  it('literal addresses are checked directly, the table is never consulted', async () => {
    const never: DnsOverrides = {
      lookup: () => {
        throw new Error('must not be called for a literal');
      },
    };
    expect(await resolveAndCheck('127.0.0.2', '127.0.0.2', ['127.0.0.2/32'], never)).toEqual({
      ok: true,
      addresses: [{ address: '127.0.0.2', family: 4 }],
    });
    expect(await resolveAndCheck('127.0.0.1', '127.0.0.1', ['127.0.0.2/32'], never)).toMatchObject({ ok: false, kind: 'private' });
    expect(await resolveAndCheck('[::1]', '::1', [], never)).toMatchObject({ ok: false, kind: 'private' });
    expect(await resolveAndCheck('8.8.8.8', '8.8.8.8', [], never)).toEqual({ ok: true, addresses: [{ address: '8.8.8.8', family: 4 }] });
    expect(await resolveAndCheck('2606:4700::1111', null, [], never)).toEqual({
      ok: true,
      addresses: [{ address: '2606:4700::1111', family: 6 }],
    });
  });
});

describe('pinnedLookup', () => {
  const addrs = [
    { address: '2606:4700::1111', family: 6 as const },
    { address: '8.8.8.8', family: 4 as const },
  ];
  const call = (host: string, opts: unknown) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) => {
      const lookup = pinnedLookup('Hook.Partner.Example', addrs) as (h: string, o: unknown, cb: (...a: unknown[]) => void) => void;
      lookup(host, opts, (err, address, family) =>
        resolve({ err: err as NodeJS.ErrnoException | null, address, family: family as number | undefined }),
      );
    });

  it('answers the {all: true} form with every pinned address', async () => {
    expect(await call(HOST, { all: true })).toEqual({ err: null, address: addrs, family: undefined });
  });
  it('answers the single form with the first address of the wanted family', async () => {
    expect(await call(HOST, {})).toEqual({ err: null, address: '2606:4700::1111', family: 6 });
    expect(await call(HOST, { family: 4 })).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    expect(await call(HOST, 4)).toEqual({ err: null, address: '8.8.8.8', family: 4 });
  });
  it('refuses any other host name', async () => {
    const r = await call('evil.example', { all: true });
    expect(r.err?.code).toBe('ENOTFOUND');
  });
});

describe('postPinned', () => {
  it('reaches the pinned address with the URL host name and the exact body bytes', async () => {
    const body = '{"event": "order.completed", "note": "звёзды ⭐"}';
    const r = await postPinned(`http://${HOST}:${port}/h?x=1`, pinned, body, { 'X-Webhook-Id': 'abc123', 'X-Signature': 'f00' }, 2000);
    expect(r).toEqual({ kind: 'response', status: 204 });
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/h?x=1');
    expect(req.headers.host).toBe(`${HOST}:${port}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-webhook-id']).toBe('abc123');
    expect(req.headers['x-signature']).toBe('f00');
    expect(req.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(body, 'utf8')));
  });

  it('does not follow redirects: 302 comes back as a status, one request only', async () => {
    mode = 'redirect';
    const r = await postPinned(`http://${HOST}:${port}/h`, pinned, '{}', {}, 2000);
    expect(r).toEqual({ kind: 'response', status: 302 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(seen).toHaveLength(1);
  });

  it('does not wait for a large response body', async () => {
    mode = 'big';
    expect(await postPinned(`http://${HOST}:${port}/h`, pinned, '{}', {}, 2000)).toEqual({ kind: 'response', status: 200 });
  });

  it('a server that never answers gives timeout', async () => {
    mode = 'hang';
    const started = Date.now();
    const r = await postPinned(`http://${HOST}:${port}/h`, pinned, '{}', {}, 300);
    const took = Date.now() - started;
    expect(r).toEqual({ kind: 'timeout' });
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2000);
  });

  it('a closed port gives error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, ADDR, resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await postPinned(`http://${HOST}:${closedPort}/h`, pinned, '{}', {}, 2000);
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.detail).toMatch(/ECONNREFUSED/);
  });

  it('https: SNI is the URL host name and certificate checks stay on', async () => {
    // Throw-away self-signed certificate for hook.partner.example (test only).
    const key = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgQgJJKTIj2UHUN1TB
/CdR1Fz5+1QCWjfLhpaSOo6Pp0WhRANCAATfbbOEF51r5sHfQxM7pJgUDng/qs55
tY1FNZOpRIDrIC9x6MpFen6PFrFWAyUkF8cPgg/lgr0EklDo+Nvlk09c
-----END PRIVATE KEY-----`;
    const cert = `-----BEGIN CERTIFICATE-----
MIIBtjCCAVygAwIBAgIUVo3RYX5nplyPFc4z07BkIcgaaCAwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUaG9vay5wYXJ0bmVyLmV4YW1wbGUwIBcNMjYxMTIxMDYyNzU5
WhgPMjEyNjEwMjgwNjI3NTlaMB8xHTAbBgNVBAMMFGhvb2sucGFydG5lci5leGFt
cGxlMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE322zhBeda+bB30MTO6SYFA54
P6rOebWNRTWTqUSA6yAvcejKRXp+jxaxVgMlJBfHD4IP5YK9BJJQ6Pjb5ZNPXKN0
MHIwHQYDVR0OBBYEFDs3eslG2KujhdYGdnXWvpdyrQhlMB8GA1UdIwQYMBaAFDs3
eslG2KujhdYGdnXWvpdyrQhlMA8GA1UdEwEB/wQFMAMBAf8wHwYDVR0RBBgwFoIU
aG9vay5wYXJ0bmVyLmV4YW1wbGUwCgYIKoZIzj0EAwIDSAAwRQIhAM0wTDUys2KG
LnCJAnquJYuJZfZez0he+Uffy88vkqIqAiBPtv0h4EU6x6oRQayEMXbekVS4rj/8
JjoTdFj22rbN5Q==
-----END CERTIFICATE-----`;
    const sni: string[] = [];
    const tlsServer = https.createServer(
      {
        key,
        cert,
        SNICallback: (name, cb) => {
          sni.push(name);
          cb(null, tls.createSecureContext({ key, cert }));
        },
      },
      (_req, res) => res.writeHead(204).end(),
    );
    tlsServer.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => tlsServer.listen(0, ADDR, resolve));
    const tlsPort = (tlsServer.address() as AddressInfo).port;
    try {
      const r = await postPinned(`https://${HOST}:${tlsPort}/h`, pinned, '{}', {}, 2000);
      expect(r.kind).toBe('error'); // self-signed: not trusted, so nothing is sent
      expect(r.kind === 'error' && r.detail).toMatch(/cert|signed/i);
      expect(sni).toEqual([HOST]);
    } finally {
      tlsServer.closeAllConnections();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });

  it('refuses to run without checked addresses, or with a literal that was not checked', async () => {
    expect((await postPinned(`http://${HOST}:${port}/h`, [], '{}', {}, 1000)).kind).toBe('error');
    expect((await postPinned(`http://127.0.0.1:${port}/h`, pinned, '{}', {}, 1000)).kind).toBe('error');
    expect(seen).toHaveLength(0);
  });

  it('a literal URL equal to the checked address works', async () => {
    const r = await postPinned(`http://${ADDR}:${port}/lit`, pinned, '{}', {}, 2000);
    expect(r).toEqual({ kind: 'response', status: 204 });
    expect(seen[0].headers.host).toBe(`${ADDR}:${port}`);
  });
});

describe('createPinnedPoster', () => {
  it('reuses keep-alive connections per (origin, addresses) and closes cleanly', async () => {
    const poster = createPinnedPoster({ idleMs: 60_000 });
    try {
      for (let i = 0; i < 6; i++) {
        const r = await poster.post(`http://${HOST}:${port}/h${i}`, pinned, `{"n": ${i}}`, { 'x-webhook-attempt': String(i + 1) }, 2000);
        expect(r).toEqual({ kind: 'response', status: 204 });
      }
      expect(seen.map((s) => s.url)).toEqual(['/h0', '/h1', '/h2', '/h3', '/h4', '/h5']);
      expect(seen.every((s) => s.headers.host === `${HOST}:${port}`)).toBe(true);
      // undici frees a socket a tick after the response, so back-to-back posts may open a second one
      expect(connections).toBeLessThanOrEqual(2);
      expect(new Set(seen.map((s) => s.remotePort)).size).toBe(connections);
      expect(poster.size).toBe(1);

      // different address set: a separate agent
      await poster.post(`http://${HOST}:${port}/h`, [...pinned, { address: '127.0.0.3', family: 4 }], '{}', {}, 2000);
      expect(poster.size).toBe(2);
    } finally {
      await poster.close();
    }
    expect(poster.size).toBe(0);
    expect(await poster.post(`http://${HOST}:${port}/h`, pinned, '{}', {}, 1000)).toMatchObject({ kind: 'error' });
  });

  it('with one connection per origin every post goes over the same socket', async () => {
    const poster = createPinnedPoster({ connectionsPerOrigin: 1 });
    try {
      for (let i = 0; i < 4; i++) {
        expect(await poster.post(`http://${HOST}:${port}/h`, pinned, '{}', {}, 2000)).toEqual({ kind: 'response', status: 204 });
      }
      expect(connections).toBe(1);
      expect(new Set(seen.map((s) => s.remotePort)).size).toBe(1);
    } finally {
      await poster.close();
    }
  });

  it('times out, survives a timeout and keeps working', async () => {
    const poster = createPinnedPoster();
    try {
      mode = 'hang';
      expect(await poster.post(`http://${HOST}:${port}/h`, pinned, '{}', {}, 300)).toEqual({ kind: 'timeout' });
      mode = 'big';
      expect(await poster.post(`http://${HOST}:${port}/h`, pinned, '{}', {}, 2000)).toEqual({ kind: 'response', status: 200 });
      mode = 'ok';
      expect(await poster.post(`http://${HOST}:${port}/h`, pinned, '{}', {}, 2000)).toEqual({ kind: 'response', status: 204 });
    } finally {
      await poster.close();
    }
  });

  it('closes idle agents', async () => {
    const poster = createPinnedPoster({ idleMs: 250 });
    try {
      await poster.post(`http://${HOST}:${port}/h`, pinned, '{}', {}, 2000);
      expect(poster.size).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(poster.size).toBe(0);
    } finally {
      await poster.close();
    }
  });
});
