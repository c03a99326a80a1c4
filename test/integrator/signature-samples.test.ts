import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { signV1, signV2 } from '../../src/domain/webhook-signing.js';
import { freePort, startReceiver, startService, stopService, type TestPartner, type TestService } from '../helpers.js';

/**
 * The webhook verification samples of examples/ in Node, Python, PHP and Go, each run against the service's
 * own signing: as the receiver the integrator guide starts (a real webhook of the service verified; after
 * the sandbox clock moves ahead, refused until the receiver is given the clock's lead, then verified on a
 * redelivery), and through its `--check` mode on the published test vector and its tampered, stale and
 * wrongly keyed variants. A language whose tool is missing skips and says so in its name.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EX = path.join(ROOT, 'examples');
const VECTOR = JSON.parse(fs.readFileSync(path.join(EX, 'webhook-test-vector.json'), 'utf8'));
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-samples-'));

interface Lang {
  name: string;
  /** Why it cannot run here, or null. */
  missing: string | null;
  /** Builds what is needed once (Go compiles). */
  prepare?: () => void;
  check: () => [string, string[]];
  serve: (port: number) => [string, string[]];
}

const has = (cmd: string, arg: string) => spawnSync(cmd, [arg], { encoding: 'utf8' }).status === 0;
const GO_BIN = path.join(TMP, 'verify-webhook');
const LANGS: Lang[] = [
  { name: 'Node', missing: null, check: () => [process.execPath, [path.join(EX, 'verify-webhook.mjs'), '--check']], serve: () => [process.execPath, [path.join(EX, 'verify-webhook.mjs')]] },
  {
    name: 'Python',
    missing: has('python3', '--version') ? null : 'python3 not found (apt-get install python3)',
    check: () => ['python3', [path.join(EX, 'verify_webhook.py'), '--check']],
    serve: () => ['python3', [path.join(EX, 'verify_webhook.py')]],
  },
  {
    name: 'PHP',
    missing: has('php', '-v') ? null : 'php not found (apt-get install php-cli)',
    check: () => ['php', [path.join(EX, 'verify-webhook.php'), '--check']],
    serve: (port) => ['php', ['-S', `127.0.0.1:${port}`, path.join(EX, 'verify-webhook.php')]],
  },
  {
    name: 'Go',
    missing: has('go', 'version') ? null : 'go not found (apt-get install golang-go)',
    prepare: () => {
      if (fs.existsSync(GO_BIN)) return;
      const b = spawnSync('go', ['build', '-o', GO_BIN, 'verify-webhook.go'], { cwd: EX, encoding: 'utf8', env: { ...process.env, GOFLAGS: '' } });
      if (b.status !== 0) throw new Error(`go build: ${b.stderr}`);
    },
    check: () => [GO_BIN, ['-check']],
    serve: () => [GO_BIN, []],
  },
];

interface Case {
  secret: string;
  headers: Record<string, string>;
  body_hex: string;
  now: number;
}

const vectorHeaders = (v = VECTOR) => ({ 'X-Signature': v.x_signature, 'X-Signature-V2': v.x_signature_v2, 'X-Timestamp': v.timestamp, 'X-Webhook-Id': '0123456789abcdef01234567' });
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

/** The cases every language must judge alike, with the expected verdicts. */
function cases(): { what: string; c: Case; expect: { v1: boolean; v2: boolean; ok: boolean } }[] {
  const ts = Number(VECTOR.timestamp);
  const base = { secret: VECTOR.secret, headers: vectorHeaders(), body_hex: hex(VECTOR.body), now: ts };
  return [
    { what: 'the test vector', c: base, expect: { v1: true, v2: true, ok: true } },
    { what: 'the vector at the edge of the window (+300 s)', c: { ...base, now: ts + 300 }, expect: { v1: true, v2: true, ok: true } },
    { what: 'the vector 301 s later', c: { ...base, now: ts + 301 }, expect: { v1: true, v2: true, ok: false } },
    { what: 'the vector 301 s earlier', c: { ...base, now: ts - 301 }, expect: { v1: true, v2: true, ok: false } },
    { what: 'the key without its whsec_ prefix', c: { ...base, secret: VECTOR.secret.slice('whsec_'.length) }, expect: { v1: false, v2: false, ok: false } },
    { what: 'another secret', c: { ...base, secret: `${VECTOR.secret.slice(0, -1)}0` }, expect: { v1: false, v2: false, ok: false } },
    { what: 'a tampered body', c: { ...base, body_hex: hex(VECTOR.body.replace('"completed"', '"failed"')) }, expect: { v1: false, v2: false, ok: false } },
    { what: 're-serialised JSON (escaped Cyrillic, no spaces)', c: { ...base, body_hex: hex(JSON.stringify(JSON.parse(VECTOR.body))) }, expect: { v1: false, v2: false, ok: false } },
    { what: 'another timestamp with the same signatures', c: { ...base, headers: { ...vectorHeaders(), 'X-Timestamp': String(ts + 1) }, now: ts + 1 }, expect: { v1: true, v2: false, ok: false } },
    { what: 'lower-case header names', c: { ...base, headers: Object.fromEntries(Object.entries(vectorHeaders()).map(([k, v]) => [k.toLowerCase(), v])) }, expect: { v1: true, v2: true, ok: true } },
  ];
}

const children: ChildProcess[] = [];
const services: TestService[] = [];

/** A service whose clock starts at this machine's time, as a fresh local sandbox's, and a partner with a secret. */
async function localSandbox(): Promise<{ t: TestService; p: TestPartner }> {
  const t = await startService({ WEBHOOK_ALLOW_SUBNETS: '127.0.0.0/8,::1/128' }, { realNow: () => Date.now() });
  services.push(t);
  return { t, p: await t.newPartner({ webhookUrl: '' }) };
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const t of services) await stopService(t);
  fs.rmSync(TMP, { recursive: true, force: true });
});

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts a sample's receiver; resolves when it accepts connections. Its output (stdout and stderr) is collected. */
async function receiver(lang: Lang, env: Record<string, string>, port: number): Promise<{ url: string; out: () => string; stop: () => Promise<void> }> {
  const [cmd, args] = lang.serve(port);
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, PORT: String(port), WEBHOOK_SEEN_DIR: path.join(TMP, `seen-${port}`), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const url = `http://127.0.0.1:${port}/webhook`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${lang.name} receiver exited: ${out}`);
    const up = await fetch(url, { method: 'GET' }).then(() => true, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`${lang.name} receiver did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    out: () => out,
    stop: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}

describe('the published test vector', () => {
  it("is the service's own signing of a real webhook body (the whsec_ prefix is part of the key)", async () => {
    expect(signV1(VECTOR.secret, VECTOR.body)).toBe(VECTOR.x_signature);
    expect(signV2(VECTOR.secret, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.x_signature_v2);
    expect(VECTOR.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(signV1(VECTOR.secret.slice(6), VECTOR.body)).not.toBe(VECTOR.x_signature);
    // the body is what the service sends for its first order: 100 stars for @durov, completed 3 s after
    const s = await startService();
    try {
      const r = await startReceiver();
      const q = await s.newPartner({ webhookUrl: r.url });
      await q.order('stars', { quantity: 100, recipient: '@durov' });
      await s.advance(5);
      expect(r.requests[0].raw.toString('utf8')).toBe(VECTOR.body);
      expect(r.requests[0].headers['x-timestamp']).toBe(VECTOR.timestamp);
      await r.close();
    } finally {
      await stopService(s);
    }
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'verifying-webhooks.md'), 'utf8');
    for (const v of [VECTOR.secret, VECTOR.timestamp, VECTOR.x_signature, VECTOR.x_signature_v2]) expect(doc).toContain(v);
    expect(doc).toMatch(/`whsec_` prefix is part of the key/);
  });
});

describe.each(LANGS)('the $name sample', (lang) => {
  it.skipIf(lang.missing !== null)(`judges the test vector and its variants as the service signs them${lang.missing ? ` (skipped: ${lang.missing})` : ''}`, () => {
    lang.prepare?.();
    const all = cases();
    const [cmd, args] = lang.check();
    const run = spawnSync(cmd, args, { cwd: ROOT, input: JSON.stringify(all.map((x) => x.c)), encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    const got = JSON.parse(run.stdout.trim().split('\n').pop()!) as { v1: boolean; v2: boolean; ok: boolean; event: string | null; error: string | null }[];
    expect(got.map((g, i) => ({ what: all[i].what, v1: g.v1, v2: g.v2, ok: g.ok }))).toEqual(all.map((x) => ({ what: x.what, ...x.expect })));
    expect(got[0].event).toBe('order.completed');
    expect(got[2].error).toMatch(/300 s window/);
  }, 60_000);

  it.skipIf(lang.missing !== null)(`as a receiver on 127.0.0.1 verifies the service's webhooks, and after the sandbox clock moves ahead needs its lead${lang.missing ? ` (skipped: ${lang.missing})` : ''}`, async () => {
    lang.prepare?.();
    const { t, p } = await localSandbox();
    const port = await freePort();
    const plain = await receiver(lang, { WEBHOOK_SECRET: p.secret! }, port);
    expect((await t.admin('PUT', `/partners/${p.id}/webhook`, { url: plain.url })).status).toBe(200);
    const first = await p.order('stars', { quantity: 100, recipient: `@${lang.name.toLowerCase()}_buyer` });
    await t.advance(5);
    await until(() => plain.out().includes(`verified order.completed ${first.body.order_id}`));
    const d1 = (await p.call('GET', `/webhook-deliveries?order_id=${first.body.order_id}`)).body.items[0];
    expect(d1).toMatchObject({ status: 'delivered' });

    // the sandbox clock an hour ahead: X-Timestamp follows it, so a receiver on this machine's clock refuses
    await t.advance(3600);
    const second = await p.order('stars', { quantity: 100, recipient: `@${lang.name.toLowerCase()}_buyer` });
    await t.advance(5);
    await until(() => plain.out().includes('refused: X-Timestamp outside the 300 s window'));
    const d2 = (await p.call('GET', `/webhook-deliveries?order_id=${second.body.order_id}`)).body.items[0];
    expect(d2).toMatchObject({ status: 'pending' });
    expect(d2.attempts[0]).toMatchObject({ http_status: 401 });
    await plain.stop();

    // the receiver given the clock's lead (GET /sandbox/clock's now minus this machine's time) takes it
    const clock = (await t.admin('GET', '/sandbox/clock')).body.now as string;
    const lead = Math.round((Date.parse(clock) - Date.now()) / 1000);
    expect(lead).toBeGreaterThanOrEqual(3600);
    const led = await receiver(lang, { WEBHOOK_SECRET: p.secret!, WEBHOOK_CLOCK_OFFSET: String(lead) }, port);
    const again = await p.call('POST', `/webhook-deliveries/${d2.delivery_id}/redeliver`);
    expect(again.status, again.raw).toBe(200);
    await until(() => led.out().includes(`verified order.completed ${second.body.order_id}`));
    // a duplicate delivery (same X-Webhook-Id) is acknowledged and not handled twice
    expect((await p.call('POST', `/webhook-deliveries/${d2.delivery_id}/redeliver`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(led.out().split(`verified order.completed ${second.body.order_id}`).length - 1).toBe(1);
    await led.stop();
  }, 60_000);
});
