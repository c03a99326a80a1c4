// The build-prune-start smoke test of the production path (.ci/run), made of the Dockerfile's own steps so that
// CI proves what the image does (no container engine here):
//  1. the build stage: a copy of this checkout as `COPY . .` and `npm ci` leave it (the tracked files, the
//     installed node_modules, the build that npm ci's postinstall made), then every RUN step after `npm ci`
//     (the build, `npm prune --omit=dev`);
//  2. the runtime stage: its `COPY --from=build` list into a folder of its own, its ENV (the volume's paths put
//     in a temporary folder, the port a free one), its ENTRYPOINT started as is, without a shell;
//  3. its HEALTHCHECK command until it passes, one order through the API, SIGTERM, and exit 0 within 10 s;
//  4. an operations command in the pruned build stage after a source's time stamp changed: it runs the build
//     that is there (no staleness gate without the build tools).
// Prints one line per step and `smoke: ok`, or the failing step and exits 1.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-smoke-'));
const buildDir = path.join(work, 'build');
const runDir = path.join(work, 'app');
const dataDir = path.join(work, 'data');
const step = (s) => process.stdout.write(`smoke: ${s}\n`);
function fail(msg) {
  process.stdout.write(`smoke: FAILED: ${msg}\n`);
  process.exit(1);
}

/** The Dockerfile's stages: instructions (continuation lines joined), by stage. */
function dockerfile() {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const stages = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l || l.startsWith('#')) continue;
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(l) ?? [];
    if (op === 'FROM') stages.push({ from: rest, steps: [] });
    else stages.at(-1).steps.push({ op, rest });
  }
  return { build: stages[0], runtime: stages.at(-1) };
}

function sh(cmd, cwd, env = process.env) {
  // RUN's shell form, as docker runs it
  const r = spawnSync('/bin/sh', ['-c', cmd], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) fail(`\`${cmd}\` exited ${r.status}: ${(r.stderr || r.stdout).trim().slice(-2000)}`);
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const { build, runtime } = dockerfile();
if (!build.from.includes(' AS build') || !/^node:20\b/.test(build.from) || !/^node:20\b/.test(runtime.from)) fail(`unexpected stages: ${build.from} / ${runtime.from}`);

// 1. the build stage
fs.mkdirSync(buildDir, { recursive: true });
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const ignored = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
for (const f of tracked) {
  if (ignored.some((g) => f === g || f.startsWith(`${g}/`))) continue;
  if (!fs.existsSync(path.join(ROOT, f))) continue;
  fs.mkdirSync(path.dirname(path.join(buildDir, f)), { recursive: true });
  fs.copyFileSync(path.join(ROOT, f), path.join(buildDir, f));
  const st = fs.statSync(path.join(ROOT, f));
  fs.utimesSync(path.join(buildDir, f), st.atime, st.mtime);
}
// what `npm ci` leaves: the installed packages (hard links: the prune below unlinks, never writes in place;
// npm's own lock file in node_modules is copied) and the build its postinstall made
try {
  execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(buildDir, 'node_modules')], { stdio: 'ignore' });
} catch {
  // another file system than the checkout's: a plain copy
  fs.rmSync(path.join(buildDir, 'node_modules'), { recursive: true, force: true });
  execFileSync('cp', ['-a', path.join(ROOT, 'node_modules'), path.join(buildDir, 'node_modules')]);
}
fs.rmSync(path.join(buildDir, 'node_modules', '.package-lock.json'), { force: true });
fs.copyFileSync(path.join(ROOT, 'node_modules', '.package-lock.json'), path.join(buildDir, 'node_modules', '.package-lock.json'));
for (const d of ['dist', 'webapp/dist']) execFileSync('cp', ['-a', path.join(ROOT, d), path.join(buildDir, d)]);
const runs = build.steps.filter((s) => s.op === 'RUN').map((s) => s.rest);
const ci = runs.findIndex((r) => r.startsWith('npm ci'));
if (ci < 0) fail('no `npm ci` step in the build stage');
for (const r of runs.slice(ci + 1)) {
  step(`build stage: ${r}`);
  sh(r, buildDir);
}
for (const t of ['typescript', 'vite', 'tsx', 'esbuild']) if (fs.existsSync(path.join(buildDir, 'node_modules', t))) fail(`${t} is still installed after the prune`);

// 2. the runtime stage
fs.mkdirSync(runDir);
const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? os.tmpdir() };
let entry = null;
let health = null;
for (const { op, rest } of runtime.steps) {
  if (op === 'COPY') {
    const parts = rest.split(/\s+/).filter((p) => !p.startsWith('--'));
    const dest = parts.pop();
    for (const src of parts) {
      const rel = path.relative('/app', src);
      const to = dest === './' ? path.join(runDir, path.basename(rel)) : path.join(runDir, dest);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      execFileSync('cp', ['-a', path.join(buildDir, rel), to]);
    }
  } else if (op === 'ENV') {
    for (const m of rest.matchAll(/(\w+)=(\S+)/g)) env[m[1]] = m[2];
  } else if (op === 'ENTRYPOINT') entry = JSON.parse(rest);
  else if (op === 'HEALTHCHECK') health = JSON.parse(rest.slice(rest.indexOf('CMD') + 3).trim());
}
if (!entry || entry[0] !== 'node') fail('the ENTRYPOINT is not node in exec form');
if (!health) fail('no HEALTHCHECK');
// the volume in a temporary folder, a free port on loopback
for (const k of Object.keys(env)) if (typeof env[k] === 'string' && env[k].startsWith('/data')) env[k] = env[k].replace('/data', dataDir);
fs.mkdirSync(dataDir);
env.PORT = String(await freePort());
env.HOST = '127.0.0.1';
env.UPSTREAM = 'sandbox';
env.ADMIN_TOKEN = 'adm_smoke_test_token_0123456789';
step(`runtime stage: ${entry.join(' ')} (NODE_ENV=${env.NODE_ENV}, PORT=${env.PORT})`);
const child = spawn(entry[0], entry.slice(1), { cwd: runDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
child.stdout.on('data', (c) => (out += c));
child.stderr.on('data', (c) => (out += c));
const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));

// 3. the health check, one order, SIGTERM
let healthy = false;
for (const until = Date.now() + 60_000; Date.now() < until && child.exitCode === null; ) {
  if (spawnSync(health[0], health.slice(1), { env, stdio: 'ignore' }).status === 0) {
    healthy = true;
    break;
  }
  await new Promise((r) => setTimeout(r, 250));
}
if (!healthy) {
  child.kill('SIGKILL');
  fail(`the HEALTHCHECK never passed: ${out.slice(-2000)}`);
}
step('HEALTHCHECK passes');
const base = `http://127.0.0.1:${env.PORT}`;
const admin = (method, p, body) =>
  fetch(`${base}/api/admin/v1${p}`, { method, headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
const partner = await admin('POST', '/partners', { name: 'Smoke' });
const topup = await admin('POST', `/partners/${partner.body.partner_id}/topups`, { currency: 'USD', amount: '20.00', network: 'ton', tx_hash: 'smoke-1' });
const key = await admin('POST', `/partners/${partner.body.partner_id}/keys`, {});
const order = await fetch(`${base}/api/partner/v1/orders`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key.body.api_key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'stars', idempotency_key: 'smoke-1', params: { quantity: 50, recipient: '@smoke_user' } }),
});
if (partner.status !== 201 || topup.status !== 201 || key.status !== 201 || order.status !== 200) fail(`the API: ${partner.status} ${topup.status} ${key.status} ${order.status}`);
if ((await fetch(`${base}/app/`)).status !== 200) fail('the Mini App is not served');
step('an order through the API, the Mini App served');
const sent = Date.now();
child.kill('SIGTERM');
const end = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 10_000))]);
if (!end || end.code !== 0) {
  child.kill('SIGKILL');
  fail(`SIGTERM: ${JSON.stringify(end)} after ${Date.now() - sent} ms: ${out.slice(-2000)}`);
}
step(`SIGTERM: exit 0 in ${Date.now() - sent} ms`);

// 4. an operations command in the pruned install, a source's time stamp changed
const touched = path.join(buildDir, 'src', 'main.ts');
const later = new Date(Date.now() + 60_000);
fs.utimesSync(touched, later, later);
sh(`npm run backup --silent -- ${path.join(dataDir, 'manual.db')}`, buildDir, { ...process.env, ...env, DATABASE_PATH: env.DATABASE_PATH });
if (!fs.existsSync(path.join(dataDir, 'manual.db'))) fail('npm run backup wrote no file');
step('npm run backup in the pruned install (a source newer than the build): ok');

if (!keep) fs.rmSync(work, { recursive: true, force: true });
step('ok');
