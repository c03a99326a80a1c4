import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adjustBalance } from '../../app/adjustments.js';
import { resolveDeposit } from '../../app/deposits/resolve.js';
import { listDeposits } from '../../app/deposits/view.js';
import { requireOperator } from '../../app/operator/access.js';
import { createExportLink, openExportLink } from '../../app/operator/export-links.js';
import { operatorOverview } from '../../app/operator/overview.js';
import { inviteForPartner, listPartnersForOperator, onboardPartner } from '../../app/operator/partners.js';
import { productSwitches, switchProduct } from '../../app/operator/products.js';
import { resolveReview } from '../../app/orders/review.js';
import { reviewsWithEvidence } from '../../app/operator/review-evidence.js';
import { listOwnOrders } from '../../app/orders/query.js';
import { ledgerPage } from '../../app/ledger.js';
import { partnerView, requirePartner } from '../../app/partners.js';
import { fail } from '../../domain/errors.js';
import { sendCsv } from '../csv.js';
import { ORDER_LIST_QUERY } from '../../app/requests/queries.js';
import { sendJson } from '../frozen-json.js';
import { route, type RawQuery } from '../route.js';
import { callerOf } from './auth.js';
import { objectBody } from '../../app/requests/parse.js';
import { actorOf, type AppApiDeps } from './context.js';
import type { ExportLink, InviteAnswer, LedgerEntryAnswer, OperatorPartnerCreated, OperatorPartnersAnswer, OperatorProductsAnswer, OverviewAnswer, ProductSwitch, ReviewEvidence } from './types.js';

type P = { Params: { partner_id: string } };

function partnerIdOf(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) fail('not_found', 'No such partner.');
  return Number(raw);
}

/**
 * The operator's console (operator-api.md section 5): Telegram users listed in ADMIN_CHAT_IDS, 403 forbidden
 * for anyone else. Each route calls the service the operator API calls (src/http/admin/), with the
 * operator's Telegram id as the audit actor (`telegram:<id>`).
 */
export function operatorRoutes(app: FastifyInstance, { deps, supplierFunds }: AppApiDeps): void {
  const operator = (req: FastifyRequest) => {
    const id = callerOf(req).telegramUserId;
    requireOperator(deps.config, id);
    return { actor: actorOf(id) };
  };

  app.get('/operator/overview', async (req): Promise<OverviewAnswer> => {
    operator(req);
    return operatorOverview(deps, await supplierFunds());
  });

  app.get<{ Querystring: RawQuery }>('/operator/partners', async (req): Promise<OperatorPartnersAnswer> => {
    operator(req);
    return listPartnersForOperator(deps, req.query);
  });
  app.post('/operator/partners', async (req, reply): Promise<OperatorPartnerCreated> => {
    const o = operator(req);
    const r = onboardPartner(deps, objectBody(req), o.actor);
    reply.code(201);
    return r;
  });
  app.post<P>('/operator/partners/:partner_id/invites', async (req, reply): Promise<InviteAnswer> => {
    const o = operator(req);
    const r = inviteForPartner(deps, partnerIdOf(req.params.partner_id), objectBody(req), o.actor);
    reply.code(201);
    return r;
  });
  // a partner's page in the console: the operator API's partner view, its orders and its ledger
  app.get<P>('/operator/partners/:partner_id', async (req) => {
    operator(req);
    return partnerView(deps, partnerIdOf(req.params.partner_id));
  });
  // who asks and which partner come before the query string
  const partnerOfPage = (req: { params: Record<string, string> }) => requirePartner(deps, partnerIdOf(req.params.partner_id)).partnerId;
  route(app, 'GET', '/operator/partners/:partner_id/orders', { first: (req) => (operator(req), partnerOfPage(req)), query: ORDER_LIST_QUERY }, async (req, reply) =>
    sendJson(reply, listOwnOrders(deps, partnerOfPage(req), req.query)),
  );
  app.get<P & { Querystring: RawQuery }>('/operator/partners/:partner_id/ledger', async (req) => {
    operator(req);
    return ledgerPage(deps, partnerIdOf(req.params.partner_id), req.query);
  });
  // support's correction of a mistaken credit or debit: the operator API's adjustment, audited as this operator
  app.post<P>('/operator/partners/:partner_id/adjustments', async (req, reply): Promise<LedgerEntryAnswer> => {
    const o = operator(req);
    const r = adjustBalance(deps, partnerIdOf(req.params.partner_id), objectBody(req), o.actor);
    reply.code(201);
    return r;
  });

  // a partner's exports: a short-lived link (a download cannot carry the header), then the CSV behind it
  app.post<P>('/operator/partners/:partner_id/exports', async (req, reply): Promise<ExportLink> => {
    const o = operator(req);
    const r = createExportLink(deps, callerOf(req).telegramUserId, partnerIdOf(req.params.partner_id), objectBody(req), o.actor);
    reply.code(201);
    return r;
  });
  app.get<{ Params: { token: string } }>(`/exports/:token`, async (req, reply) => sendCsv(reply, openExportLink(deps, req.params.token)));

  app.get('/operator/reviews', async (req): Promise<{ items: { evidence: ReviewEvidence }[] }> => {
    operator(req);
    return reviewsWithEvidence(deps);
  });
  app.post<{ Params: { order_id: string } }>('/operator/orders/:order_id/resolve', async (req) => {
    const o = operator(req);
    return resolveReview(deps, req.params.order_id, objectBody(req), o.actor);
  });

  app.get<{ Querystring: RawQuery }>('/operator/deposits', async (req) => {
    operator(req);
    return listDeposits(deps, req.query);
  });
  app.post<{ Params: { deposit_id: string } }>('/operator/deposits/:deposit_id/resolve', async (req) => {
    const o = operator(req);
    return resolveDeposit(deps, req.params.deposit_id, req.body ?? {}, o.actor);
  });

  app.get('/operator/products', async (req): Promise<OperatorProductsAnswer> => {
    operator(req);
    return productSwitches(deps);
  });
  app.put<{ Params: { product: string } }>('/operator/products/:product', async (req): Promise<ProductSwitch> => {
    const o = operator(req);
    return switchProduct(deps, req.params.product, objectBody(req), o.actor);
  });
}
