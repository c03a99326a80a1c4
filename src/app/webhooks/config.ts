import { fail } from '../../domain/errors.js';
import { eventsTaken, parseEventList, SUBSCRIBABLE_EVENTS } from '../../domain/webhook-delivery.js';
import { checkWebhookUrl, ownHostOf, type WebhookUrlPolicy } from '../../domain/webhook-url-policy.js';
import { addressRefusal } from '../../domain/address-policy.js';
import { inTx } from '../../store/db.js';
import { audit } from '../../store/audit-repo.js';
import { setWebhook, setWebhookEvents } from '../../store/partners-repo.js';
import type { Config } from '../../config/env.js';
import type { Deps } from '../deps.js';
import { requirePartner } from '../partners.js';
import { isJsonObject } from '../requests/parse.js';

/** The loopback ranges: WEBHOOK_ALLOW_SUBNETS with them lets a webhook receiver on this machine in. */
export const LOCAL_RECEIVER_SUBNETS = ['127.0.0.0/8', '::1/128'];

/** Whether WEBHOOK_ALLOW_SUBNETS lets a receiver at 127.0.0.1 in. */
export function localReceiversAllowed(c: Pick<Config, 'WEBHOOK_ALLOW_SUBNETS'>): boolean {
  return addressRefusal('127.0.0.1', c.WEBHOOK_ALLOW_SUBNETS) === null;
}

/**
 * In sandbox mode a refused loopback address says how to let a local receiver in: an integrator trying
 * webhooks on their own machine meets this refusal first.
 */
function loopbackHint(c: Config): string | undefined {
  if (c.UPSTREAM !== 'sandbox') return undefined;
  return localReceiversAllowed(c)
    ? 'a receiver on this machine is reached by its address: http://127.0.0.1:<port>/…'
    : `to let a receiver on this machine in, start the sandbox with WEBHOOK_ALLOW_SUBNETS=${LOCAL_RECEIVER_SUBNETS.join(',')} and use http://127.0.0.1:<port>/…`;
}

/**
 * The webhook URL policy of a configuration (WEBHOOK_* and the service's own host): built once, on first
 * use, and the same frozen object for every check after it (order creation, the webhook block, each
 * delivery). The configuration is read once at start and never changes.
 */
export function urlPolicy(c: Config): WebhookUrlPolicy {
  let policy = policies.get(c);
  if (!policy) {
    policy = Object.freeze({
      requireHttps: c.WEBHOOK_REQUIRE_HTTPS,
      standardPortsOnly: c.WEBHOOK_STANDARD_PORTS_ONLY,
      maxLength: c.WEBHOOK_URL_MAX_LENGTH,
      allowSubnets: c.WEBHOOK_ALLOW_SUBNETS,
      // RFC 6761 names (.test, .example) pass input checks like any domain; delivery judges their addresses.
      blockReservedTestZones: false,
      loopbackHint: loopbackHint(c),
      // PUBLIC_BASE_URL's host and the ports the service listens on
      ownHost: ownHostOf(c.publicBaseUrl, [c.PORT, ...(c.METRICS_PORT ? [c.METRICS_PORT] : [])]),
    });
    policies.set(c, policy);
  }
  return policy;
}
const policies = new WeakMap<Config, WebhookUrlPolicy>();

/** What saveWebhook uses of the service. */
export type SaveWebhookDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'secrets'>;

/**
 * Saves the webhook block (operator-api.md PUT /partners/{id}/webhook). The first save creates the secret
 * and shows it once; `regenerate_secret` replaces it at once (retries of earlier webhooks are signed with
 * the new one, since every attempt signs with the current secret). `events` (optional; left as it is when
 * absent) lists the events the partner takes: by default the three order events, so a receiver never sees
 * a kind it did not ask for (`balance.low` is opt-in).
 */
export function saveWebhook(deps: SaveWebhookDeps, partnerId: number, body: unknown, actor: string): { url: string; events: string[]; secret?: string } {
  // anything but an object reads as one without these fields (an array has none of them either)
  const b = isJsonObject(body) ? body : {};
  const partner = requirePartner(deps, partnerId);
  if (typeof b.url !== 'string') fail('bad_webhook_url', 'url must be a string ("" for none).', { reason: 'bad_url' });
  if (b.regenerate_secret !== undefined && typeof b.regenerate_secret !== 'boolean') fail('validation_error', 'regenerate_secret must be a boolean.');
  const events = b.events === undefined ? undefined : eventsOf(b.events);
  let url = '';
  if (b.url !== '') {
    const r = checkWebhookUrl(b.url, urlPolicy(deps.config));
    if (!r.ok) fail('bad_webhook_url', r.detail, { reason: r.reason });
    url = r.url;
  }
  const newSecret = partner.webhookSecretEnc === null || b.regenerate_secret === true ? `whsec_${deps.ids.hex(32)}` : undefined;
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    setWebhook(tx, partnerId, url, newSecret ? deps.secrets.seal(newSecret) : null, events);
    // The secret itself never reaches the audit log.
    audit(tx, now, actor, 'webhook.save', String(partnerId), { url, secret_regenerated: Boolean(newSecret), ...(events ? { events } : {}) });
  });
  const taken = [...(events ?? eventsTaken(partner.webhookEvents))];
  return newSecret ? { url, events: taken, secret: newSecret } : { url, events: taken };
}

/**
 * Chooses the events the partner's webhook takes, leaving its address and secret as they are: no secret is
 * made by this (the first address saved makes it), so choosing events before any address shows none.
 */
export function saveWebhookEvents(deps: Pick<Deps, 'db' | 'clock'>, partnerId: number, events: unknown, actor: string): { events: string[] } {
  requirePartner(deps, partnerId);
  const list = eventsOf(events);
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    setWebhookEvents(tx, partnerId, list);
    audit(tx, now, actor, 'webhook.events', String(partnerId), { events: list });
  });
  return { events: [...list] };
}

/** The events a webhook takes, checked: 400 validation_error for an empty list or an unknown event. */
function eventsOf(value: unknown): string[] {
  const r = parseEventList(value);
  if (!r.ok)
    fail('validation_error', `${r.bad === null ? 'events must be a non-empty list' : `Unknown event "${r.bad}"`}: events lists one or more of ${SUBSCRIBABLE_EVENTS.join(', ')}.`, { field: 'events' });
  return r.events;
}
