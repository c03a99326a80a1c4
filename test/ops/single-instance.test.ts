import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, freePort } from '../helpers.js';
import { startProcess } from './service-process.js';

/** The real process: one writer per database, a busy port, the start-up line, and SIGTERM through `npm start`. */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups) c();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-one-'));
  dirs.push(d);
  return d;
};
async function start(dir: string, vars: Record<string, string> = {}) {
  const p = startProcess(dir, { PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN, SANDBOX_DEMO: '0', ...vars });
  cleanups.push(() => p.kill());
  return p;
}
const errLines = (text: string) => text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));

describe('one writer per database', { timeout: 120_000 }, () => {
  it('a second instance on the same database exits 1 at once, naming the database and the holder; the first keeps serving; SIGKILL frees the lock', async () => {
    const dir = tmp();
    const first = await start(dir);
    await first.ready();
    const second = await start(dir);
    const began = Date.now();
    expect(await second.exited).toBe(1);
    expect(Date.now() - began).toBeLessThan(15_000);
    const lines = second.output().split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    // tsx runs the service in a child process of its own: the holder's pid is that of node, which the first one logs
    const pid = first.logLines().find((l) => l.msg === 'started')!.pid as number;
    expect(lines[0]).toBe(
      `another instance holds the database ${path.join(dir, 'service.db')} (pid ${pid} on host ${os.hostname()}, since ${lines[0].match(/since (\S+)\)/)![1]}): this one exits (one writer per database; stop that one first)`,
    );
    expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
    // the lock dies with its process, however it ends
    process.kill(pid, 'SIGKILL');
    await first.exited;
    const third = await start(dir);
    await third.ready();
    third.signal('SIGTERM');
    expect(await third.exited).toBe(0);
  });

  it('npm run restore refuses while the service holds the database', async () => {
    const dir = tmp();
    const p = await start(dir);
    await p.ready();
    const { cli } = await import('./ops-cli.js');
    const backup = path.join(dir, 'b.db');
    expect((await cli('backup', [backup], { DATABASE_PATH: path.join(dir, 'service.db') })).code).toBe(0);
    const r = await cli('restore', [backup], { DATABASE_PATH: path.join(dir, 'service.db') });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^restore refused: another instance holds the database .*service\.db \(pid \d+ on host/);
    p.signal('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});

describe('start-up', { timeout: 120_000 }, () => {
  it('a busy port stops start-up with one line naming PORT, and the database is left unlocked', async () => {
    const dir = tmp();
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', r));
    cleanups.push(() => holder.close());
    const p = await start(dir, { PORT: String(port) });
    expect(await p.exited).toBe(1);
    expect(errLines(p.output())).toEqual([`cannot listen on 127.0.0.1:${port}: the address is already in use (another process listens there): set PORT (or HOST) to another value`]);
    holder.close();
    const again = await start(dir, { PORT: String(port) });
    await again.ready();
    // the start-up line: release, where it listens, mode
    const line = again.logLines().find((l) => l.msg === 'started')!;
    expect(line).toMatchObject({ version: expect.any(String), commit: expect.stringMatching(/^([0-9a-f]{40}|unknown)$/), bind: `127.0.0.1:${port}`, mode: 'sandbox', upstream: 'sandbox' });
    again.signal('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('SIGTERM to the PID of `npm start` reaches the service: it shuts down gracefully, npm exits 0, nothing is left serving', async () => {
    const dir = tmp();
    const port = await freePort();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(PORT|HOST|DATABASE_PATH|ADMIN_TOKEN|SANDBOX_DEMO|NODE_ENV|UPSTREAM|METRICS_.*|BACKUP_.*|LOG_LEVEL|TELEGRAM_.*|npm_.*)$/.test(k)) env[k] = v;
    Object.assign(env, { PORT: String(port), DATABASE_PATH: path.join(dir, 'service.db'), ADMIN_TOKEN, SANDBOX_DEMO: '0' });
    const npm = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => npm.exitCode === null && npm.kill('SIGKILL'));
    let out = '';
    npm.stdout.on('data', (c) => (out += c));
    npm.stderr.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((r) => npm.on('exit', (code) => r(code)));
    // prestart builds only what is stale (nothing, after the install's build)
    for (const until = Date.now() + 100_000; ; ) {
      if (npm.exitCode !== null) throw new Error(out);
      if ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200) break;
      if (Date.now() > until) throw new Error(`not ready: ${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const servicePid = JSON.parse(out.split('\n').find((l) => l.includes('"msg":"started"'))!).pid as number;
    expect(servicePid).not.toBe(npm.pid);
    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('"msg":"shutting down"');
    // the service itself is gone, not orphaned
    expect(() => process.kill(servicePid, 0)).toThrow();
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
