import { annotateSpan } from '../../kernel/trace.js';
import { unixSeconds } from '../../domain/time-format.js';
import { afterManualAttempt, afterScheduledAttempt, nextAttemptNumber, type DeliveryStatus } from '../../domain/webhook-delivery.js';
import { MAX_ATTEMPTS, nextAttemptDelay } from '../../domain/webhook-retry-schedule.js';
import { webhookHeaders } from '../../domain/webhook-signing.js';
import { checkWebhookUrl } from '../../domain/webhook-url-policy.js';
import { completeJob, scheduleJob } from '../../store/jobs-repo.js';
import type { Job } from '../job-queue.js';
import { getPartner } from '../../store/partners-repo.js';
import {
  blockHost,
  getDelivery,
  getEvent,
  insertAttemptLog,
  insertEvent,
  insertFinishedDelivery,
  recordAttempt,
  recordDnsDeferral,
  recordManualAttempt,
  refuseDelivery,
  unblockHost,
  type DeliveryRow,
} from '../../store/webhooks-repo.js';
import type { Deps } from '../deps.js';
import { unitOfWork, unitOfWorkGrouped } from '../unit-of-work.js';
import { urlPolicy } from './config.js';
import type { DeliverySender, TestWebhook } from './sender.js';
import type { PinnedAddress, WebhookTransport } from './transport.js';

/** DNS failures do not use up an attempt; this many in a row end the delivery all the same. */
const MAX_DNS_DEFERRALS = 20;

/** Where a delivery's address stands right before a request: refused, unresolvable, or these checked addresses. */
type Target =
  | { kind: 'refused'; reason: string; hostToBlock?: string }
  | { kind: 'dns'; detail: string }
  | { kind: 'ready'; host: string; addresses: PinnedAddress[] };

/** The outcome of one request. */
interface Sent {
  sentAt: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** null when no request was made */
  durationMs: number | null;
}

/** What WebhookDispatcher uses of the service. */
export type WebhookDispatcherDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'secrets' | 'bus' | 'commits'>;

/**
 * Sends webhooks: the scheduled attempts (job `webhook.deliver`, ref = webhook id), manual redeliveries and
 * test webhooks. Every request re-validates the address with DNS, connects only to the checked addresses,
 * signs with the partner's current secret, and records the outcome, the log entry of the request and the
 * next attempt in one transaction. Requests of one delivery never overlap (their attempt numbers would).
 */
export class WebhookDispatcher implements DeliverySender {
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: WebhookDispatcherDeps,
    private readonly transport: WebhookTransport,
  ) {}

  attempt(job: Job): Promise<void> {
    return this.exclusive(job.ref, () => this.scheduled(job));
  }

  redeliver(webhookId: string): Promise<void> {
    return this.exclusive(webhookId, () => this.manual(webhookId));
  }

  /** One request of a test webhook, recorded with its outcome at once: sent once, never retried. */
  async sendTest(t: TestWebhook): Promise<void> {
    const { deps } = this;
    const target = await this.target(t.url);
    const sent = target.kind === 'ready' ? await this.post(t, t.body, t.secret, 1, target.addresses) : null;
    const now = deps.clock.now();
    const outcome = sent ? afterScheduledAttempt(1, sent.ok, false) : null;
    unitOfWork(deps, (tx, after) => {
      const eventId = insertEvent(tx, { partnerId: t.partnerId, orderId: '', event: t.event, body: t.body, createdAt: now });
      insertFinishedDelivery(tx, {
        webhookId: t.webhookId,
        eventId,
        partnerId: t.partnerId,
        orderId: '',
        event: t.event,
        url: t.url,
        status: outcome?.status ?? 'failed',
        attempts: sent ? 1 : 0,
        lastStatusCode: sent?.statusCode ?? null,
        lastError: sent ? sent.error : target.kind === 'dns' ? `dns: ${target.detail}`.slice(0, 300) : null,
        rejectedReason: target.kind === 'refused' ? target.reason : target.kind === 'dns' ? 'dns_failure' : null,
        nextAttemptAt: null,
        createdAt: now,
        updatedAt: now,
      });
      if (sent) insertAttemptLog(tx, { webhookId: t.webhookId, number: 1, manual: false, ...this.logOf(sent) });
      if (sent?.ok && target.kind === 'ready') unblockHost(tx, target.host);
      if (target.kind === 'refused' && target.hostToBlock) blockHost(tx, target.hostToBlock, target.reason, now);
      const status = outcome?.status ?? 'failed';
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId: t.webhookId, orderId: '', partnerId: t.partnerId, event: t.event, status, attempt: sent ? 1 : 0, outcome: !sent ? 'refused' : sent.ok ? 'delivered' : 'failed_attempt', detail: sent?.error ?? (target.kind === 'refused' ? target.reason : null) }));
    });
  }

  private async scheduled(job: Job): Promise<void> {
    const { deps } = this;
    const d = getDelivery(deps.db, job.ref);
    if (!d || d.status !== 'pending') {
      completeJob(deps.db, job.jobId);
      return;
    }
    // the delivery's job span carries its order (src/kernel/trace.ts; nothing without traces)
    annotateSpan({ 'order.id': d.orderId, 'webhook.id': d.webhookId, 'webhook.event': d.event, 'webhook.attempt': d.attempts + 1 });
    const partner = getPartner(deps.db, d.partnerId);
    const ev = getEvent(deps.db, d.eventId);
    if (!partner?.webhookSecretEnc || !ev) return this.refuse(job, d, 'no_secret');

    const target = await this.target(d.url);
    if (target.kind === 'refused') return this.refuse(job, d, target.reason, target.hostToBlock);
    if (target.kind === 'dns') {
      const n = d.dnsDeferrals + 1;
      if (n > MAX_DNS_DEFERRALS) return this.refuse(job, d, 'dns_failure');
      const now = deps.clock.now();
      // The next try comes where the schedule would put the next attempt (1 min, 5 min, 30 min, 2 h, 6 h),
      // without counting as one: a fixed 1-minute cadence would end the delivery after ~20 minutes of DNS trouble.
      const at = now + (nextAttemptDelay(Math.min(d.attempts + n, MAX_ATTEMPTS - 1)) ?? 60_000);
      unitOfWork(deps, (tx) => {
        recordDnsDeferral(tx, { webhookId: d.webhookId, deferrals: n, lastError: `dns: ${target.detail}`.slice(0, 300), at, now });
        scheduleJob(tx, job.kind, job.ref, at, now);
      });
      return;
    }

    const attempt = d.attempts + 1;
    const number = nextAttemptNumber(d.attempts, d.manualAttempts);
    const sent = await this.post(d, ev.body, deps.secrets.open(partner.webhookSecretEnc), number, target.addresses);
    const now = deps.clock.now();
    const { status, delayMs } = afterScheduledAttempt(attempt, sent.ok, true);
    await unitOfWorkGrouped(deps, (tx, after) => {
      if (sent.ok) unblockHost(tx, target.host);
      recordAttempt(tx, {
        webhookId: d.webhookId,
        status,
        attempts: attempt,
        lastStatusCode: sent.statusCode,
        lastError: sent.error,
        nextAttemptAt: delayMs === null ? null : now + delayMs,
        now,
      });
      insertAttemptLog(tx, { webhookId: d.webhookId, number, manual: false, ...this.logOf(sent) });
      if (delayMs === null) completeJob(tx, job.jobId);
      else scheduleJob(tx, job.kind, job.ref, now + delayMs, now);
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, status, attempt, outcome: sent.ok ? 'delivered' : delayMs === null ? 'gave_up' : 'failed_attempt', detail: sent.error }));
      if (status === 'failed')
        after(() => deps.bus.emit('alert', { kind: 'webhook_gave_up', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, reason: sent.error ?? 'failed' }));
    }, { background: true });
  }

  /**
   * A manual redelivery: the same body and X-Webhook-Id, the current secret, the delivery's address. It is
   * logged, but uses no scheduled attempt and leaves next_attempt_at alone; its effect on the status is
   * afterManualAttempt's. When no request can be made (address refused, DNS failure) the log says why.
   */
  private async manual(webhookId: string): Promise<void> {
    const { deps } = this;
    const d = getDelivery(deps.db, webhookId);
    const partner = d && getPartner(deps.db, d.partnerId);
    const ev = d && getEvent(deps.db, d.eventId);
    if (!d || !ev || !partner?.webhookSecretEnc) return;
    const number = nextAttemptNumber(d.attempts, d.manualAttempts);
    const target = await this.target(d.url);
    const sent: Sent =
      target.kind === 'ready'
        ? await this.post(d, ev.body, deps.secrets.open(partner.webhookSecretEnc), number, target.addresses)
        : { sentAt: deps.clock.now(), ok: false, statusCode: null, error: target.kind === 'dns' ? `dns: ${target.detail}`.slice(0, 300) : `address refused: ${target.reason}`, durationMs: null };
    const now = deps.clock.now();
    unitOfWork(deps, (tx, after) => {
      // read again inside the transaction: a scheduled attempt may have changed the delivery meanwhile
      const cur = getDelivery(tx, webhookId)!;
      const status = afterManualAttempt(cur.status as DeliveryStatus, sent.ok);
      recordManualAttempt(tx, { webhookId, manualAttempts: cur.manualAttempts + 1, status, lastStatusCode: sent.statusCode, lastError: sent.error, now });
      insertAttemptLog(tx, { webhookId, number, manual: true, ...this.logOf(sent) });
      if (sent.ok && target.kind === 'ready') unblockHost(tx, target.host);
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, status, attempt: cur.attempts, outcome: sent.ok ? 'delivered' : 'failed_attempt', detail: sent.error, manual: true }));
    });
  }

  /** The URL policy, then DNS with every address checked. */
  private async target(url: string): Promise<Target> {
    const check = checkWebhookUrl(url, urlPolicy(this.deps.config));
    if (!check.ok) return { kind: 'refused', reason: check.reason };
    const resolved = await this.transport.resolve(check.host, check.literalIp);
    if (!resolved.ok && resolved.kind === 'private') return { kind: 'refused', reason: 'private_address', hostToBlock: check.host };
    if (!resolved.ok) return { kind: 'dns', detail: resolved.detail };
    return { kind: 'ready', host: check.host, addresses: resolved.addresses };
  }

  /** One signed request. */
  private async post(d: { url: string; event: string; webhookId: string }, body: string, secret: string, number: number, addresses: PinnedAddress[]): Promise<Sent> {
    const { deps } = this;
    const sentAt = deps.clock.now();
    const headers = webhookHeaders({ secret, body, timestamp: unixSeconds(sentAt), event: d.event, webhookId: d.webhookId, attempt: number });
    const result = await this.transport.post(d.url, addresses, body, headers, deps.config.WEBHOOK_TIMEOUT_MS);
    const ok = result.kind === 'response' && result.status >= 200 && result.status < 300;
    const statusCode = result.kind === 'response' ? result.status : null;
    const error = result.kind === 'response' ? (ok ? null : `HTTP ${result.status}`) : result.kind === 'timeout' ? 'timeout' : result.detail.slice(0, 300);
    return { sentAt, ok, statusCode, error, durationMs: result.durationMs };
  }

  private logOf(s: Sent) {
    return { sentAt: s.sentAt, statusCode: s.statusCode, error: s.error, durationMs: s.durationMs };
  }

  /** The address was refused before sending: the delivery fails with `rejected_reason`, no request made. */
  private refuse(job: Job, d: DeliveryRow, reason: string, hostToBlock?: string): void {
    const { deps } = this;
    const now = deps.clock.now();
    unitOfWork(deps, (tx, after) => {
      refuseDelivery(tx, d.webhookId, reason, now);
      if (hostToBlock) blockHost(tx, hostToBlock, reason, now);
      completeJob(tx, job.jobId);
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, status: 'failed', attempt: d.attempts, outcome: 'refused', detail: reason }));
      after(() => deps.bus.emit('alert', { kind: 'webhook_gave_up', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, reason }));
    });
  }

  /** Runs `fn` after any request of the same delivery in flight has finished. */
  private async exclusive<T>(webhookId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.busy.get(webhookId);
    const run = (before ?? Promise.resolve()).catch(() => undefined).then(fn);
    this.busy.set(webhookId, run);
    try {
      return await run;
    } finally {
      if (this.busy.get(webhookId) === run) this.busy.delete(webhookId);
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
