import { unixSeconds } from '../domain/time-format.js';
import { MAX_ATTEMPTS, nextAttemptDelay } from '../domain/webhook-retry-schedule.js';
import { webhookHeaders } from '../domain/webhook-signing.js';
import { checkWebhookUrl } from '../domain/webhook-url-policy.js';
import { completeJob, scheduleJob, type JobRow } from '../store/jobs-repo.js';
import { getPartner } from '../store/partners-repo.js';
import { blockHost, getDelivery, getEvent, recordAttempt, recordDnsDeferral, refuseDelivery, unblockHost, type DeliveryRow } from '../store/webhooks-repo.js';
import type { Deps } from '../app/deps.js';
import { unitOfWork, unitOfWorkGrouped } from '../app/unit-of-work.js';
import { urlPolicy } from '../app/webhooks/config.js';
import type { WebhookTransport } from './webhook-transport.js';


/** DNS failures do not use up an attempt; this many in a row end the delivery all the same. */
const MAX_DNS_DEFERRALS = 20;

/**
 * One attempt of one webhook (job `webhook.deliver`, ref = webhook id). Every attempt re-validates the
 * address with DNS, connects only to the checked addresses, signs with the partner's current secret and
 * records the outcome and the next attempt in one transaction.
 */
export class WebhookDispatcher {
  constructor(
    private readonly deps: Deps,
    private readonly transport: WebhookTransport,
  ) {}

  async attempt(job: JobRow): Promise<void> {
    const { deps } = this;
    const d = getDelivery(deps.db, job.ref);
    if (!d || d.status !== 'pending') {
      completeJob(deps.db, job.jobId);
      return;
    }
    const partner = getPartner(deps.db, d.partnerId);
    const ev = getEvent(deps.db, d.eventId);
    if (!partner?.webhookSecretEnc || !ev) return this.refuse(job, d, 'no_secret');

    const check = checkWebhookUrl(d.url, urlPolicy(deps.config));
    if (!check.ok) return this.refuse(job, d, check.reason);
    const resolved = await this.transport.resolve(check.host, check.literalIp);
    if (!resolved.ok && resolved.kind === 'private') return this.refuse(job, d, 'private_address', check.host);
    if (!resolved.ok) {
      const n = d.dnsDeferrals + 1;
      if (n > MAX_DNS_DEFERRALS) return this.refuse(job, d, 'dns_failure');
      const now = deps.clock.now();
      // The next try comes where the schedule would put the next attempt (1 min, 5 min, 30 min, 2 h, 6 h),
      // without counting as one: a fixed 1-minute cadence would end the delivery after ~20 minutes of DNS trouble.
      const at = now + (nextAttemptDelay(Math.min(d.attempts + n, MAX_ATTEMPTS - 1)) ?? 60_000);
      unitOfWork(deps, (tx) => {
        recordDnsDeferral(tx, { webhookId: d.webhookId, deferrals: n, lastError: `dns: ${resolved.detail}`.slice(0, 300), at, now });
        scheduleJob(tx, job.kind, job.ref, at, now);
      });
      return;
    }

    const attempt = d.attempts + 1;
    const secret = deps.secrets.open(partner.webhookSecretEnc);
    const headers = webhookHeaders({ secret, body: ev.body, timestamp: unixSeconds(deps.clock.now()), event: d.event, webhookId: d.webhookId, attempt });
    const result = await this.transport.post(d.url, resolved.addresses, ev.body, headers, deps.config.WEBHOOK_TIMEOUT_MS);

    const now = deps.clock.now();
    const ok = result.kind === 'response' && result.status >= 200 && result.status < 300;
    const statusCode = result.kind === 'response' ? result.status : null;
    const error = result.kind === 'response' ? (ok ? null : `HTTP ${result.status}`) : result.kind === 'timeout' ? 'timeout' : result.detail;
    const delay = ok ? null : nextAttemptDelay(attempt);
    await unitOfWorkGrouped(deps, (tx, after) => {
      if (ok) unblockHost(tx, check.host);
      recordAttempt(tx, {
        webhookId: d.webhookId,
        status: ok ? 'delivered' : delay === null ? 'failed' : 'pending',
        attempts: attempt,
        lastStatusCode: statusCode,
        lastError: error?.slice(0, 300) ?? null,
        nextAttemptAt: delay === null ? null : now + delay,
        now,
      });
      if (delay === null) completeJob(tx, job.jobId);
      else scheduleJob(tx, job.kind, job.ref, now + delay, now);
      const status = ok ? 'delivered' : delay === null ? 'failed' : 'pending';
      after(() => deps.bus.emit('ops', { kind: 'webhook_state', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, status, attempt, outcome: ok ? 'delivered' : delay === null ? 'gave_up' : 'failed_attempt', detail: error }));
      if (!ok && delay === null)
        after(() => deps.bus.emit('alert', { kind: 'webhook_gave_up', webhookId: d.webhookId, orderId: d.orderId, partnerId: d.partnerId, event: d.event, reason: error ?? 'failed' }));
    }, { background: true });
  }

  /** The address was refused before sending: the delivery fails with `rejected_reason`, no request made. */
  private refuse(job: JobRow, d: DeliveryRow, reason: string, hostToBlock?: string): void {
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

  async close(): Promise<void> {
    await this.transport.close();
  }
}
