import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real service process (`tsx src/main.ts`) for the operations tests: environment scrubbed of ours. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const OURS = /^(PORT|HOST|DATABASE_PATH|METRICS_|BACKUP_|SHUTDOWN_|LOG_LEVEL|TELEGRAM_|ADMIN_|WEBHOOK_|SANDBOX_|NODE_ENV$|UPSTREAM|GIFTS_|FRAGMENT_|CREDENTIALS_DIRECTORY|OTEL_)/;

export function startProcess(cwd: string, vars: Record<string, string>, opts: { nodeArgs?: string[] } = {}) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !OURS.test(k)) env[k] = v;
  Object.assign(env, { HOST: '127.0.0.1', ...vars });
  // a process group of its own: tsx runs the service in a child process, which a SIGKILL of tsx alone would orphan
  const child = spawn(TSX, [...(opts.nodeArgs ?? []), path.join(ROOT, 'src/main.ts')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const base = `http://127.0.0.1:${vars.PORT}`;
  return {
    child,
    base,
    exited,
    output: () => out,
    /** The JSON log lines printed so far. */
    logLines: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    /** Waits until /readyz answers 200 (the process is started and migrated). */
    async ready(timeoutMs = 60_000): Promise<void> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the service exited: ${out}`);
        try {
          if ((await fetch(`${base}/readyz`)).status === 200) return;
        } catch {
          /* not listening yet */
        }
        if (Date.now() > until) throw new Error(`not ready in time: ${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /**
     * Sends `signal` to the service itself (node, the pid of its `started` line), not to tsx: tsx relays a signal
     * only if its child confirms within a few milliseconds, which a loaded machine misses (tsx then exits 143).
     */
    signal(signal: NodeJS.Signals = 'SIGTERM') {
      const started = out.split('\n').find((l) => l.includes('"msg":"started"'));
      const pid = started ? (JSON.parse(started) as { pid?: number }).pid : undefined;
      if (pid) process.kill(pid, signal);
      else child.kill(signal);
    },
    /** SIGKILL to tsx and the service under it (the whole group), if still running. */
    kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/** The temporary folders and service processes of one test file: each process killed and each folder removed after it. */
export function processFixtures(prefix: string) {
  const dirs: string[] = [];
  const procs: ReturnType<typeof startProcess>[] = [];
  afterAll(() => {
    for (const p of procs) p.kill();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  return {
    tmp(): string {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    start(...args: Parameters<typeof startProcess>): ReturnType<typeof startProcess> {
      const p = startProcess(...args);
      procs.push(p);
      return p;
    },
  };
}
