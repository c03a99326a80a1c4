import { annotateSpan } from '../../kernel/trace.js';
import { unixSeconds } from '../../domain/time-format.js';
import { afterManualAttempt, afterScheduledAttempt, nextAttemptNumber, type DeliveryStatus } from '../../domain/webhook-delivery.js';
import { MAX_ATTEMPTS, nextAttemptDelay } from '../../domain/webhook-retry-schedule.js';
import { webhookHeaders } from '../../domain/webhook-signing.js';
import { parseAddress } from '../../domain/cidr.js';
import { canonicalHost, checkWebhookUrl, type OwnHost, type WebhookUrlPolicy } from '../../domain/webhook-url-policy.js';
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

/** The `rejected_reason` (and metric outcome) of a delivery whose secret this service's key does not open. */
const SECRET_UNREADABLE = 'secret_unreadable';

/** How long the addresses of the service's own host are kept before they are looked up again. */
const OWN_LOOKUP_MS = 60_000;

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
  /** The webhook URL policy, built with the dispatcher at start: every attempt judges its address by it. */
  private readonly policy: WebhookUrlPolicy;

  constructor(
    private readonly deps: WebhookDispatcherDeps,
    private readonly transport: WebhookTransport,
  ) {
    this.policy = urlPolicy(deps.config);
  }

  attempt(job: Job): Promise<void> {
    return this.exclusive(job.ref, () => this.scheduled(job));
  }

  redeliver(webhookId: string): Promise<void> {
    return this.exclusive(webhookId, () => this.manual(webhookId));
  }

  /** One request of a test webhook, recorded with its outcome at once: sent once, never retried. */
  async sendTest(t: TestWebhook): Promise<void> {
    const { deps } = this;
    const target: Target = t.secret === null ? { kind: 'refused', reason: SECRET_UNREADABLE } : await this.target(t.url);
    const sent = target.kind === 'ready' && t.secret !== null ? await this.post(t, t.body, t.secret, 1, target.addresses) : null;
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
      const unreadable = target.kind === 'refused' && target.reason === SECRET_UNREADABLE;
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId: t.webhookId, orderId: '', partnerId: t.partnerId, event: t.event, status, attempt: sent ? 1 : 0, outcome: unreadable ? SECRET_UNREADABLE : !sent ? 'refused' : sent.ok ? 'delivered' : 'failed_attempt', detail: sent?.error ?? (target.kind === 'refused' ? target.reason : null) }));
      if (unreadable) after(() => this.secretAlert({ webhookId: t.webhookId, orderId: '', partnerId: t.partnerId, event: t.event }));
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

    const secret = deps.secrets.tryOpen(partner.webhookSecretEnc);
    if (secret === null) return this.refuse(job, d, SECRET_UNREADABLE);
    const attempt = d.attempts + 1;
    const number = nextAttemptNumber(d.attempts, d.manualAttempts);
    const sent = await this.post(d, ev.body, secret, number, target.addresses);
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
    const secret = deps.secrets.tryOpen(partner.webhookSecretEnc);
    const target: Target | null = secret === null ? null : await this.target(d.url);
    const sent: Sent =
      target?.kind === 'ready' && secret !== null
        ? await this.post(d, ev.body, secret, number, target.addresses)
        : { sentAt: deps.clock.now(), ok: false, statusCode: null, error: target === null ? SECRET_UNREADABLE : target.kind === 'dns' ? `dns: ${target.detail}`.slice(0, 300) : `address refused: ${target.kind === 'refused' ? target.reason : ''}`, durationMs: null };
    const now = deps.clock.now();
    unitOfWork(deps, (tx, after) => {
      // read again inside the transaction: a scheduled attempt may have changed the delivery meanwhile
      const cur = getDelivery(tx, webhookId)!;
      const status = afterManualAttempt(cur.status as DeliveryStatus, sent.ok);
      recordManualAttempt(tx, { webhookId, manualAttempts: cur.manualAttempts + 1, status, lastStatusCode: sent.statusCode, lastError: sent.error, now });
      insertAttemptLog(tx, { webhookId, number, manual: true, ...this.logOf(sent) });
      if (sent.ok && target?.kind === 'ready') unblockHost(tx, target.host);
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, status, attempt: cur.attempts, outcome: sent.ok ? 'delivered' : secret === null ? SECRET_UNREADABLE : 'failed_attempt', detail: sent.error, manual: true }));
      if (secret === null) after(() => this.secretAlert(d));
    });
  }

  /**
   * The URL policy, then DNS with every address checked; an address of the service's own host (any name
   * of the partner's that points at it) is refused like its name (`private_host`).
   */
  private async target(url: string): Promise<Target> {
    const policy = this.policy;
    const check = checkWebhookUrl(url, policy);
    if (!check.ok) return { kind: 'refused', reason: check.reason };
    const resolved = await this.transport.resolve(check.host, check.literalIp);
    if (!resolved.ok && resolved.kind === 'private') return { kind: 'refused', reason: 'private_address', hostToBlock: check.host };
    if (!resolved.ok) return { kind: 'dns', detail: resolved.detail };
    const own = policy.ownHost;
    if (own && (own.ports === null || own.ports.includes(check.port))) {
      const mine = await this.ownAddresses(own);
      if (resolved.addresses.some((a) => mine.includes(canonicalHost(a.address)))) return { kind: 'refused', reason: 'private_host' };
    }
    return { kind: 'ready', host: check.host, addresses: resolved.addresses };
  }

  /** The addresses of the service's own host: itself when an IP, else looked up like a receiver's (kept a minute). */
  private ownLookup: { at: number; host: string; addresses: string[] } | null = null;
  private async ownAddresses(own: OwnHost): Promise<string[]> {
    if (parseAddress(own.host)) return [own.host];
    const now = this.deps.clock.now();
    if (this.ownLookup && this.ownLookup.host === own.host && now - this.ownLookup.at < OWN_LOOKUP_MS) return this.ownLookup.addresses;
    const r = await this.transport.resolve(own.host, null);
    // a name that does not resolve, or only to private addresses, shares none with an accepted receiver
    const addresses = r.ok ? r.addresses.map((a) => canonicalHost(a.address)) : [];
    this.ownLookup = { at: now, host: own.host, addresses };
    return addresses;
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

  /**
   * Refused before sending: the delivery fails with `rejected_reason`, no request made. The address (the
   * partner's to fix: the give-up alert reaches its owners too), or a secret this service's key does not
   * open (the operators' to fix: their own alert, and its own metric outcome).
   */
  private refuse(job: Job, d: DeliveryRow, reason: string, hostToBlock?: string): void {
    const { deps } = this;
    const now = deps.clock.now();
    const unreadable = reason === SECRET_UNREADABLE;
    unitOfWork(deps, (tx, after) => {
      refuseDelivery(tx, d.webhookId, reason, now);
      if (hostToBlock) blockHost(tx, hostToBlock, reason, now);
      completeJob(tx, job.jobId);
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, status: 'failed', attempt: d.attempts, outcome: unreadable ? SECRET_UNREADABLE : 'refused', detail: reason }));
      if (unreadable) after(() => this.secretAlert(d));
      else after(() => deps.bus.emit('alert', { kind: 'webhook_gave_up', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, reason }));
    });
  }

  /** The partner's secret does not open with this service's key: the operators hear it, and the log says so. */
  private secretAlert(d: { webhookId: string; orderId: string; partnerId: number; event: string }): void {
    const detail = "the partner's webhook secret does not open with this service's key (SECRET_ENCRYPTION_KEY or secret.key): nothing was sent";
    this.deps.log.error({ webhookId: d.webhookId, partnerId: d.partnerId, orderId: d.orderId }, `webhook not sent: ${detail}`);
    this.deps.bus.emit('alert', { kind: 'webhook_secret_unreadable', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, detail });
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
