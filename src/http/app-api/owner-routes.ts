import type { FastifyInstance, FastifyRequest } from 'fastify';
import { alertsView, setAlerts } from '../../app/balance-alerts.js';
import { fundingInfo } from '../../app/funding.js';
import { createInvite } from '../../app/invites.js';
import { issueKey } from '../../app/keys.js';
import { listOwnLedger } from '../../app/partner-ledger.js';
import { partnerView } from '../../app/partners.js';
import { requireAllowed, whoOf } from '../../app/permissions.js';
import type { Action } from '../../domain/permissions.js';
import { listTeam, unlinkMember } from '../../app/team.js';
import { cancelTopupRequest, openTopupRequests, topupRequestState } from '../../app/topup-request-state.js';
import { createTopupRequest } from '../../app/topup-requests.js';
import { saveWebhook } from '../../app/webhooks/config.js';
import { listOwnDeliveries, redeliver, sendTestWebhook } from '../../app/webhooks/delivery-log.js';
import { fail } from '../../domain/errors.js';
import { DELIVERY_LIST_QUERY, LEDGER_LIST_QUERY } from '../../app/requests/queries.js';
import { sendJson } from '../frozen-json.js';
import { route } from '../route.js';
import { linkOfReq } from './auth.js';
import { objectBody } from '../../app/requests/parse.js';
import { actorOf, type AppApiDeps } from './context.js';
import type { AlertsAnswer, ApiKeyView, FundingAnswer, InviteAnswer, OpenTopupRequestsAnswer, TeamAnswer, TopupRequestAnswer, WebhookSaved, WebhookView } from './types.js';

/**
 * Owners only (staff get 403 forbidden): the ledger, low-balance alerts, top-ups, the API key, the webhook
 * block and its delivery log, the team. Each change goes through the service the operator API and the bot
 * use, and is audited with the Telegram user as actor. A key or a secret is in the answer of the call that made it, and never again.
 */
export function ownerRoutes(app: FastifyInstance, { deps, keys, sender }: AppApiDeps): void {
  // each route names its action in the permission table (src/domain/permissions.ts): all are owners' today
  const owner = (req: FastifyRequest, action: Action) => {
    const link = linkOfReq(deps, req);
    requireAllowed(whoOf(deps.config, link.telegramUserId, link), action);
    return { partnerId: link.partnerId, actor: actorOf(link.telegramUserId), telegramId: link.telegramUserId };
  };

  // the partner API's GET /ledger: the same service, filters and errors
  route(app, 'GET', '/ledger', { first: (req) => owner(req, 'ledger.view'), query: LEDGER_LIST_QUERY }, async (req, reply) =>
    sendJson(reply, listOwnLedger(deps, owner(req, 'ledger.view').partnerId, req.query)),
  );

  // low-balance alert thresholds: the service of the bot's /alerts and the operator API
  app.get('/alerts', async (req): Promise<AlertsAnswer> => alertsView(deps, owner(req, 'alerts.manage').partnerId));
  app.put('/alerts', async (req): Promise<AlertsAnswer> => {
    const o = owner(req, 'alerts.manage');
    return setAlerts(deps, o.partnerId, objectBody(req), o.actor);
  });

  app.get('/funding', async (req): Promise<FundingAnswer> => fundingInfo(deps, owner(req, 'topups.request').partnerId));
  app.post('/topup-requests', async (req, reply): Promise<TopupRequestAnswer> => {
    const o = owner(req, 'topups.request');
    const r = createTopupRequest(deps, o.partnerId, objectBody(req), o.actor);
    reply.code(201);
    return r;
  });
  // the open requests first (each can be shown again or canceled) and the room left for new ones
  app.get('/topup-requests', async (req): Promise<OpenTopupRequestsAnswer> => openTopupRequests(deps, owner(req, 'topups.request').partnerId));
  app.get<{ Params: { request_id: string } }>('/topup-requests/:request_id', async (req): Promise<TopupRequestAnswer> => topupRequestState(deps, owner(req, 'topups.request').partnerId, req.params.request_id));
  app.delete<{ Params: { request_id: string } }>('/topup-requests/:request_id', async (req): Promise<TopupRequestAnswer> => {
    const o = owner(req, 'topups.request');
    return cancelTopupRequest(deps, o.partnerId, req.params.request_id, o.actor);
  });

  app.get('/api-key', async (req): Promise<{ key: ApiKeyView | null }> => {
    const v = partnerView(deps, owner(req, 'apikey.manage').partnerId);
    return { key: v.keys.find((k) => k.revoked_at === null) ?? null };
  });
  app.post('/api-key', async (req, reply) => {
    const o = owner(req, 'apikey.manage');
    const b = objectBody(req);
    const r = issueKey(deps, keys, o.partnerId, b.ip_whitelist ?? [], o.actor);
    reply.code(201);
    return r;
  });

  app.get('/webhook', async (req): Promise<WebhookView> => partnerView(deps, owner(req, 'webhook.manage').partnerId).webhook);
  app.put('/webhook', async (req): Promise<WebhookSaved> => {
    const o = owner(req, 'webhook.manage');
    const b = objectBody(req);
    for (const k of Object.keys(b)) if (k !== 'url' && k !== 'events') fail('validation_error', `Unknown field: ${k}. Regenerate the secret with POST /webhook/regenerate.`);
    return saveWebhook(deps, o.partnerId, { url: b.url, events: b.events }, o.actor);
  });
  app.post('/webhook/regenerate', async (req): Promise<WebhookSaved> => {
    const o = owner(req, 'webhook.manage');
    const current = partnerView(deps, o.partnerId).webhook.url ?? '';
    return saveWebhook(deps, o.partnerId, { url: current, regenerate_secret: true }, o.actor);
  });

  // the partner API's delivery log, redelivery and test webhook, audited with the person
  route(app, 'GET', '/webhook-deliveries', { first: (req) => owner(req, 'webhook.manage'), query: DELIVERY_LIST_QUERY }, async (req) =>
    listOwnDeliveries(deps, owner(req, 'webhook.manage').partnerId, req.query),
  );
  app.post<{ Params: { delivery_id: string } }>('/webhook-deliveries/:delivery_id/redeliver', async (req) => {
    const o = owner(req, 'webhook.manage');
    return redeliver(deps, sender, o.partnerId, req.params.delivery_id, { actor: o.actor });
  });
  app.post('/webhook/test', async (req) => {
    const o = owner(req, 'webhook.manage');
    return sendTestWebhook(deps, sender, o.partnerId, { actor: o.actor });
  });

  app.get('/team', async (req): Promise<TeamAnswer> => listTeam(deps, owner(req, 'team.manage').partnerId));
  app.post('/team/invites', async (req, reply): Promise<InviteAnswer> => {
    const o = owner(req, 'team.manage');
    const r = createInvite(deps, o.partnerId, objectBody(req).role as never, o.actor);
    reply.code(201);
    return r;
  });
  app.delete<{ Params: { telegram_id: string } }>('/team/:telegram_id', async (req) => {
    const o = owner(req, 'team.manage');
    const id = /^\d{1,15}$/.test(req.params.telegram_id) ? Number(req.params.telegram_id) : -1;
    return unlinkMember(deps, o.partnerId, id, o.telegramId);
  });
}
