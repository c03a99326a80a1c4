import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/env.js';
import { ADMIN_TOKEN, startService, stopService, type TestService } from '../helpers.js';

/**
 * HTTP_REQUEST_TIMEOUT_SECONDS: a client that trickles its request (headers or body) is cut off once the
 * limit passes, with 408 or a closed connection, on a real socket. The limit is 1 s here to keep the test
 * short; the client sends a byte every 200 ms and would need far longer to finish.
 */
let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

interface Outcome {
  /** What the server wrote before closing. */
  answer: string;
  /** Milliseconds from the first byte to the close. */
  closedAfterMs: number;
  /** Bytes of the request the client managed to send. */
  sent: number;
}

/** Sends `head`, then `trickle` one byte every `everyMs`, until the server closes (or `giveUpMs` passes). */
function trickle(port: number, head: string, trickleText: string, everyMs: number, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      sock.destroy();
      reject(new Error(`the server kept the trickling request open for ${giveUpMs} ms (sent ${sent} bytes)`));
    }, giveUpMs);
    sock.on('data', (c) => (answer += c.toString('latin1')));
    sock.on('error', () => {}); // a reset while writing counts as closed
    sock.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer, closedAfterMs: Date.now() - started, sent });
    });
    sock.on('connect', () => {
      sock.write(head);
      sent += head.length;
      let i = 0;
      timer = setInterval(() => {
        if (i >= trickleText.length || sock.destroyed) return clearInterval(timer);
        sock.write(trickleText[i++]);
        sent++;
      }, everyMs);
    });
  });
}

async function listening(): Promise<number> {
  t = await startService({ HTTP_REQUEST_TIMEOUT_SECONDS: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

describe('slow clients', () => {
  it('defaults to 30 seconds and accepts only whole seconds from 1', () => {
    expect(loadConfig({}).HTTP_REQUEST_TIMEOUT_SECONDS).toBe(30);
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '5' }).HTTP_REQUEST_TIMEOUT_SECONDS).toBe(5);
    for (const bad of ['0', '1.5', 'soon']) expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: bad })).toThrow(/HTTP_REQUEST_TIMEOUT_SECONDS/);
  });

  it('cuts off a request whose headers trickle in, with 408, within the limit and the check period', async () => {
    const port = await listening();
    const o = await trickle(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n', 200, 6_000);
    expect(o.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(o.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(o.closedAfterMs).toBeLessThan(3_000);
    expect(o.sent).toBeLessThan(40 + 56); // far from the whole request
  });

  it('cuts off a request whose body trickles in after complete headers; the route never runs', async () => {
    const port = await listening();
    const body = JSON.stringify({ name: 'Slow partner with a long name that takes a while to arrive' });
    const head = `POST /api/admin/v1/partners HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const o = await trickle(port, head, body, 200, 6_000);
    expect(o.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(o.closedAfterMs).toBeLessThan(3_000);
    expect(o.sent).toBeLessThan(head.length + body.length);
    // Node's 408 or a bare close, never the route's answer: no partner was created
    expect(o.answer === '' || /^HTTP\/1\.1 408 /.test(o.answer), o.answer).toBe(true);
    expect(t!.db.$client.prepare('select count(*) as n from partners').get()).toEqual({ n: 0 });
  });

  it('closes an idle keep-alive connection, and serves a prompt request as before', async () => {
    const port = await listening();
    const o = await new Promise<{ answer: string; closedAfterMs: number }>((resolve, reject) => {
      const sock = net.connect(port, '127.0.0.1');
      let answer = '';
      let start = 0;
      const giveUp = setTimeout(() => {
        sock.destroy();
        reject(new Error('idle keep-alive connection left open'));
      }, 8_000);
      sock.on('data', (c) => {
        if (!answer) start = Date.now();
        answer += c.toString('latin1');
      });
      sock.on('close', () => {
        clearTimeout(giveUp);
        resolve({ answer, closedAfterMs: Date.now() - start });
      });
      sock.on('connect', () => sock.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
    });
    expect(o.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(o.answer).toContain('{"status":"ok"}');
    // the keep-alive timeout is capped by the request timeout (1 s here; 5 s by default)
    expect(o.closedAfterMs).toBeLessThan(3_000);
  });
});
