import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/log.js';

function capture(level = 'trace') {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { log: createLogger(level, sink), lines };
}

/** The service's pino logger: its line shape, its levels, and what it never prints. */
describe('the service logger', () => {
  it('writes one JSON line per call: level by name, ISO time, msg and the fields, no pid or host', () => {
    const { log, lines } = capture('info');
    log.info({ order_id: 'ord_1', status: 'completed' }, 'order state');
    log.debug({ x: 1 }, 'not at info');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), msg: 'order state', order_id: 'ord_1', status: 'completed' });
  });

  it('an error shows its type, message and stack only, under any field name: never the payload an error carries', () => {
    const { log, lines } = capture();
    const e = Object.assign(new Error('Call to sendMessage failed'), { payload: { text: 'Sign in: https://example.org/app/#signin=tok_SECRET' }, headers: { authorization: 'Bearer pk_live_SECRET' } });
    log.error({ err: e, job: 7 }, 'job failed');
    log.warn({ error: e }, 'other name');
    log.error(e, 'bare');
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(JSON.stringify(l)).not.toMatch(/SECRET/);
    expect(lines[0].err).toEqual({ type: 'Error', message: 'Call to sendMessage failed', stack: expect.stringContaining('Call to sendMessage failed') });
    expect(lines[0].job).toBe(7);
    expect(lines[1].error).toEqual({ type: 'Error', message: 'Call to sendMessage failed', stack: expect.any(String) });
    expect(lines[2].err.message).toBe('Call to sendMessage failed');
  });

  it('fields that name a secret are redacted should one ever reach a log call', () => {
    const { log, lines } = capture();
    log.info({ api_key: 'pk_live_SECRET1', partner: { secret: 'whsec_SECRET2', name: 'Shop' }, headers: { authorization: 'Bearer SECRET3' }, token: 'SECRET4', mnemonic: 'w1 w2 SECRET5', link: 'https://t.me/bot?start=SECRET6' }, 'oops');
    const text = JSON.stringify(lines[0]);
    expect(text).not.toMatch(/SECRET/);
    expect(lines[0]).toMatchObject({ api_key: '[redacted]', partner: { secret: '[redacted]', name: 'Shop' }, headers: '[redacted]', token: '[redacted]' });
  });

  it('silent prints nothing', () => {
    const { log, lines } = capture('silent');
    log.error({ a: 1 }, 'x');
    expect(lines).toEqual([]);
  });
});
