import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../helpers.js';

/** The files of deploy/: the systemd unit, the reverse proxy's example and the alert rules. */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const UNIT = fs.readFileSync(path.join(ROOT, 'deploy', 'partner-service.service'), 'utf8');
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
const hasCaddy = spawnSync('caddy', ['version']).status === 0;
const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The unit's settings as [key, value] pairs of its [Service] section. */
function serviceSection(): Map<string, string[]> {
  const body = UNIT.split(/^\[Service\]$/m)[1].split(/^\[/m)[0];
  const out = new Map<string, string[]>();
  for (const line of body.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (m) out.set(m[1], [...(out.get(m[1]) ?? []), m[2]]);
  }
  return out;
}

describe('the systemd unit', () => {
  it('runs the built service as its own user, hardened, writing only its data folder, restarted on failure', () => {
    const s = serviceSection();
    const one = (k: string) => s.get(k)?.at(-1);
    expect(one('User')).toBe('partner-service');
    expect(one('EnvironmentFile')).toBe('/etc/partner-service/env');
    expect(one('ExecStart')).toMatch(/^\/usr\/bin\/node .*dist\/src\/main\.js$/);
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('Restart')).toBe('on-failure');
    // the data folder is the state directory, and the database and backups are in it
    expect(one('StateDirectory')).toBe('partner-service');
    expect(s.get('Environment')).toEqual(expect.arrayContaining(['DATABASE_PATH=/var/lib/partner-service/service.db', 'BACKUP_DIR=/var/lib/partner-service/backups']));
    // SIGTERM to the service itself, and time for the drain (at most 5 s) and the shutdown (within 10 s)
    expect(one('KillSignal')).toBe('SIGTERM');
    expect(one('KillMode')).toBe('mixed');
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThanOrEqual(15);
    // V8 needs writable executable memory: this switch would kill the process at start-up
    expect(s.has('MemoryDenyWriteExecute')).toBe(false);
    // the hardening a service of this kind can take: system calls of a plain service (others fail with EPERM,
    // which libuv falls back from), /proc of its own process only, memory and task caps
    expect(one('SystemCallFilter')).toBe('@system-service');
    expect(one('SystemCallErrorNumber')).toBe('EPERM');
    expect(one('ProtectProc')).toBe('invisible');
    expect(one('ProcSubset')).toBe('pid');
    expect(one('MemoryMax')).toMatch(/^\d+[MG]$/);
    expect(Number(one('TasksMax'))).toBeGreaterThanOrEqual(64);
  });

  it.skipIf(!hasAnalyze)(`rates "OK" or better in systemd-analyze security${hasAnalyze ? '' : ' (skipped: systemd-analyze is not installed here)'}`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-unit-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'partner-service.service'), fs.existsSync('/usr/bin/node') ? UNIT : UNIT.replace('/usr/bin/node', process.execPath));
    const r = spawnSync('systemd-analyze', ['security', '--offline=yes', path.join(dir, 'partner-service.service')], { encoding: 'utf8' });
    const m = /Overall exposure level for \S+: ([\d.]+)/.exec(`${r.stdout}${r.stderr}`);
    expect(m, r.stderr).not.toBeNull();
    expect(Number(m![1])).toBeLessThanOrEqual(2.0);
  });

  it.skipIf(!hasAnalyze)(`is accepted by systemd-analyze verify${hasAnalyze ? '' : ' (skipped: systemd-analyze is not installed here)'}`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-unit-'));
    dirs.push(dir);
    // ExecStart must name an existing program: where node is not /usr/bin/node, this node stands in
    const text = fs.existsSync('/usr/bin/node') ? UNIT : UNIT.replace('/usr/bin/node', process.execPath);
    fs.writeFileSync(path.join(dir, 'partner-service.service'), text);
    const r = spawnSync('systemd-analyze', ['verify', path.join(dir, 'partner-service.service')], { encoding: 'utf8' });
    // verify exits 0 even for an unknown key or a bad value: every line it prints is a finding
    expect({ status: r.status, output: `${r.stdout}${r.stderr}`.trim() }).toEqual({ status: 0, output: '' });
  });

  it('systemd-analyze verify would catch a mistake (the check above is not vacuous)', () => {
    if (!hasAnalyze) return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-unit-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'partner-service.service'), UNIT.replace('ProtectSystem=strict', 'ProtectSystem=strickt'));
    const r = spawnSync('systemd-analyze', ['verify', path.join(dir, 'partner-service.service')], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toMatch(/ProtectSystem|protect system/i);
  });
});

describe('the reverse proxy example', () => {
  const caddy = fs.readFileSync(path.join(ROOT, 'deploy', 'Caddyfile'), 'utf8');
  /** The body of one site block (top-level `<host> {` to its closing brace at the start of a line). */
  const site = (host: string) => caddy.slice(caddy.indexOf(`\n${host} {`)).split(/\n}\n/)[0];

  it('states the TRUST_PROXY that matches it and proxies to the service on loopback', () => {
    expect(caddy).toMatch(/^#\s+TRUST_PROXY=1$/m);
    expect(caddy).toMatch(/reverse_proxy 127\.0\.0\.1:8080/);
    expect(caddy).toMatch(/^#\s+HOST=127\.0\.0\.1$/m);
  });

  it('keeps the operator API off the public site, sends HSTS, and serves operators on a private listener with logins of their own', () => {
    const pub = site('api.example.com');
    expect(pub).toMatch(/header Strict-Transport-Security "max-age=\d{8,}; includeSubDomains"/);
    expect(pub).toMatch(/^\s*respond \/api\/admin\/v1 404$/m);
    expect(pub).toMatch(/^\s*respond \/api\/admin\/v1\/\* 404$/m);
    expect(pub).toMatch(/^\s*respond \/metrics 404$/m);
    const ops = site('operator.example.com');
    expect(ops).toMatch(/^\s*bind 10\./m);
    expect(ops).toMatch(/@outside not remote_ip /);
    expect(ops).toMatch(/abort @outside/);
    expect(ops).toMatch(/basicauth \{/);
    expect(ops).toMatch(/header_up Authorization "Bearer \{env\.PARTNER_ADMIN_TOKEN\}"/);
    expect(ops).toMatch(/Strict-Transport-Security/);
  });

  it.skipIf(!hasCaddy)(`is a valid Caddyfile${hasCaddy ? '' : ' (skipped: caddy is not installed here)'}`, () => {
    const r = spawnSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', path.join(ROOT, 'deploy', 'Caddyfile')], { encoding: 'utf8', cwd: os.tmpdir() });
    expect(r.status, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/Valid configuration/);
  });
});

describe('the alert rules', () => {
  const file = path.join(ROOT, 'deploy', 'alerts.yml');
  const rules = fs.readFileSync(file, 'utf8');

  it('each has a runbook: a section of docs/operations.md named after it', () => {
    const ops = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
    const blocks = rules.split(/\n\s+- alert: /).slice(1);
    expect(blocks.length).toBeGreaterThan(10);
    for (const b of blocks) {
      const name = b.split('\n')[0].trim();
      expect(b, name).toContain(`runbook_url: "docs/operations.md#${name.toLowerCase()}"`);
      expect(ops, name).toMatch(new RegExp(`^### ${name}$`, 'm'));
    }
    // the backup and bot alerts are there
    expect(rules).toMatch(/time\(\) - partner_service_backup_last_success_timestamp_seconds > 2 \* partner_service_backup_interval_seconds/);
    expect(rules).toMatch(/partner_service_bot_connected == 0/);
  });

  it('name only metrics the service exposes', async () => {
    const named = [...new Set([...rules.matchAll(/\b(partner_service_[a-z_]+)/g)].map((m) => m[1]))];
    expect(named.length).toBeGreaterThan(5);
    const t = await startService({ METRICS_TOKEN: 'metrics_token_0123456789abcdef' });
    try {
      const page = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics_token_0123456789abcdef' } })).body;
      const exposed = new Set([...page.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
      // the Fragment wallet's gauges exist only with UPSTREAM=fragment: those are looked up in the source
      const source = fs.readFileSync(path.join(ROOT, 'src', 'ops', 'metrics.ts'), 'utf8');
      const known = (n: string) => exposed.has(n) || exposed.has(n.replace(/_(count|sum|bucket)$/, '')) || source.includes(`\${P}${n.slice('partner_service_'.length)}\``);
      expect(named.filter((n) => !known(n))).toEqual([]);
    } finally {
      await stopService(t);
    }
  });

  it.skipIf(!hasPromtool)(`pass promtool check rules${hasPromtool ? '' : ' (skipped: promtool is not installed here)'}`, () => {
    const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });
});

describe('the release image (Dockerfile)', () => {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  it('builds in one stage and runs a pruned install in another, as a non-root user, node as PID 1 in exec form, with a health check and the database on a volume', () => {
    const froms = [...text.matchAll(/^FROM (\S+)(?: AS (\w+))?$/gm)];
    expect(froms.map((m) => m[1])).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim']);
    expect(froms[0][2]).toBe('build');
    const [buildStage, runtime] = text.split(/^FROM node:20-bookworm-slim$/m);
    expect(buildStage).toMatch(/^RUN npm ci\b/m);
    expect(buildStage).toMatch(/^RUN npm prune --omit=dev\b/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^ENTRYPOINT \["node", [^\]]*"dist\/src\/main\.js"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*CMD \[.*\/healthz/m);
    expect(runtime).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(runtime).toMatch(/DATABASE_PATH=\/data\/service\.db/);
    expect(runtime).toMatch(/NODE_ENV=production/);
    expect(runtime).not.toMatch(/^(CMD|ENTRYPOINT) [^[]/m);
    // the smoke test of .ci/run runs these steps
    expect(fs.readFileSync(path.join(ROOT, 'scripts', 'smoke-production.mjs'), 'utf8')).toContain("path.join(ROOT, 'Dockerfile')");
    expect(fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^node scripts\/smoke-production\.mjs$/m);
  });
});
