import type { FastifyInstance } from 'fastify';
import { GiftListQuery } from '../../app/requests/queries.js';
import { queryParameters } from '../openapi/parameters.js';
import { documented, pathParam, type Endpoint } from '../openapi/endpoint.js';
import { keyOf, type PartnerContext } from './context.js';

const COLLECTIONS: Endpoint = {
  method: 'get',
  path: '/nft/collections',
  operationId: 'listCollections',
  tag: 'NFT',
  summary: 'Gift collections',
  description: 'Rate limited per key (scope `nft_catalog`). The catalog is cached for up to one minute.',
  response: 'CollectionList',
  okDescription: 'The collections.',
  errors: ['product_unavailable'],
};

const GIFTS: Endpoint = {
  method: 'get',
  path: '/nft/gifts',
  operationId: 'listGifts',
  tag: 'NFT',
  summary: 'Gifts of a collection',
  description: 'Sorted by price, keyset paging: a cursor never repeats or skips an item. Rate limited per key (scope `nft_catalog`).',
  parameters: queryParameters(GiftListQuery),
  response: 'GiftList',
  okDescription: 'A page of gifts.',
  errors: ['collection_required', 'bad_sort', 'bad_cursor', 'bad_attr', 'bad_param', 'not_found', 'product_unavailable'],
};

const GIFT: Endpoint = {
  method: 'get',
  path: '/nft/gifts/{gift}',
  operationId: 'getGift',
  tag: 'NFT',
  summary: 'The price of one gift',
  description: 'A fresh quote. `available: false` means sold or delisted: an order for it is refused. Rate limited per key (scope `nft_catalog`).',
  parameters: [pathParam('gift', 'HomemadeCake-6344')],
  response: 'GiftQuote',
  okDescription: 'The quote.',
  errors: ['not_found', 'product_unavailable'],
};

export const nftEndpoints = [COLLECTIONS, GIFTS, GIFT];

/** GET /nft/collections, /nft/gifts, /nft/gifts/{gift}: every NFT catalog read counts against `nft_catalog`. */
export function nftRoutes(app: FastifyInstance, { catalog, limiter }: PartnerContext): void {
  documented(app, COLLECTIONS, async (req) => {
    limiter.hit('nft_catalog', keyOf(req));
    return catalog.collections();
  });
  documented(app, GIFTS, async (req) => {
    limiter.hit('nft_catalog', keyOf(req));
    return catalog.list(req.query as Record<string, unknown>);
  });
  documented<{ Params: { gift: string } }>(app, GIFT, async (req) => {
    limiter.hit('nft_catalog', keyOf(req));
    return catalog.quote(req.params.gift);
  });
}
