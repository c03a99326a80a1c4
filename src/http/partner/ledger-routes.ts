import type { FastifyInstance } from 'fastify';
import { listOwnLedger } from '../../app/partner-ledger.js';
import { sendJson } from '../frozen-json.js';
import { LEDGER_LIST_QUERY, type LedgerListInput } from '../../app/requests/queries.js';
import { documented, type Endpoint } from '../route.js';
import { partnerOf, type PartnerContext } from './context.js';

const LEDGER: Endpoint<LedgerListInput> = {
  method: 'get',
  path: '/ledger',
  operationId: 'listLedger',
  tag: 'Account',
  summary: 'The partner\'s ledger',
  description: 'Every movement of the balances: top-ups, order debits, refunds, each with the balance after it. Newest first, keyset paging like GET /orders: pass `next_cursor` back as `cursor`.',
  query: LEDGER_LIST_QUERY,
  response: 'LedgerList',
  okDescription: 'A page of entries.',
  errors: ['bad_time', 'bad_limit', 'bad_cursor', 'bad_param'],
};

export const ledgerEndpoints = [LEDGER];

/** GET /ledger: the partner's own ledger entries. */
export function ledgerRoutes(app: FastifyInstance, { deps }: PartnerContext): void {
  documented(app, LEDGER, async (req, reply) => sendJson(reply, listOwnLedger(deps, partnerOf(req), req.query)));
}
