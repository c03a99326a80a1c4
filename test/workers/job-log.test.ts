import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClock } from '../../src/kernel/clock.js';
import { openDatabase } from '../../src/store/db.js';
import { completeJob, getJob, scheduleJob } from '../../src/store/jobs-repo.js';
import { jobQueue, type Job } from '../../src/app/job-queue.js';
import { Scheduler } from '../../src/workers/scheduler.js';
import { settleOrder, START, startService, stopService, type TestService } from '../helpers.js';

/** Issue 16 bug 7: the log warns about real faults only, not about handlers that wait on purpose. */

type Entry = { level: string; obj: any; msg?: string };
function capture(): { entries: Entry[]; log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void; error(o: unknown, m?: string): void } } {
  const entries: Entry[] = [];
  return {
    entries,
    log: {
      info: () => {},
      warn: (obj, msg) => void entries.push({ level: 'warn', obj, msg }),
      error: (obj, msg) => void entries.push({ level: 'error', obj, msg }),
    },
  };
}

const svcLog = capture();
let t: TestService;
beforeAll(async () => {
  t = await startService({}, { log: svcLog.log });
});
afterAll(() => stopService(t));

describe('the service log', () => {
  it('when a gift order goes through its stages on a frozen clock, then nothing is logged as a failure', async () => {
    const p = await t.newPartner();
    const cols = await p.call('GET', '/nft/collections');
    const g = (await p.call('GET', `/nft/gifts?collection=${cols.body.items[0].collection}`)).body.items[0];
    const r = await p.order('nft', { gift: g.gift, recipient: 'lena_user', max_price: g.partner_price });
    expect(r.status).toBe(200);
    const done = await settleOrder(t, p, r.body.order_id);
    expect(done.status).toBe('completed');
    expect(svcLog.entries).toEqual([]);
  });

  it('when a handler leaves its job as it was without saying so, then it is still a logged fault and retried later', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-joblog-'));
    const db = openDatabase(path.join(dir, 'jobs.db'));
    try {
      const clock = new ServiceClock(() => START);
      const c = capture();
      let runs = 0;
      const scheduler = new Scheduler(
        jobQueue(db),
        clock,
        {
          idle: async () => void runs++,
          waits: async (job: Job) => {
            runs++;
            if (runs > 3) return void completeJob(db, job.jobId);
            scheduleJob(db, job.kind, job.ref, clock.now(), clock.now());
            return 'rescheduled';
          },
        },
        c.log,
      );
      scheduleJob(db, 'idle', 'a', clock.now(), clock.now());
      await scheduler.settle();
      expect(c.entries.map((e) => [e.msg, e.obj.err])).toEqual([['job failed; will retry', 'handler for idle left its job unchanged']]);
      expect(getJob(db, 'idle', 'a')).toMatchObject({ attempts: 1, runAt: START + 5_000 });

      runs = 0;
      c.entries.length = 0;
      scheduleJob(db, 'waits', 'b', clock.now(), clock.now());
      await scheduler.settle();
      expect(runs).toBe(4); // ran again at once, as asked, then finished
      expect(c.entries).toEqual([]);
    } finally {
      db.$client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
