import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClock } from '../../src/kernel/clock.js';
import { silentLogger } from '../../src/kernel/log.js';
import { openDatabase, type Db } from '../../src/store/db.js';
import { completeJob, scheduleJob } from '../../src/store/jobs-repo.js';
import { jobQueue, type Job } from '../../src/app/job-queue.js';
import { Scheduler } from '../../src/workers/scheduler.js';
import { START, startService, stopService, type TestService } from '../helpers.js';

const OFFSET_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000+00:00');

let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

describe('GET /sandbox/clock and POST /sandbox/clock/advance', () => {
  it('reads {now} as ISO 8601 with offset; advance moves it by exactly the seconds', async () => {
    t = await startService();
    const c = await t.admin('GET', '/sandbox/clock');
    expect(c.status).toBe(200);
    expect(Object.keys(c.body)).toEqual(['now']);
    expect(c.body.now).toMatch(OFFSET_ISO);
    expect(Date.parse(c.body.now)).toBe(START);
    expect(c.body.now).toBe('2026-03-01T12:00:00.000000+00:00');

    const a = await t.advance(90);
    expect(a.status).toBe(200);
    expect(Object.keys(a.body)).toEqual(['now']);
    expect(a.body.now).toBe(iso(START + 90_000));
    expect((await t.admin('GET', '/sandbox/clock')).body.now).toBe(a.body.now);

    const b = await t.advance(1.5);
    expect(b.body.now).toBe(iso(START + 91_500));
    const d = await t.advance(86_400);
    expect(d.body.now).toBe(iso(START + 91_500 + 86_400_000));
    const zero = await t.advance(0);
    expect(zero.body.now).toBe(d.body.now);
    // real time stands still in the harness: reading again does not move it
    expect((await t.admin('GET', '/sandbox/clock')).body.now).toBe(d.body.now);
  });

  it('refuses a bad advance body with 400 and does not move the clock', async () => {
    t = await startService();
    for (const body of [{ seconds: -1 }, { seconds: '10' }, {}, { seconds: 10, extra: 1 }, { seconds: null }]) {
      const r = await t.admin('POST', '/sandbox/clock/advance', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
    expect((await t.admin('GET', '/sandbox/clock')).body.now).toBe(iso(START));
  });

  it('timestamps in responses follow the service clock', async () => {
    t = await startService();
    await t.advance(3600);
    const p = await t.newPartner();
    const view = (await t.admin('GET', `/partners/${p.id}`)).body;
    expect(Date.parse(view.keys[0].created_at)).toBe(START + 3_600_000);
    const ledger = (await t.admin('GET', `/partners/${p.id}/ledger`)).body.items;
    expect(ledger.map((e: any) => Date.parse(e.created_at))).toEqual([START + 3_600_000, START + 3_600_000]);
    await t.advance(60);
    const more = await t.admin('POST', `/partners/${p.id}/topups`, { currency: 'USD', amount: '5.00', network: 'ton', tx_hash: 'clock-1' });
    expect(more.status).toBe(201);
    const last = (await t.admin('GET', `/partners/${p.id}/ledger?currency=USD`)).body.items.at(-1);
    expect(last.created_at).toBe(iso(START + 3_660_000));
  });

  it('advance runs what falls due: a stars order is delivered a few seconds of service clock later', async () => {
    t = await startService();
    const p = await t.newPartner();
    const o = await p.order('stars', { quantity: 100, recipient: '@clock_user' });
    expect(o.status, o.raw).toBe(200);
    expect(o.body.status).toBe('processing');
    await t.advance(60);
    const after = await p.call('GET', `/orders/${o.body.order_id}`);
    expect(after.body.status).toBe('completed');
    expect(Date.parse(after.body.completed_at)).toBeGreaterThan(START);
    expect(Date.parse(after.body.completed_at)).toBeLessThanOrEqual(START + 60_000);
  });

  it('the clock offset survives a restart', async () => {
    t = await startService();
    await t.advance(7200);
    const before = (await t.admin('GET', '/sandbox/clock')).body.now;
    expect(before).toBe(iso(START + 7_200_000));
    await stopService(t, false);
    t = await startService(t.env, { dir: t.dir });
    expect((await t.admin('GET', '/sandbox/clock')).body.now).toBe(before);
    await t.advance(60);
    const { env, dir } = t;
    await stopService(t, false);
    // real time moved on 10 s while the service was down: the offset is kept, real time adds to it
    t = await startService(env, { dir, realNow: () => START + 10_000 });
    expect((await t.admin('GET', '/sandbox/clock')).body.now).toBe(iso(START + 7_200_000 + 60_000 + 10_000));
  });
});

describe('Scheduler', () => {
  let db: Db | undefined;
  let dir: string | undefined;
  afterEach(() => {
    db?.$client.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    db = undefined;
    dir = undefined;
  });

  function setup() {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-sched-'));
    db = openDatabase(path.join(dir, 'sched.db'));
    const clock = new ServiceClock(() => START);
    return { db, clock };
  }

  it('runs jobs in time order during one advance, at their due times, including a self-rescheduling job', async () => {
    const { db, clock } = setup();
    const runs: [string, number][] = [];
    let ticks = 0;
    const scheduler = new Scheduler(
      jobQueue(db),
      clock,
      {
        once: async (job: Job) => {
          runs.push([job.ref, clock.now()]);
          completeJob(db, job.jobId);
        },
        tick: async (job: Job) => {
          runs.push([`tick${++ticks}`, clock.now()]);
          if (ticks < 5) scheduleJob(db, 'tick', job.ref, clock.now() + 60_000, clock.now());
          else completeJob(db, job.jobId);
        },
      },
      silentLogger,
    );
    // inserted out of time order on purpose
    scheduleJob(db, 'once', 'at3600', START + 3_600_000, START);
    scheduleJob(db, 'once', 'at70', START + 70_000, START);
    scheduleJob(db, 'once', 'at10', START + 10_000, START);
    scheduleJob(db, 'once', 'at5000', START + 5_000_000, START); // beyond the advance
    scheduleJob(db, 'tick', 'loop', START + 30_000, START);

    const now = await scheduler.advance(4000 * 1000);
    expect(now).toBe(START + 4_000_000);
    expect(clock.now()).toBe(START + 4_000_000);
    expect(runs).toEqual([
      ['at10', START + 10_000],
      ['tick1', START + 30_000],
      ['at70', START + 70_000],
      ['tick2', START + 90_000],
      ['tick3', START + 150_000],
      ['tick4', START + 210_000],
      ['tick5', START + 270_000],
      ['at3600', START + 3_600_000],
    ]);
    const left = db.$client.prepare('select kind, ref, run_at from jobs').all();
    expect(left).toEqual([{ kind: 'once', ref: 'at5000', run_at: START + 5_000_000 }]);

    // the next advance picks it up at its own time
    await scheduler.advance(1_000_000);
    expect(runs.at(-1)).toEqual(['at5000', START + 5_000_000]);
    expect(db.$client.prepare('select count(*) as n from jobs').get()).toEqual({ n: 0 });
    await scheduler.stop();
  });

  it('runs a job that is already due before moving the clock, and retries a failing handler with backoff', async () => {
    const { db, clock } = setup();
    const runs: [string, number][] = [];
    let failures = 0;
    const scheduler = new Scheduler(
      jobQueue(db),
      clock,
      {
        flaky: async (job: Job) => {
          runs.push([job.ref, clock.now()]);
          if (failures++ < 2) throw new Error('transient');
          completeJob(db, job.jobId);
        },
        once: async (job: Job) => {
          runs.push([job.ref, clock.now()]);
          completeJob(db, job.jobId);
        },
      },
      silentLogger,
    );
    scheduleJob(db, 'once', 'due-now', START - 1000, START);
    scheduleJob(db, 'flaky', 'f', START + 1000, START);
    await scheduler.advance(60_000);
    // 5 s after the first failure, 10 s after the second
    expect(runs).toEqual([
      ['due-now', START],
      ['f', START + 1000],
      ['f', START + 6000],
      ['f', START + 16_000],
    ]);
    expect(db.$client.prepare('select count(*) as n from jobs').get()).toEqual({ n: 0 });
    await scheduler.stop();
  });

  it('serialises concurrent advances', async () => {
    const { db, clock } = setup();
    const runs: number[] = [];
    const scheduler = new Scheduler(jobQueue(db), clock, { once: async (job: Job) => void (runs.push(clock.now()), completeJob(db, job.jobId)) }, silentLogger);
    for (let i = 1; i <= 4; i++) scheduleJob(db, 'once', `j${i}`, START + i * 25_000, START);
    const [a, b] = await Promise.all([scheduler.advance(50_000), scheduler.advance(50_000)]);
    expect(a).toBe(START + 50_000);
    expect(b).toBe(START + 100_000);
    expect(runs).toEqual([START + 25_000, START + 50_000, START + 75_000, START + 100_000]);
    await scheduler.stop();
  });
});
