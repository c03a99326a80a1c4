import type { FastifyInstance } from 'fastify';
import { listOwnLedger } from '../../app/partner-ledger.js';
import { sendJson } from '../frozen-json.js';
import { documented, q, type Endpoint } from '../openapi/endpoint.js';
import { partnerOf, type PartnerContext } from './context.js';

const LEDGER: Endpoint = {
  method: 'get',
  path: '/ledger',
  operationId: 'listLedger',
  tag: 'Account',
  summary: 'The partner\'s ledger',
  description: 'Every movement of the balances: top-ups, order debits, refunds, each with the balance after it. Newest first, keyset paging like GET /orders: pass `next_cursor` back as `cursor`.',
  parameters: [
    q('currency', 'USD or TON (default: both)', { type: 'string', enum: ['USD', 'TON'] }),
    q('from', 'created at or after: ISO 8601 date or date-time (offset optional), or unix seconds'),
    q('to', 'created at or before: same formats as from'),
    q('cursor', 'the next_cursor of the previous page'),
    q('limit', 'page size, 1 to 200, default 50', { type: 'integer', minimum: 1, maximum: 200, default: 50 }),
  ],
  response: 'LedgerList',
  okDescription: 'A page of entries.',
  errors: ['bad_time', 'bad_limit', 'bad_cursor', 'bad_param'],
};

export const ledgerEndpoints = [LEDGER];

/** GET /ledger: the partner's own ledger entries. */
export function ledgerRoutes(app: FastifyInstance, { deps }: PartnerContext): void {
  documented(app, LEDGER, async (req, reply) => sendJson(reply, listOwnLedger(deps, partnerOf(req), req.query as Record<string, unknown>)));
}
