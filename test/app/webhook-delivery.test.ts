/**
 * Webhook delivery's decisions (src/app/webhooks/deliver.ts), run directly: a WebhookDispatcher on a real
 * service's dependencies and the real SSRF-safe transport, a real HTTP receiver on 127.0.0.2, and a host
 * table of the test's own in front of DNS (the transport's injected overrides). The clock is moved to each
 * job's run time by the test. Checked: the retry schedule and what counts as delivered, giving up after the
 * sixth attempt, DNS failures that defer without using an attempt (and end the delivery after 20 in a row),
 * and an address in a private network refused before any request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder } from '../../src/app/orders/create.js';
import { WebhookDispatcher } from '../../src/app/webhooks/deliver.js';
import { WEBHOOK_JOB } from '../../src/app/webhooks/outbox.js';
import { signV1 } from '../../src/domain/webhook-signing.js';
import { RETRY_DELAYS_MS } from '../../src/domain/webhook-retry-schedule.js';
import { createWebhookTransport } from '../../src/http-out/webhook-transport.js';
import type { Alert } from '../../src/kernel/event-bus.js';
import { getJob } from '../../src/store/jobs-repo.js';
import { getDelivery } from '../../src/store/webhooks-repo.js';
import { hdr, startReceiver, startService, stopService, type TestService } from '../helpers.js';
import { runOrderJob } from './order-jobs.js';

let t: TestService;
let r: Awaited<ReturnType<typeof startReceiver>>;
let dispatcher: WebhookDispatcher;
const table = new Map<string, string[]>();
const alerts: Alert[] = [];

beforeAll(async () => {
  t = await startService();
  r = await startReceiver();
  dispatcher = new WebhookDispatcher(t.deps, createWebhookTransport({ allowSubnets: t.deps.config.WEBHOOK_ALLOW_SUBNETS, hosts: { lookup: (h) => table.get(h) } }));
  t.deps.bus.on('alert', (a) => alerts.push(a));
});
afterAll(async () => {
  await dispatcher.close();
  await r.close();
  await stopService(t);
});

let n = 0;
/** A partner whose webhook is `url`, and the delivery of its completed order's `order.completed`. */
async function delivery(url: string): Promise<{ webhookId: string; secret: string }> {
  const p = await t.newPartner({ webhookUrl: url });
  const o = await createOrder(t.deps, p.id, { type: 'stars', idempotency_key: `hook-${++n}`, params: { quantity: 100, recipient: '@hook_user' } });
  await runOrderJob(t, o.order.order_id as string);
  const webhookId = t.db.$client.prepare("select webhook_id from webhook_deliveries where order_id = ? and event = 'order.completed'").pluck().get(o.order.order_id) as string;
  expect(webhookId).toMatch(/^[0-9a-f]{24}$/);
  return { webhookId, secret: p.secret! };
}

/** Runs the delivery's scheduled attempt at its run time. */
async function attempt(webhookId: string): Promise<void> {
  const job = getJob(t.db, WEBHOOK_JOB, webhookId)!;
  expect(job, 'the delivery has a scheduled attempt').toBeDefined();
  t.deps.clock.moveTo(job.runAt);
  await dispatcher.attempt(job);
}

const jobAt = (webhookId: string) => getJob(t.db, WEBHOOK_JOB, webhookId)?.runAt ?? null;
const logOf = (webhookId: string) =>
  (t.db.$client.prepare('select number, manual, status_code, error from webhook_attempts where webhook_id = ? order by attempt_id').all(webhookId) as { number: number; manual: number; status_code: number | null; error: string | null }[]).map((a) => [a.number, a.manual, a.status_code, a.error]);
const requestsOf = (webhookId: string) => r.requests.filter((q) => hdr(q, 'x-webhook-id') === webhookId);

describe('webhook delivery: retries', () => {
  it('six failed attempts at +1 min, +5 min, +30 min, +2 h, +6 h, then failed for good with one alert; each attempt signed and numbered', async () => {
    const { webhookId, secret } = await delivery(r.url);
    r.script.push(500, 500, 500, 500, 500, 500);
    for (let i = 1; i <= 6; i++) {
      await attempt(webhookId);
      const now = t.deps.clock.now();
      const d = getDelivery(t.db, webhookId)!;
      const next = i <= 5 ? now + RETRY_DELAYS_MS[i - 1] : null;
      expect([d.status, d.attempts, d.lastStatusCode, d.lastError, d.nextAttemptAt], `after attempt ${i}`).toEqual([i <= 5 ? 'pending' : 'failed', i, 500, 'HTTP 500', next]);
      expect(jobAt(webhookId), `job after attempt ${i}`).toBe(next);
    }
    expect(RETRY_DELAYS_MS).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]);
    const sent = requestsOf(webhookId);
    expect(sent.map((q) => hdr(q, 'x-webhook-attempt'))).toEqual(['1', '2', '3', '4', '5', '6']);
    for (const q of sent) expect(hdr(q, 'x-signature')).toBe(signV1(secret, q.raw.toString('utf8')));
    expect(logOf(webhookId)).toEqual([1, 2, 3, 4, 5, 6].map((k) => [k, 0, 500, 'HTTP 500']));
    expect(alerts.filter((a) => a.kind === 'webhook_gave_up' && a.webhookId === webhookId)).toEqual([
      expect.objectContaining({ kind: 'webhook_gave_up', webhookId, event: 'order.completed', reason: 'HTTP 500' }),
    ]);
  });

  it('a 3xx is a failure and is not followed; a 2xx later delivers and ends the schedule', async () => {
    const { webhookId } = await delivery(r.url);
    r.script.push(302, 204);
    await attempt(webhookId);
    const first = getDelivery(t.db, webhookId)!;
    expect([first.status, first.attempts, first.lastStatusCode, first.lastError]).toEqual(['pending', 1, 302, 'HTTP 302']);
    await attempt(webhookId);
    const d = getDelivery(t.db, webhookId)!;
    expect([d.status, d.attempts, d.lastStatusCode, d.lastError, d.nextAttemptAt]).toEqual(['delivered', 2, 204, null, null]);
    expect(jobAt(webhookId)).toBeNull();
    expect(requestsOf(webhookId).map((q) => q.path)).toEqual(['/hook', '/hook']); // the redirect's target never asked
    expect(logOf(webhookId)).toEqual([
      [1, 0, 302, 'HTTP 302'],
      [2, 0, 204, null],
    ]);
  });
});

describe('webhook delivery: manual redelivery', () => {
  it('outside the schedule: a failed delivery the receiver now takes becomes delivered; a pending one keeps its status and next attempt even when the receiver takes it', async () => {
    const failed = await delivery(r.url);
    r.script.push(500, 500, 500, 500, 500, 500);
    for (let i = 0; i < 6; i++) await attempt(failed.webhookId);
    expect(getDelivery(t.db, failed.webhookId)!.status).toBe('failed');
    await dispatcher.redeliver(failed.webhookId);
    const d = getDelivery(t.db, failed.webhookId)!;
    expect([d.status, d.attempts, d.manualAttempts, d.lastStatusCode, d.nextAttemptAt]).toEqual(['delivered', 6, 1, 200, null]);
    expect(logOf(failed.webhookId).at(-1)).toEqual([7, 1, 200, null]); // numbered after the six scheduled ones
    expect(jobAt(failed.webhookId)).toBeNull();

    const pending = await delivery(r.url);
    r.script.push(500, 200);
    await attempt(pending.webhookId);
    const next = getDelivery(t.db, pending.webhookId)!.nextAttemptAt;
    await dispatcher.redeliver(pending.webhookId);
    const p = getDelivery(t.db, pending.webhookId)!;
    // even taken by the receiver: its scheduled attempts go on (receivers drop duplicates by X-Webhook-Id)
    expect([p.status, p.attempts, p.manualAttempts, p.lastStatusCode, p.nextAttemptAt]).toEqual(['pending', 1, 1, 200, next]);
    expect(jobAt(pending.webhookId)).toBe(next);
    expect(logOf(pending.webhookId)).toEqual([
      [1, 0, 500, 'HTTP 500'],
      [2, 1, 200, null],
    ]);
  });
});

describe('webhook delivery: DNS', () => {
  it('a DNS failure defers without using an attempt, on the schedule of the next attempt; once the host resolves the first attempt goes out as attempt 1', async () => {
    const host = 'dns-later.test';
    table.set(host, ['not-an-address']); // the host table's answer is unusable: a DNS failure
    const { webhookId } = await delivery(`http://${host}:${r.port}/hook`);
    const delays = [60_000, 300_000, 1_800_000];
    for (let k = 1; k <= 3; k++) {
      await attempt(webhookId);
      const now = t.deps.clock.now();
      const d = getDelivery(t.db, webhookId)!;
      expect([d.status, d.attempts, d.dnsDeferrals, d.lastStatusCode], `after deferral ${k}`).toEqual(['pending', 0, k, null]);
      expect(d.lastError).toMatch(/^dns: dns-later\.test: host table entry "not-an-address" is not an IP address/);
      expect(d.nextAttemptAt).toBe(now + delays[k - 1]);
      expect(jobAt(webhookId)).toBe(now + delays[k - 1]);
    }
    expect(requestsOf(webhookId)).toHaveLength(0);
    expect(logOf(webhookId)).toEqual([]);

    table.set(host, ['127.0.0.2']);
    await attempt(webhookId);
    const d = getDelivery(t.db, webhookId)!;
    expect([d.status, d.attempts, d.lastStatusCode]).toEqual(['delivered', 1, 200]);
    expect(requestsOf(webhookId).map((q) => [hdr(q, 'x-webhook-attempt'), hdr(q, 'host')])).toEqual([['1', `${host}:${r.port}`]]);
    expect(logOf(webhookId)).toEqual([[1, 0, 200, null]]);
  });

  it('20 DNS failures in a row are tolerated; the 21st ends the delivery as failed with rejected_reason dns_failure', async () => {
    const host = 'dns-never.test';
    table.set(host, ['not-an-address']);
    const { webhookId } = await delivery(`http://${host}:${r.port}/hook`);
    for (let k = 1; k <= 20; k++) await attempt(webhookId);
    const d20 = getDelivery(t.db, webhookId)!;
    expect([d20.status, d20.attempts, d20.dnsDeferrals, d20.rejectedReason]).toEqual(['pending', 0, 20, null]);
    // from the fifth deferral on, the wait is the schedule's longest step
    expect(d20.nextAttemptAt! - t.deps.clock.now()).toBe(21_600_000);

    await attempt(webhookId);
    const d = getDelivery(t.db, webhookId)!;
    expect([d.status, d.attempts, d.rejectedReason, d.nextAttemptAt]).toEqual(['failed', 0, 'dns_failure', null]);
    expect(jobAt(webhookId)).toBeNull();
    expect(requestsOf(webhookId)).toHaveLength(0);
    expect(alerts.filter((a) => a.kind === 'webhook_gave_up' && a.webhookId === webhookId).map((a) => (a as { reason: string }).reason)).toEqual(['dns_failure']);
  });

  it('a host resolving into a private network (even beside a public address) is refused before any request, and blocked', async () => {
    const host = 'inside.test';
    table.set(host, ['127.0.0.2', '10.1.2.3']);
    const { webhookId } = await delivery(`http://${host}:${r.port}/hook`);
    await attempt(webhookId);
    const d = getDelivery(t.db, webhookId)!;
    expect([d.status, d.attempts, d.rejectedReason, d.dnsDeferrals]).toEqual(['failed', 0, 'private_address', 0]);
    expect(jobAt(webhookId)).toBeNull();
    expect(requestsOf(webhookId)).toHaveLength(0);
    expect(t.db.$client.prepare('select reason from blocked_webhook_hosts where host = ?').pluck().get(host)).toBe('private_address');
  });
});
