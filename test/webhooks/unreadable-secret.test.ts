import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/app/secrets.js';
import type { Alert } from '../../src/kernel/event-bus.js';
import { perTest, type TestService } from '../helpers.js';

/**
 * A webhook whose partner secret does not open with the service's key (a row sealed with another key, or
 * damaged: start-up refuses a wrong key, so only single rows can be in this state) fails loudly: the
 * delivery ends `failed` with `rejected_reason: secret_unreadable` and no request, the operators get an
 * alert of their own (the partner's owners are not told to fix their server), and the metric counts it;
 * never `pending` with 0 attempts for ever.
 */
const { service, receiver } = perTest();
const METRICS = 'metrics_token_unreadable_0123456789';

/** A partner whose saved secret is sealed with a key this service does not have. */
async function partnerWithForeignSecret(t: TestService, url: string) {
  const p = await t.newPartner({ webhookUrl: url });
  const foreign = new SecretBox(crypto.randomBytes(32)).seal('whsec_sealed_elsewhere');
  t.db.$client.prepare('update partners set webhook_secret_enc = ? where partner_id = ?').run(foreign, p.id);
  return p;
}

const metric = async (t: TestService, outcome: string) => {
  const page = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS}` } })).body;
  const m = new RegExp(`^partner_service_webhook_attempts_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(page);
  return m ? Number(m[1]) : null;
};

describe('a webhook secret the service cannot open', () => {
  it('the scheduled delivery fails at once with rejected_reason secret_unreadable: no request, an operator alert, the metric', async () => {
    const t = await service({ METRICS_TOKEN: METRICS });
    const r = await receiver();
    const alerts: Alert[] = [];
    t.deps.bus.on('alert', (a) => alerts.push(a));
    const p = await partnerWithForeignSecret(t, r.url);
    expect(await metric(t, 'secret_unreadable')).toBe(0);

    const o = await p.order('stars', { quantity: 100, recipient: '@sealed_user' });
    expect(o.status, o.raw).toBe(200);
    const orderId = o.body.order_id as string;
    await t.advance(5);
    expect((await p.call('GET', `/orders/${orderId}`)).body.status).toBe('completed');

    const list = await t.admin('GET', `/webhook-deliveries?order_id=${orderId}`);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([expect.objectContaining({ event: 'order.completed', status: 'failed', attempts: 0, rejected_reason: 'secret_unreadable', next_attempt_at: null })]);
    const webhookId = list.body.items[0].webhook_id;
    expect(r.requests).toEqual([]);
    expect(alerts).toEqual([
      {
        kind: 'webhook_secret_unreadable',
        webhookId,
        orderId,
        partnerId: p.id,
        event: 'order.completed',
        detail: "the partner's webhook secret does not open with this service's key (SECRET_ENCRYPTION_KEY or secret.key): nothing was sent",
      },
    ]);
    expect(await metric(t, 'secret_unreadable')).toBe(1);
    // nothing is left to retry: a day later still no request, no second alert
    await t.advance(86_400);
    expect(r.requests).toEqual([]);
    expect(alerts).toHaveLength(1);

    // a manual redelivery makes no request either: the log says why, the operators hear it again
    const again = await p.call('POST', `/webhook-deliveries/${webhookId}/redeliver`);
    expect(again.status, again.raw).toBe(200);
    expect(again.body).toMatchObject({ status: 'failed', rejected_reason: 'secret_unreadable' });
    expect(again.body.attempts).toEqual([expect.objectContaining({ number: 1, manual: true, http_status: null, error: 'secret_unreadable' })]);
    expect(r.requests).toEqual([]);
    expect(alerts.map((a) => a.kind)).toEqual(['webhook_secret_unreadable', 'webhook_secret_unreadable']);
  });

  it('a test webhook answers the failed delivery (not a 500), with rejected_reason secret_unreadable', async () => {
    const t = await service();
    const r = await receiver();
    const alerts: Alert[] = [];
    t.deps.bus.on('alert', (a) => alerts.push(a));
    const p = await partnerWithForeignSecret(t, r.url);
    const res = await p.call('POST', '/webhook/test');
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({ event: 'webhook.test', status: 'failed', attempts: [], rejected_reason: 'secret_unreadable' });
    expect(r.requests).toEqual([]);
    expect(alerts).toEqual([expect.objectContaining({ kind: 'webhook_secret_unreadable', partnerId: p.id, event: 'webhook.test' })]);
  });
});
