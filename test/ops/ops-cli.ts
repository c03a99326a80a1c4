import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** `npm run backup` / `npm run restore` as processes of their own, with our variables scrubbed from the environment. */
export function cli(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(DATABASE_PATH|BACKUP_|METRICS_|SECRET_ENCRYPTION_KEY)/.test(k)) clean[k] = v;
    const child = spawn(TSX, [path.join(ROOT, `src/ops/${script}-cli.ts`), ...args], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
