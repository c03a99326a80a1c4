import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GIFT_LIST_QUERY, type GiftListInput } from '../../app/requests/queries.js';
import { documented, pathParam, type Endpoint } from '../route.js';
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

const GIFTS: Endpoint<GiftListInput> = {
  method: 'get',
  path: '/nft/gifts',
  operationId: 'listGifts',
  tag: 'NFT',
  summary: 'Gifts of a collection',
  description: 'Sorted by price, keyset paging: a cursor never repeats or skips an item. Rate limited per key (scope `nft_catalog`).',
  query: GIFT_LIST_QUERY,
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
  // the catalog's own rate limit comes before the query is read: a bad query still counts
  const hit = (req: FastifyRequest) => limiter.hit('nft_catalog', keyOf(req));
  documented(app, COLLECTIONS, async () => catalog.collections(), hit);
  documented(app, GIFTS, async (req) => catalog.list(req.query), hit);
  documented(app, GIFT, async (req) => catalog.quote(req.params.gift), hit);
}
