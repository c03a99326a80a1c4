import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/kernel/log.js';
import { WATCHER_JOB } from '../../src/app/deposit-watch.js';
import { startService, stopService, type TestService } from '../helpers.js';

/**
 * RPC providers put API keys in the URL's path or query (`https://host/v1/<key>`): when a chain API fails,
 * the job's last error and the log line name only the URL's origin.
 */
let t: TestService | undefined;
let server: http.Server | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

describe('chain API failures', () => {
  it('name only the origin of a key-bearing RPC URL, in the job error and the log', async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"down"}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const lines: string[] = [];
    const log: Logger = {
      info: (o: unknown, m?: string) => void lines.push(JSON.stringify([o, m])),
      warn: (o: unknown, m?: string) => void lines.push(JSON.stringify([o, m])),
      error: (o: unknown, m?: string) => void lines.push(JSON.stringify([o, m])),
    } as Logger;
    t = await startService(
      {
        DEPOSIT_ADDRESS_USDT_BEP20: '0xb671972287e866dfd9f2e2f626666b010a78a4fe',
        BSC_RPC_URL: `http://user:pa55-s3cr3t@127.0.0.1:${(server.address() as AddressInfo).port}/v1/k3y-s3cr3t?apikey=q-s3cr3t`,
      },
      { log },
    );
    await t.advance(0);
    await t.advance(30);
    const job = t.db.$client.prepare('select attempts, last_error from jobs where kind = ?').get(WATCHER_JOB) as { attempts: number; last_error: string };
    expect(job.attempts).toBeGreaterThanOrEqual(1);
    expect(job.last_error).toContain(`POST ${origin}: HTTP 500`);
    expect(job.last_error).not.toMatch(/s3cr3t|\/v1\//);
    const failed = lines.filter((l) => l.includes('chain watcher poll failed'));
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.join('\n')).toContain(origin);
    expect(lines.join('\n')).not.toMatch(/s3cr3t/);
  });
});
