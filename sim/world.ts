import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/env.js';
import { silentLogger } from '../src/kernel/log.js';
import { createService, type Service } from '../src/service.js';
import type { TimedPostResult, WebhookTransport } from '../src/app/webhooks/transport.js';
import { resolveAndCheck } from '../src/http-out/webhook-transport.js';
import type { SuppliedEvent } from '../src/suppliers/sandbox/gift-market.js';
import { FragmentStand, WALLET_FUND_TON } from './fragment-stand.js';
import { Prng, seededIds } from './prng.js';

/**
 * The real system of one simulated history: the service built by its own composition root (src/service.ts)
 * on a real SQLite file in a temp folder, the sandbox suppliers, driven through its Fastify app with
 * `app.inject` (the routes call the same application services as the bot). Nothing runs on its own: the
 * workers are not started, real time is frozen, and the service clock moves only when a step advances it
 * (the scheduler then runs what falls due, in time order). The service's ids and randomness, the webhook
 * receiver's answers and every crash point come from the history's seed, so a history replays exactly.
 *
 * A crash is a `kill -9` at a turn of the event loop: the database file and its WAL are copied as they are
 * on disk at that instant (every committed transaction, nothing of the ones queued in memory), the old
 * instance loses its database (whatever it still runs fails), and a new instance starts on the copy. It
 * must resume everything from the file alone.
 */

export const SIM_ADMIN_TOKEN = 'adm_sim_token_0123456789abcdef';
/** Real time, frozen: only the sandbox clock moves. */
export const SIM_START = Date.parse('2026-03-02T08:00:00Z');
/** The receiver's address: a private address, so it is allowed by WEBHOOK_ALLOW_SUBNETS only. */
export const RECEIVER_URL = 'http://127.0.0.2:8099/hook';
const ALLOW_SUBNETS = ['127.0.0.2/32'];

export interface Answer {
  status: number;
  body: any;
  raw: string;
}

export interface ReceivedWebhook {
  url: string;
  body: string;
  headers: Record<string, string>;
  status: number | 'timeout';
}

/** How the receiver answers, drawn per request: mostly 2xx, sometimes an error or a timeout (retried). */
const RECEIVER_OK = 0.8;
const RECEIVER_ERROR = 0.15;

/**
 * Which suppliers a history runs against: the sandbox's (Stars, Premium and gifts, with their simulated
 * outcomes), or Fragment (UPSTREAM=fragment: Stars and Premium bought on the fake Fragment and paid in batches
 * from the hot wallet on the fake chain; no gifts, no sandbox routes).
 */
export type WorldKind = 'sandbox' | 'fragment';

export class World {
  private svc: Service | null = null;
  /** The service clock as last seen (the fakes' time while the service is down between a kill and its start). */
  private lastClock = SIM_START;
  private dir: string;
  private generation = 0;
  private readonly dead: { svc: Service; dir: string }[] = [];
  private readonly env: Record<string, string>;
  readonly rng: Prng;
  readonly received: ReceivedWebhook[] = [];
  /** What the receiver got, by X-Webhook-Id, over the whole history (the receiver outlives any restart). */
  readonly receivedById = new Map<string, { bodies: Set<string>; answered2xx: boolean }>();
  /**
   * What the simulated suppliers sent or took, by order: the suppliers' own books, which outlive a crash of
   * the service (a real supplier is another system), from every instance the history ran.
   */
  readonly supplied = new Map<string, SuppliedEvent[]>();
  restarts = 0;

  private constructor(
    private readonly root: string,
    seed: number,
    /** UPSTREAM=fragment: the fake Fragment and chain of this history */
    readonly fragment: FragmentStand | null,
  ) {
    this.rng = new Prng(seed ^ 0x5eed);
    this.dir = path.join(root, 'gen0');
    this.env = {
      ...(fragment ? fragment.env() : {}),
      SANDBOX_DEMO: '0',
      UPSTREAM: 'sandbox',
      ADMIN_TOKEN: SIM_ADMIN_TOKEN,
      // the key that seals webhook secrets, from the seed (no key file to carry across a crash)
      SECRET_ENCRYPTION_KEY: crypto.createHash('sha256').update(`sim-secret-${seed}`).digest('hex'),
      WEBHOOK_ALLOW_SUBNETS: ALLOW_SUBNETS.join(','),
      // the frozen real time never refills a token bucket: the limits are not what is simulated here
      API_RATE_LIMIT: '10000000',
      API_RATE_BURST: '10000000',
      NFT_CATALOG_RATE_LIMIT: '10000000',
      NFT_ORDERS_RATE_LIMIT: '10000000',
      VALIDATE_RECIPIENT_RATE_LIMIT: '10000000',
      LOG_LEVEL: 'silent',
    };
    if (fragment) this.env.UPSTREAM = 'fragment';
  }

  get kind(): WorldKind {
    return this.fragment ? 'fragment' : 'sandbox';
  }

  static async open(seed: number, kind: WorldKind = 'sandbox', tmpRoot = os.tmpdir()): Promise<World> {
    const root = fs.mkdtempSync(path.join(tmpRoot, 'sim-'));
    let w: World | null = null;
    // a small batch limit in some histories, so that the orders waiting fill more than one batch
    const stand = kind === 'fragment' ? await FragmentStand.open(() => Math.floor((w ? w.clockNow() : SIM_START) / 1000), (seed & 1) === 0 ? 255 : 3) : null;
    w = new World(root, seed, stand);
    fs.mkdirSync(w.dir, { recursive: true });
    await w.boot();
    if (stand) {
      // the operator funds the hot wallet before the first order
      await stand.ton.fund(w.service.fragment!.wallet.address, WALLET_FUND_TON);
      await w.service.fragment!.refresh();
    }
    return w;
  }

  /** The service's clock, or where it stood when the service went down. */
  private clockNow(): number {
    if (this.svc) this.lastClock = this.svc.deps.clock.now();
    return this.lastClock;
  }

  private async boot(): Promise<void> {
    const config = loadConfig({ ...this.env, DATABASE_PATH: path.join(this.dir, 'service.db') });
    this.svc = await createService({
      config,
      log: silentLogger,
      realNow: () => SIM_START,
      ids: seededIds(this.rng),
      startWorkers: false,
      adminToken: SIM_ADMIN_TOKEN,
      webhookTransport: this.transport,
    });
    // the workers are not started (nothing runs on its own): Fragment's prices and the wallet are read here,
    // as the adapter's start does, and after every move of the clock (its timer would have, meanwhile)
    if (this.svc.fragment) await this.svc.fragment.refresh();
    const svc = this.svc;
    svc.sandbox.onSupplied((e) => {
      // a killed instance's code may still run a few turns in this process; a killed process would not have
      // reached its supplier any more: what it "supplies" after its kill never happened
      if (this.svc !== svc) return;
      const list = this.supplied.get(e.orderId) ?? [];
      list.push(e);
      this.supplied.set(e.orderId, list);
    });
  }

  /** The receiver inside the process: the real address check, then an answer drawn from the seed. */
  private readonly transport: WebhookTransport = {
    resolve: (host, literalIp) => resolveAndCheck(host, literalIp, ALLOW_SUBNETS, undefined),
    post: async (url, _addresses, body, headers, timeoutMs): Promise<TimedPostResult> => {
      const r = this.rng.next();
      const status = r < RECEIVER_OK ? 200 : r < RECEIVER_OK + RECEIVER_ERROR ? 500 : ('timeout' as const);
      this.received.push({ url, body, headers: { ...headers }, status });
      const id = headers['X-Webhook-Id'] ?? '';
      const seen = this.receivedById.get(id) ?? { bodies: new Set<string>(), answered2xx: false };
      seen.bodies.add(body);
      if (status === 200) seen.answered2xx = true;
      this.receivedById.set(id, seen);
      return status === 'timeout' ? { kind: 'timeout', durationMs: timeoutMs } : { kind: 'response', status, durationMs: 1 };
    },
    close: async () => {},
  };

  get service(): Service {
    if (!this.svc) throw new Error('the service is down');
    return this.svc;
  }

  /** The service's clock (ms). */
  now(): number {
    return this.service.deps.clock.now();
  }

  async inject(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const r = await this.service.app.inject({
      method: method as 'GET',
      url,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed: any = null;
    try {
      parsed = r.body ? JSON.parse(r.body) : null;
    } catch {
      parsed = null;
    }
    return { status: r.statusCode, body: parsed, raw: r.body };
  }

  admin(method: string, url: string, body?: unknown): Promise<Answer> {
    return this.inject(method, `/api/admin/v1${url}`, body, { authorization: `Bearer ${SIM_ADMIN_TOKEN}` });
  }

  partner(key: string, method: string, url: string, body?: unknown): Promise<Answer> {
    return this.inject(method, `/api/partner/v1${url}`, body, { authorization: `Bearer ${key}` });
  }

  /**
   * Moves the sandbox clock forward; the scheduler runs what falls due, in time order. With Fragment (no
   * sandbox routes) the same scheduler call the route makes, then the refresh of prices and wallet that the
   * adapter's timer makes every minute.
   */
  async advance(seconds: number): Promise<Answer> {
    if (!this.fragment) return this.admin('POST', '/sandbox/clock/advance', { seconds });
    const svc = this.service;
    try {
      const now = await svc.scheduler.advance(Math.round(seconds * 1000));
      await svc.fragment!.refresh();
      return { status: 200, body: { now }, raw: '' };
    } catch (e) {
      return { status: 500, body: null, raw: `the clock advance failed: ${(e as Error).message}` };
    }
  }

  private statements = new Map<string, import('better-sqlite3').Statement>();

  /** Rows of a read on the live database (between steps: no transaction is open). */
  sql<T = Record<string, any>>(query: string, ...params: unknown[]): T[] {
    let st = this.statements.get(query);
    if (!st) {
      st = this.service.db.$client.prepare(query);
      this.statements.set(query, st);
    }
    return st.all(...params) as T[];
  }

  /**
   * Kills the process at this instant and starts it again on what was on disk. Synchronous up to the copy
   * and the close: no other code runs between them, so the copy is what a crash at this turn would leave.
   */
  async crash(): Promise<void> {
    const old = this.service;
    this.clockNow();
    const oldDir = this.dir;
    this.svc = null;
    this.dir = path.join(this.root, `gen${++this.generation}`);
    fs.mkdirSync(this.dir);
    for (const f of ['service.db', 'service.db-wal']) {
      const from = path.join(oldDir, f);
      if (fs.existsSync(from)) fs.copyFileSync(from, path.join(this.dir, f));
    }
    old.db.$client.close();
    this.statements.clear();
    this.dead.push({ svc: old, dir: oldDir });
    this.restarts++;
    await this.boot();
  }

  /** A graceful stop (SIGTERM: the service finishes what it has under way and closes) and a start on the same file. */
  async restart(): Promise<void> {
    const svc = this.service;
    this.clockNow();
    this.svc = null;
    await svc.close();
    this.statements.clear();
    this.restarts++;
    await this.boot();
  }

  /**
   * Forgets the killed instances once the work they had under way has failed (the caller waits for it):
   * their timers stopped, their folders removed. Nothing of theirs reaches the new instance.
   */
  async bury(): Promise<void> {
    for (const d of this.dead.splice(0)) {
      await d.svc.ops.close().catch(() => {});
      fs.rmSync(d.dir, { recursive: true, force: true });
    }
  }

  /** The end of a history: a graceful stop, and the folder removed. */
  async close(): Promise<void> {
    await this.bury();
    const svc = this.svc;
    this.svc = null;
    if (svc) await svc.close().catch(() => {});
    await this.fragment?.close();
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** Lets the event loop turn `n` times (the work under way moves on by that much). */
export async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}
