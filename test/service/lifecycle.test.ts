import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { freePort } from '../helpers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The real service as a process: `tsx src/main.ts` (the local binary `npx tsx` runs), on a free port,
 * started in an empty folder so no .env file interferes.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const MAIN = path.join(ROOT, 'src', 'main.ts');
const ADMIN = 'adm_lifecycle_token_0123456789';
const CONFIG_VARS =
  /^(PORT|HOST|DATABASE_PATH|ADMIN_TOKEN|UPSTREAM|SANDBOX_DEMO|PUBLIC_BASE_URL|TRUST_PROXY|API_RATE_.*|NFT_.*|VALIDATE_.*|STARS_.*|WEBHOOK_.*|DEPOSIT_.*|TELEGRAM_.*|ADMIN_CHAT_IDS|SECRET_ENCRYPTION_KEY|LOG_LEVEL|NODE_OPTIONS)$/;

interface Proc {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function start(dir: string, port: number): Proc {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !CONFIG_VARS.test(k)) env[k] = v;
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: path.join(dir, 'data', 'service.db'), ADMIN_TOKEN: ADMIN, SANDBOX_DEMO: '1' });
  const child = spawn(TSX, [MAIN], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitHealthy(base: string, proc: Proc, timeoutMs = 20_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`service exited early: ${proc.stderr()}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.status === 200) return r;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`service not healthy in time: ${proc.stdout()}\n${proc.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopGracefully(proc: Proc): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const sent = Date.now();
  proc.child.kill('SIGTERM');
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no exit within 10 s of SIGTERM')), 10_000));
  const e = await Promise.race([proc.exited, timeout]);
  return { code: e.code, signal: e.signal, ms: e.at - sent };
}

/** Follows the printed dashboard sign-in link as its page does: true when it opens the demo partner's owner session. */
async function signsIn(base: string, out: string): Promise<boolean> {
  const m = /^ {2}(http:\S+\/app\/#signin=([A-Za-z0-9_-]+))$/m.exec(out);
  if (!m || !m[1].startsWith(`${base}/app/`)) return false;
  const r = await fetch(`${base}/api/app/v1/sign-in`, { method: 'POST', headers: { origin: base, 'content-type': 'application/json' }, body: JSON.stringify({ token: m[2] }) });
  const session = (await r.json()) as any;
  return r.status === 200 && session.user?.role === 'owner' && session.partner?.name === 'Demo partner';
}

describe('the service process', () => {
  let dir: string;
  let port: number;
  let base: string;
  let first: Proc | undefined;
  let second: Proc | undefined;
  let demoKey = '';

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-life-'));
  });
  afterAll(() => {
    for (const p of [first, second]) if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts, answers /healthz, prints the demo key and a curl line, and the key works', async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    first = start(dir, port);
    const h = await waitHealthy(base, first);
    expect(h.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await h.json()).toEqual({ status: 'ok' });
    expect(fs.existsSync(path.join(dir, 'data', 'service.db'))).toBe(true); // folder created

    const out = first.stdout();
    const keyLine = out.split('\n').find((l) => /pk_live_/.test(l) && !/curl/.test(l));
    expect(keyLine, out).toBeDefined();
    const m = /(pk_live_[A-Za-z0-9_-]+)/.exec(keyLine!);
    expect(m).not.toBeNull();
    demoKey = m![1];
    expect(demoKey.length).toBeGreaterThan(30);
    const curl = out.split('\n').find((l) => /\bcurl\b/.test(l));
    expect(curl, out).toBeDefined();
    expect(curl).toContain(demoKey);
    expect(curl).toContain(`${base}/api/partner/v1/`);
    expect(out).toMatch(/1000\.00 USD/);
    expect(out).toMatch(/1000\.000 TON/);
    // the operator token was given, so none is generated
    expect(out).not.toMatch(/Operator API token/);

    // the dashboard's sign-in link signs in as the demo partner's owner; the line for local receivers
    expect(out.split('\n')).toContain('  WEBHOOK_ALLOW_SUBNETS=127.0.0.0/8,::1/128');
    expect(await signsIn(base, out)).toBe(true);

    const me = await fetch(`${base}/api/partner/v1/me`, { headers: { authorization: `Bearer ${demoKey}` } });
    expect(me.status).toBe(200);
    const body = (await me.json()) as any;
    expect(body).toMatchObject({ status: 'active', balance: '1000.00', currency: 'USD', balances: { USD: '1000.00', TON: '1000.000' }, nft_balance: '1000.000' });
    const unauth = await fetch(`${base}/api/partner/v1/me`);
    expect(unauth.status).toBe(401);
    expect(await unauth.json()).toMatchObject({ detail: { code: 'unauthorized' } });
    const adm = await fetch(`${base}/api/admin/v1/partners/${body.partner_id}`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(adm.status).toBe(200);
    expect(await adm.json()).toMatchObject({ status: 'active', balances: { USD: '1000.00', TON: '1000.000' } });
    const check = await fetch(`${base}/api/admin/v1/ledger/check`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(await check.json()).toEqual({ ok: true, problems: [] });
  });

  it('exits 0 within 10 s of SIGTERM', async () => {
    expect(first).toBeDefined();
    const r = await stopGracefully(first!);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(10_000);
    expect(first!.stderr()).not.toMatch(/fatal|Error/);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it('a second start on the same database creates no second demo partner and keeps the first key', async () => {
    second = start(dir, port);
    await waitHealthy(base, second);
    expect(second.stdout()).not.toMatch(/pk_live_/);
    expect(second.stdout()).not.toMatch(/demo partner #/i);
    // a new dashboard link each start (the one of the first start was spent)
    expect(await signsIn(base, second.stdout())).toBe(true);
    const me = await fetch(`${base}/api/partner/v1/me`, { headers: { authorization: `Bearer ${demoKey}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).balances).toEqual({ USD: '1000.00', TON: '1000.000' });
    const r = await stopGracefully(second);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(10_000);

    const db = new Database(path.join(dir, 'data', 'service.db'), { readonly: true });
    try {
      expect(db.prepare('select count(*) as n from partners').get()).toEqual({ n: 1 });
      expect(db.prepare('select count(*) as n from api_keys').get()).toEqual({ n: 1 });
      expect(db.prepare('select count(*) as n from ledger_entries').get()).toEqual({ n: 2 });
      expect(db.prepare('select count(*) as n from topups').get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  });
});
