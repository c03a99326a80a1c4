import type { FastifyInstance } from 'fastify';
import { account } from '../../app/account.js';
import { products } from '../../app/products.js';
import { sendJson } from '../frozen-json.js';
import { documented, type Endpoint } from '../route.js';
import { partnerOf, type PartnerContext } from './context.js';

const ME: Endpoint = {
  method: 'get',
  path: '/me',
  operationId: 'getMe',
  tag: 'Account',
  summary: 'The partner account',
  description: '`balance` and `currency` always mean the dollar balance (kept for compatibility); the TON balance is in `nft_balance` and `balances`.',
  response: 'PartnerAccount',
  okDescription: 'The account.',
  errors: [],
};

const PRODUCTS: Endpoint = {
  method: 'get',
  path: '/products',
  operationId: 'getProducts',
  tag: 'Account',
  summary: 'The catalog of prices',
  description: 'The same prices for every partner; they follow the market, so read them before ordering. While supplier costs cannot be read the answer is HTTP 200 `{unavailable: true, reason: "cost_unavailable"}` and orders are refused.',
  response: 'ProductsResponse',
  okDescription: 'The catalog, or the unavailable marker.',
  errors: [],
};

export const accountEndpoints = [ME, PRODUCTS];

/** GET /me, GET /products */
export function accountRoutes(app: FastifyInstance, { deps }: PartnerContext): void {
  // not async: the answer is at hand, no promise and its microtask
  documented(app, ME, (req, reply) => sendJson(reply, account(deps, partnerOf(req))));
  documented(app, PRODUCTS, async () => products(deps));
}
