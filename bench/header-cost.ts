import { spawn } from 'node:child_process';
import { ROOT, cpuMs, freePort, load, median, waitReady } from './lib.js';

/**
 * `npx tsx bench/header-cost.ts`: what the service's own answer headers cost in `npm run bench`'s read
 * figures. Bare Fastify (bench/header-cost-server.ts) serves one order's JSON plain, and with the four
 * headers every partner answer carries (X-Request-Id, RateLimit-Limit, -Remaining, -Reset), with and
 * without the request's Authorization header, in alternating rounds; it prints each rate, the server's and
 * the load generator's CPU per request. The load generator shares the machine's cores and parses every
 * header line, so a header costs the rate even when the server's side of it is free.
 */
const ROUNDS = 4;

async function main() {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/header-cost-server.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(proc, `${origin}/plain`);
  const auth = { authorization: `Bearer pk_live_${'x'.repeat(43)}` };
  const cases: [string, string, Record<string, string>][] = [
    ['plain', '/plain', {}],
    ['plain, Authorization sent', '/plain', auth],
    ['four headers', '/headers', {}],
    ['four headers, Authorization sent', '/headers', auth],
  ];
  for (const [, p, h] of cases) await load('warm-up', origin, h, () => ({ method: 'GET', path: p }), { durationMs: 1000 });
  const res = new Map<string, { rps: number[]; server: number[]; client: number[] }>(cases.map(([n]) => [n, { rps: [], server: [], client: [] }]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [n, p, h] of cases) {
      const s0 = cpuMs(proc.pid!);
      const c0 = process.cpuUsage();
      const x = await load(n, origin, h, () => ({ method: 'GET', path: p }), { durationMs: 2000 });
      const c = process.cpuUsage(c0);
      const row = res.get(n)!;
      row.rps.push(x.rps);
      row.server.push(((cpuMs(proc.pid!) - s0) * 1000) / x.requests);
      row.client.push((c.user + c.system) / x.requests);
    }
  const plain = median(res.get('plain')!.rps);
  for (const [n] of cases) {
    const row = res.get(n)!;
    console.log(`${n.padEnd(34)} ${median(row.rps).toFixed(0)}/s (${((median(row.rps) / plain) * 100).toFixed(0)} % of plain), server ${median(row.server).toFixed(1)} µs, load generator ${median(row.client).toFixed(1)} µs of CPU per request`);
  }
  proc.kill('SIGTERM');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
