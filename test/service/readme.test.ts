import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers.js';
import { startProcess } from '../ops/service-process.js';

/**
 * The README's commands, pasted in order on a fresh start, as a newcomer would: the operator walkthrough (a new
 * partner, its first top-up in the sandbox, its key and invite) and then the integrator quick start. The only
 * edits are the ones the README asks for: the operator token and the API key printed at start-up, and this
 * test's port instead of 8080.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const dirs: string[] = [];
const procs: ReturnType<typeof startProcess>[] = [];
afterAll(() => {
  for (const p of procs) p.kill();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The ```sh block of a section that holds `marker`. */
function block(heading: string, marker: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  const found = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes(marker));
  if (!found) throw new Error(`no sh block with ${marker} under ${heading}`);
  return found;
}

describe('the README on a fresh start', { timeout: 120_000 }, () => {
  it('the operator walkthrough works pasted in order (the new partner is 2, funded in the sandbox), and the integrator quick start after it, with the demo key still valid', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-readme-'));
    dirs.push(dir);
    const port = await freePort();
    // a fresh start as the README's: only the port and the database's folder are this test's
    const p = startProcess(dir, { PORT: String(port), DATABASE_PATH: path.join(dir, 'data', 'service.db') });
    procs.push(p);
    await p.ready();
    const token = /Operator API token \(generated for this run; set ADMIN_TOKEN to fix it\): (adm_\w+)/.exec(p.output())![1];
    const demoKey = /API key \(shown once\): (pk_live_\S+)/.exec(p.output())![1];
    const here = (sh: string) => sh.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);

    const operator = block('Quick start: operator', 'export ADMIN_TOKEN=');
    expect(operator).toContain('export ADMIN_TOKEN=adm_…');
    expect(operator).not.toMatch(/partners\/1\//);
    const run = (sh: string) => spawnSync('bash', ['-e', '-c', sh], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
    const op = run(here(operator.replace('adm_…', token)));
    expect(op.status, op.stderr).toBe(0);
    expect(op.stdout).toMatch(/"partner_id":2\b/);
    expect(op.stdout).toMatch(/"amount_to_send":"25\.\d\d"/);
    expect(op.stdout).toMatch(/"status":"active"/);
    expect(op.stdout).toMatch(/"USD":"25\.\d\d"/);
    const acmeKey = /"api_key":"(pk_live_[^"]+)"/.exec(op.stdout)![1];
    expect(op.stdout).toMatch(/"link":"/);

    const integrator = block('Quick start: integrator', 'K="Authorization: Bearer pk_live_…"');
    for (const key of [demoKey, acmeKey]) {
      const it = run(here(integrator.replace('pk_live_…', key)));
      expect(it.status, it.stderr).toBe(0);
      expect(it.stdout).not.toMatch(/"code":"unauthorized"/);
      expect(it.stdout).toMatch(/"balances":\{"USD":"/);
      expect(it.stdout).toMatch(/"status":"(processing|completed)"/);
    }
    p.signal('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});
